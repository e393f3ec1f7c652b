/// <reference types="vitest/config" />
import tailwindcss from '@tailwindcss/vite'
import react from '@vitejs/plugin-react'
import { fileURLToPath } from 'node:url'
import { defineConfig, type Plugin, type ProxyOptions } from 'vite'

// Paths the Go server answers; everything else is the single-page app. Patterns starting with
// '^' are regular expressions, so /creative/image is proxied but the /creatives screens are not.
const serverPaths = [
  '/api',
  '/users',
  '/companies',
  '/company-exists',
  '/signup',
  '/signin',
  '/healthz',
  '/readyz',
  '^/upload_',
  '^/creative/',
  '^/proof/',
  '/moderate-signin',
]

const target = process.env.MARQUEE_API ?? 'http://127.0.0.1:8080'
const proxy: Record<string, ProxyOptions> = Object.fromEntries(
  serverPaths.map((path) => [path, { target, changeOrigin: false }]),
)

/**
 * index.html preloads the chunks that src/main.tsx imports as it runs (the app's parts, one a
 * task: issue 30), as Vite preloads a static import's, so that they are fetched with the entry and
 * not one after another behind it. scripts/prerender.mjs does the same for the prerendered pages.
 */
function preloadStartChunks(): Plugin {
  return {
    name: 'marquee:preload-start-chunks',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(_html, { chunk, bundle }) {
        if (!chunk || !bundle) return
        const files = new Set<string>()
        const visit = (file: string) => {
          const out = bundle[file]
          if (out?.type !== 'chunk' || files.has(file)) return
          files.add(file)
          out.imports.forEach(visit)
        }
        chunk.dynamicImports.forEach(visit)
        // The entry's static imports are preloaded by Vite already.
        for (const file of chunk.imports) files.delete(file)
        return [...files].map((file) => ({ tag: 'link', attrs: { rel: 'modulepreload', crossorigin: true, href: `/${file}` }, injectTo: 'head' as const }))
      },
    },
  }
}

/**
 * React Router's production build, for a build. Its package's exports name only its development
 * build (remix-run/react-router#12532, #14753), which runs its development checks in production:
 * ENABLE_DEV_WARNINGS is true there, so useRoutes checks its matches on each render and every
 * route is checked as the router is made. The production build is the same code with it false.
 */
const reactRouterProduction = [
  { find: /^react-router$/, replacement: fileURLToPath(new URL('./node_modules/react-router/dist/production/index.mjs', import.meta.url)) },
]

export default defineConfig(({ mode, command }) => ({
  plugins: [react(), tailwindcss(), preloadStartChunks()],
  resolve: { alias: command === 'build' ? reactRouterProduction : [] },
  server: { proxy },
  preview: { proxy },
  build: {
    outDir: 'dist',
    // The static public pages' small app (src/public-main.tsx) is a build of its own, into
    // the same dist/ after the whole app's: sharing chunks with the whole app would give the
    // landing page the data router too.
    emptyOutDir: mode !== 'public',
    sourcemap: false,
    // scripts/prerender.mjs reads the manifests to give each prerendered page its entry's files.
    manifest: mode === 'public' ? '.vite/public-manifest.json' : true,
    rolldownOptions:
      mode === 'public'
        ? { input: 'src/public-main.tsx' }
        : // Vite's helper for dynamic imports, in a chunk of its own: the entry (main.tsx) uses it,
          // and in the entry's chunk every other chunk would import the entry, and with it the
          // stylesheet that the prerendered pages inline (the helper fetched it again before each import).
          { output: { codeSplitting: { groups: [{ name: 'preload-helper', test: /vite\/preload-helper/ }] } } },
  },
  test: {
    restoreMocks: true,
    // Two environments: a DOM (jsdom) for the components and the few .ts tests that need one
    // (named *.dom.test.ts), and plain Node for the rest of the .ts tests, the logic ones. A jsdom
    // environment costs each file 1 to 2 s of a 2-core CI machine to set up (docs/performance.md,
    // the CI runs); the logic files run in 15 s without it.
    projects: [
      {
        extends: true,
        test: { name: 'dom', environment: 'jsdom', setupFiles: ['./src/test/setup.ts'], include: ['src/**/*.test.tsx', 'src/**/*.dom.test.ts'] },
      },
      { extends: true, test: { name: 'logic', environment: 'node', include: ['src/**/*.test.ts'], exclude: ['src/**/*.dom.test.ts'] } },
    ],
    // Every core: Vitest's own default in a run is one fewer than the cores, one worker on the
    // 2-core CI machines, where the main process is idle while the files run (228 s against 139 s
    // for the whole suite; docs/performance.md, the CI runs).
    maxWorkers: '100%',
  },
}))
