/// <reference types="vitest/config" />
import tailwindcss from '@tailwindcss/vite'
import react from '@vitejs/plugin-react'
import { defineConfig, type ProxyOptions } from 'vite'

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

export default defineConfig(({ mode }) => ({
  plugins: [react(), tailwindcss()],
  server: { proxy },
  preview: { proxy },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: false,
    // scripts/prerender.mjs reads the manifests to give each prerendered page its entry's files.
    manifest: mode === 'public' ? '.vite/public-manifest.json' : true,
    // The static public pages' small app (src/public-main.tsx) is a build of its own, into
    // the same dist/ after the whole app's: sharing chunks with the whole app would give the
    // landing page the data router too.
    ...(mode === 'public' ? { emptyOutDir: false, rollupOptions: { input: 'src/public-main.tsx' } } : {}),
  },
  test: {
    environment: 'jsdom',
    setupFiles: ['./src/test/setup.ts'],
    include: ['src/**/*.test.{ts,tsx}'],
    restoreMocks: true,
  },
}))
