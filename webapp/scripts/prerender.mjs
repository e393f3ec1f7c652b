// Prerenders the public pages after `vite build` (docs/performance.md): each page's HTML
// is rendered by React's server renderer (src/entry-server.tsx, built with `vite build --ssr` into
// dist-ssr/) and written to dist/prerendered/<page>.html, which the Go server sends to a browser
// without a session (platform/server/spa.go). Each page inlines the stylesheet (no render-blocking
// request), preloads the Kanit face of the body text (the largest paint is a paragraph), and loads only its entry's scripts: the
// static pages the small public app, login and register the whole app.
import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const web = join(dirname(fileURLToPath(import.meta.url)), '..')
const dist = join(web, 'dist')
const ssr = join(web, 'dist-ssr')
const { renderStatic, renderApp, STATIC_PATHS, APP_PATHS, APP_PAGE_SOURCES } = await import(join(ssr, 'entry-server.js'))

const manifests = {
  app: JSON.parse(readFileSync(join(dist, '.vite', 'manifest.json'), 'utf8')),
  public: JSON.parse(readFileSync(join(dist, '.vite', 'public-manifest.json'), 'utf8')),
}
const template = readFileSync(join(dist, 'index.html'), 'utf8')

/**
 * An entry's script, the chunks it imports and those of the page's own modules (to preload), its
 * stylesheets, and the chunks of `later` (modules the page imports once it runs) to preload after
 * the script.
 */
function entryFiles(build, key, pageKeys = [], later = []) {
  const manifest = manifests[build]
  const entry = manifest[key]
  if (!entry) throw new Error(`no ${key} in the ${build} build manifest`)
  const preload = new Set()
  const visit = (k) => {
    for (const dep of manifest[k].imports ?? []) {
      if (!preload.has(manifest[dep].file)) {
        preload.add(manifest[dep].file)
        visit(dep)
      }
    }
  }
  visit(key)
  // What the whole app's entry imports as it runs: main.tsx imports its parts one a task (issue
  // 30), and each import must find its chunk fetched already. (The static pages' entry imports
  // only its pages dynamically, each when it is visited: the landing page's budget.)
  for (const dynamicKey of build === 'app' ? (entry.dynamicImports ?? []) : []) {
    preload.add(manifest[dynamicKey].file)
    visit(dynamicKey)
  }
  for (const pageKey of pageKeys) {
    if (!manifest[pageKey]) throw new Error(`no ${pageKey} in the ${build} build manifest`)
    preload.add(manifest[pageKey].file)
    visit(pageKey)
  }
  const before = new Set(preload)
  for (const laterKey of later) {
    if (!manifest[laterKey]) throw new Error(`no ${laterKey} in the ${build} build manifest`)
    preload.add(manifest[laterKey].file)
    visit(laterKey)
  }
  return { script: entry.file, preload: [...before], after: [...preload].filter((f) => !before.has(f)), css: entry.css ?? [] }
}

const fonts = readdirSync(join(dist, 'assets')).filter((f) => /^kanit-latin-400-normal-.*\.woff2$/.test(f))

function page(files, body, firstFetches = []) {
  const css = files.css.map((f) => readFileSync(join(dist, f), 'utf8')).join('\n')
  // The scripts are asked for once the page has painted: the HTML is the whole first paint, so the
  // page's JavaScript never competes with it for the network or the main thread.
  const load = [...files.preload.map((f) => ['modulepreload', f]), ['script', files.script], ...(files.after ?? []).map((f) => ['modulepreload', f])]
  const head = [
    ...fonts.map((f) => `<link rel="preload" href="/assets/${f}" as="font" type="font/woff2" crossorigin>`),
    `<style>${css}</style>`,
    // One element a task: appended all at once, the two dozen requests they start were one long
    // task of the page on a phone (issue 30, /locations' Total Blocking Time).
    // The page's first GETs (its route's handle: /locations' faces and map settings) start as it
    // paints, before its scripts: the app takes their answers when it asks (platform/http.ts). In
    // the head they would compete with the stylesheet's font for the network before the first paint.
    `<script>requestAnimationFrame(() => {` +
      (firstFetches.length > 0
        ? `window.__marqueeEarly = Object.fromEntries(${JSON.stringify(firstFetches)}.map(([u, o]) => [u, fetch(u, o).catch(() => null)]));`
        : '') +
      `${JSON.stringify(load)}.forEach(([kind, f]) => setTimeout(() => {` +
      `const e = document.createElement(kind === 'script' ? 'script' : 'link');` +
      `if (kind === 'script') { e.type = 'module'; e.src = '/' + f } else { e.rel = kind; e.href = '/' + f }` +
      `e.crossOrigin = ''; document.head.append(e) }))})</script>`,
  ].join('\n    ')
  // The template's own scripts and stylesheet are the whole app's; the page's replace them.
  let html = template
    .replace(/\s*<script type="module"[^>]*><\/script>/g, '')
    .replace(/\s*<link rel="(modulepreload|stylesheet)"[^>]*>/g, '')
  if (!html.includes('</head>') || !html.includes('<div id="root"></div>')) throw new Error('unexpected index.html')
  html = html.replace('</head>', `    ${head}\n  </head>`).replace('<div id="root"></div>', `<div id="root">${body}</div>`)
  // The page works without JavaScript, so the notice about it is wrong here.
  return html.replace(/\s*<noscript>.*?<\/noscript>/, '')
}

const out = join(dist, 'prerendered')
rmSync(out, { recursive: true, force: true })
mkdirSync(out, { recursive: true })
const name = (path) => (path === '/' ? 'index' : path.slice(1)) + '.html'
// Every page of the whole app prerendered here is a public one, in the public frame (PublicLayout,
// app/router/routes.tsx): its bundle is preloaded, and the page's own (the public section's, or the
// page's bundle of APP_PAGE_SOURCES). Unlisted, they were found only when the app's router ran, and
// the preload helper appended their module-preload elements in the task that evaluates the app
// (issue 30, /locations' Total Blocking Time), and fetched them late.
const PUBLIC_LAYOUT = 'src/app/layouts/PublicLayout.tsx'
const PUBLIC_SECTION = 'src/app/router/sections/public.ts'
// What a page imports as soon as it runs, preloaded after the page's scripts. None: preloading
// /locations' map (Leaflet, 46 kB) put its bytes before the largest paint in Lighthouse's
// simulated network (LCP 1.2 s to 1.6 to 1.8 s), for no gain in Total Blocking Time.
const LATER = {}
for (const [path, source] of Object.entries(STATIC_PATHS)) {
  writeFileSync(join(out, name(path)), page(entryFiles('public', 'src/public-main.tsx', [source]), await renderStatic(path)))
}
for (const path of APP_PATHS) {
  const files = entryFiles('app', 'index.html', [PUBLIC_LAYOUT, APP_PAGE_SOURCES[path] ?? PUBLIC_SECTION], LATER[path] ?? [])
  const { html, firstFetches } = await renderApp(path)
  writeFileSync(join(out, name(path)), page(files, html, firstFetches))
}
rmSync(ssr, { recursive: true, force: true })
console.log(`prerendered ${Object.keys(STATIC_PATHS).length + APP_PATHS.length} pages into dist/prerendered/`)
