// The web app's lint, run by `npm run lint` and by `make test` (make lint-web). The layering of
// docs/architecture.md ("The web app") is checked here: platform/ imports no feature and no app
// code, a feature imports platform/ and its own code, and another feature's shared/ folder only
// when the table `shares` below names it.
import js from '@eslint/js'
import importPlugin from 'eslint-plugin-import'
import reactHooks from 'eslint-plugin-react-hooks'
import globals from 'globals'
import tseslint from 'typescript-eslint'
import { readdirSync } from 'node:fs'

const features = readdirSync(new URL('./src/features', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)

// Which features a feature may import, and then only their shared/ folder (docs/architecture.md
// "Shared features" says why each is shared). Any other import from one feature into another is
// an error.
const shares = {
  // The campaign form takes the card and promo modals, the creative selector, and the markets,
  // faces and place search of locations; the detail page retries a payment and swaps a creative.
  campaigns: ['billing', 'creatives', 'locations'],
  // The Ad Design Tool checks a design against a face the user picks from a market's faces.
  creatives: ['locations'],
  // /profile shows the card on file and the partner profile; /admin/companies removes a promo and
  // uploads a creative for a company.
  identity: ['billing', 'creatives', 'partners'],
  // /admin/special-users certifies a user, an identity call.
  partners: ['identity'],
  // /admin/screens draws the screens on the map with the map's tiles, and pairs a screen with a face.
  screens: ['locations'],
}

const featureZones = features.map((feature) => ({
  target: `./src/features/${feature}`,
  from: './src/features',
  except: [`./${feature}`, ...(shares[feature] ?? []).map((shared) => `./${shared}/shared`)],
  message: `A feature imports platform/, itself, and the shared/ folder of the features docs/architecture.md lists for it.`,
}))

export default tseslint.config(
  { ignores: ['dist', 'dist-ssr', 'test-output', 'playwright-report', 'src/platform/api-types'] },
  {
    files: ['**/*.{ts,tsx}'],
    extends: [js.configs.recommended, ...tseslint.configs.recommended],
    languageOptions: { ecmaVersion: 2023, globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks, import: importPlugin },
    settings: {
      'import/resolver': { node: { extensions: ['.ts', '.tsx', '.js', '.mjs'] } },
    },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'react-hooks/exhaustive-deps': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'import/no-restricted-paths': [
        'error',
        {
          zones: [
            {
              target: './src/platform',
              from: ['./src/features', './src/app'],
              message: 'platform/ is the kernel of the web app: it imports no feature and no app code.',
            },
            ...featureZones,
          ],
        },
      ],
    },
  },
  {
    // A platform test may mount the component in the app's store (the api slice with every
    // endpoint); platform code itself still imports no app code.
    files: ['src/platform/**/*.test.{ts,tsx}'],
    rules: {
      'import/no-restricted-paths': [
        'error',
        { zones: [{ target: './src/platform', from: './src/features', message: 'platform/ imports no feature.' }] },
      ],
    },
  },
  {
    files: ['*.config.ts', 'e2e/**/*.ts', 'scripts/**/*.{js,mjs}', '*.config.js'],
    languageOptions: { globals: { ...globals.node } },
  },
)
