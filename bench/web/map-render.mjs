// Map render measurement (docs/performance.md "Web: the map"): the real /locations page of the
// production build (webapp/dist) in Chromium, with an inventory of 10,000 generated faces.
//
//   node bench/web/map-render.mjs [--faces 10000] [--runs 5] [--dist DIR] [--whole-app] [--cpu N|reference] [--trace DIR]
//
// /locations is sent as the Go server sends it to a browser without a session cookie
// (platform/server/spa.go): the prerendered page (dist/prerendered/locations.html), which hydrates.
// --whole-app sends index.html instead, as the server does when the browser has a cookie (an
// expired session): the app starts empty, asks for the session, then renders the page.
//
// The build is served by a small static server, which answers the page's API calls too, with the
// generated inventory (as the Go server would, compressed), so the figures measure the browser's
// work only: parsing 10,000 faces, clustering them and drawing the markers, then a pan by mouse.
// Nothing leaves the machine: map tiles are refused, as in the journeys.
//
// --trace DIR writes a Chrome trace of each run's first draw (navigation until every face is on the
// map) to DIR, to see what the first draw waited for (chrome://tracing or DevTools' Performance panel).
//
// --cpu slows the page's CPU (DevTools' throttling): `reference` by this host's benchmark index over
// 1,533, the host Lighthouse's default is calibrated for (host-speed.mjs), so that a fast host does
// not meet the 1 s goal by its speed alone; a number sets the slowdown.
import { createServer } from 'node:http'
import { mkdirSync, writeFileSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { extname, join, normalize } from 'node:path'
import { fileURLToPath } from 'node:url'
import { cpus, loadavg, totalmem } from 'node:os'
import { gzipSync } from 'node:zlib'
import { benchmarkIndex, referenceHostMultiplier } from './host-speed.mjs'

const root = fileURLToPath(new URL('../..', import.meta.url))
const dist0 = join(root, 'webapp', 'dist')
const { chromium } = await import(join(root, 'webapp', 'node_modules', 'playwright-core', 'index.mjs'))

const args = Object.fromEntries(
  process.argv.slice(2).reduce((pairs, arg, i, all) => (arg.startsWith('--') ? [...pairs, [arg.slice(2), all[i + 1]]] : pairs), []),
)
const FACES = Number(args.faces ?? 10000)
// --dist measures another build of the web app (a before/after pair at the same load).
const dist = args.dist ?? dist0
const RUNS = Number(args.runs ?? 5)
const WHOLE_APP = process.argv.includes('--whole-app')
const TRACE = args.trace
const TRACE_CATEGORIES = ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8.execute', 'blink.user_timing', 'loading', 'disabled-by-default-v8.cpu_profiler']
let traced = 0

// ---- the inventory: deterministic, spread over US metros, a fifth of the signs double-faced ----
function prng(seed) {
  let s = seed >>> 0
  return () => {
    s = (s + 0x6d2b79f5) >>> 0
    let t = s
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}
const METROS = [
  ['SF Bay Area', 37.77, -122.3], ['Los Angeles', 34.05, -118.25], ['New York', 40.73, -73.99], ['Chicago', 41.88, -87.63],
  ['Dallas', 32.78, -96.8], ['Houston', 29.76, -95.37], ['Atlanta', 33.75, -84.39], ['Miami', 25.76, -80.19],
  ['Phoenix', 33.45, -112.07], ['Seattle', 47.61, -122.33], ['Denver', 39.74, -104.99], ['Boston', 42.36, -71.06],
  ['Philadelphia', 39.95, -75.17], ['Washington', 38.9, -77.04], ['Minneapolis', 44.98, -93.27], ['San Diego', 32.72, -117.16],
  ['Tampa', 27.95, -82.46], ['Orlando', 28.54, -81.38], ['Las Vegas', 36.17, -115.14], ['Sacramento', 38.58, -121.49],
  ['Portland', 45.52, -122.68], ['Charlotte', 35.23, -80.84], ['Austin', 30.27, -97.74], ['Nashville', 36.16, -86.78],
]
const FACE_PAIRS = [['North Face', 'South Face'], ['West Face', 'East Face']]
const SINGLE_FACES = ['North Face', 'South Face', 'East Face', 'West Face', 'Double Faced']

function inventory(total) {
  const random = prng(20261122)
  const gauss = () => Math.sqrt(-2 * Math.log(random() || 1e-9)) * Math.cos(2 * Math.PI * random())
  const faces = []
  let sign = 0
  while (faces.length < total) {
    sign += 1
    const [market, lat0, lng0] = METROS[Math.floor(random() * METROS.length)]
    const lat = lat0 + gauss() * 0.18
    const lng = lng0 + gauss() * 0.22
    const double = random() < 0.2 && faces.length + 2 <= total
    const names = double ? FACE_PAIRS[Math.floor(random() * 2)] : [SINGLE_FACES[Math.floor(random() * SINGLE_FACES.length)]]
    // UUIDs, as the faces' ids are (the columns send their first bytes as keys; ?format=ids all 16).
    const ids = names.map(() => Array.from({ length: 16 }, (_, k) => (k === 6 ? 0x40 : k === 8 ? 0x80 : 0) | Math.floor(random() * (k === 6 || k === 8 ? 16 : 256))).map((b) => b.toString(16).padStart(2, '0')).join('').replace(/^(.{8})(.{4})(.{4})(.{4})/, '$1-$2-$3-$4-'))
    names.forEach((face, i) => {
      const value = 100 + Math.floor(random() * 260) * 10
      faces.push({
        id: ids[i], location_name: `Bench sign ${sign}`, market, city: market, lat, lng, face,
        double_faced: double, other_face: double ? ids[1 - i] : '', likely: random() < 0.5,
        location: { ad_rotation_frequency: 4 + Math.floor(random() * 8), ad_spot_duration: 8 },
        new_location_snapshot: '', location_snapshot: '', exclude_maximize_budget: false,
        value, ooh: 20000 + Math.floor(random() * 180000),
      })
    })
  }
  return faces
}

// ---- the faces in columns, as GET /api/od/locations/?format=columns sends them (the
// modules/locations/facecolumns.go is the server's encoder, this a copy for the routed answer) ----
function columns(faces) {
  const dict = () => {
    const index = new Map()
    const values = []
    return { values, of: (s) => (index.has(s) ? index.get(s) : (index.set(s, values.length), values.push(s) - 1)) }
  }
  const names = dict(), markets = dict(), cities = dict(), kinds = dict(), snapshots = dict()
  // The keys: the fewest first bytes (at least 4) of the ids that no two faces share.
  const hex = faces.map((f) => f.id.replaceAll('-', ''))
  let keyBytes = 4
  while (new Set(hex.map((h) => h.slice(0, 2 * keyBytes))).size < hex.length) keyBytes++
  const keys = Buffer.from(hex.map((h) => h.slice(0, 2 * keyBytes)).join(''), 'hex').toString('base64')
  const c = { format: 2, order: 'bench', key_bytes: keyBytes, keys, name: [], market: [], city: [], face: [], snapshot: [], lat: [], lng: [], value: [], ooh: [], frequency: [], duration: [], flags: [] }
  let name = 0, lat = 0, lng = 0
  for (const f of faces) {
    const n = names.of(f.location_name)
    const la = Math.round(f.lat * 1e5), lo = Math.round(f.lng * 1e5)
    c.name.push(n - name); c.lat.push(la - lat); c.lng.push(lo - lng)
    name = n; lat = la; lng = lo
    c.market.push(markets.of(f.market)); c.city.push(cities.of(f.city)); c.face.push(kinds.of(f.face))
    c.snapshot.push(snapshots.of(f.new_location_snapshot || f.location_snapshot))
    c.value.push(Math.round(f.value * 100)); c.ooh.push(f.ooh)
    c.frequency.push(f.location.ad_rotation_frequency); c.duration.push(f.location.ad_spot_duration)
    c.flags.push((f.likely ? 1 : 0) | (f.exclude_maximize_budget ? 2 : 0))
  }
  return { ...c, names: names.values, markets: markets.values, cities: cities.values, faces: kinds.values, snapshots: snapshots.values }
}

// ---- the server: the production build with the single-page fallback, and the API's answers ----
// One Node server answers the build's files and the page's API calls, as the Go server does. The
// API was answered by Playwright's routes before (docs/performance.md, eighth pass): each of the
// page's requests then paused for a round trip through this process, which was busy handing the
// 0.65 MB faces answer over DevTools' protocol; on a 2-core host the scripts came 250 ms late and the
// faces 570 ms after they were asked for, the harness's time in the figure, not the page's.
const TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.svg': 'image/svg+xml', '.woff2': 'font/woff2', '.woff': 'font/woff', '.png': 'image/png', '.ico': 'image/x-icon' }
async function serve(faces, facesJson, markets) {
  const index = await readFile(join(dist, 'index.html')).catch(() => null)
  if (!index) throw new Error(`${dist}/index.html is missing: build the web app first (make build-web)`)
  const prerendered = WHOLE_APP ? null : await readFile(join(dist, 'prerendered', 'locations.html')).catch(() => null)
  if (!WHOLE_APP && !prerendered) throw new Error(`${dist}/prerendered/locations.html is missing: build the web app first (make build-web), or pass --whole-app`)
  // The whole inventory's answers gzip'd once, as the Go server sends them compressed.
  const zipped = new Map()
  const gzipOnce = (key, text) => zipped.get(key) ?? zipped.set(key, gzipSync(text)).get(key)
  let origin = ''
  const api = (path, query, method) => {
    if (path === '/users/loggedin') return { loggedin: false }
    if (path === '/api/markets/') return markets
    if (path === '/api/map/config') return { tile_url: `${origin}/tiles/{z}/{x}/{y}.png`, attribution: 'bench' }
    if (path === '/api/available-spots/' && method === 'POST') return []
    if (path !== '/api/od/locations/') return undefined
    const market = query.get('market')
    const chosen = market ? faces.filter((f) => f.market === market) : faces
    if (query.get('format') === 'columns') return market ? JSON.stringify(columns(chosen)) : { whole: 'columns', text: facesColumns }
    if (query.get('format') === 'ids') return JSON.stringify({ format: 2, order: 'bench', uuids: Buffer.from(chosen.map((f) => f.id.replaceAll('-', '')).join(''), 'hex').toString('base64') })
    return market ? chosen : { whole: 'json', text: facesJson }
  }
  const server = createServer(async (req, res) => {
    const url = new URL(req.url, 'http://x')
    const path = normalize(decodeURIComponent(url.pathname)).replace(/^(\.\.[/\\])+/, '')
    if (path.startsWith('/api/') || path === '/users/loggedin') {
      for await (const _ of req); // the request's body, unread
      if (path === '/api/analytics/pageviews') return res.writeHead(204).end()
      const answer = api(path, url.searchParams, req.method)
      if (answer === undefined) return res.writeHead(404).end()
      const text = typeof answer === 'string' ? answer : answer.whole ? answer.text : JSON.stringify(answer)
      const gzip = /\bgzip\b/.test(req.headers['accept-encoding'] ?? '')
      res.writeHead(200, { 'Content-Type': 'application/json', ...(gzip ? { 'Content-Encoding': 'gzip' } : {}) })
      return res.end(gzip ? (answer.whole ? gzipOnce(answer.whole, text) : gzipSync(text)) : text)
    }
    if (path.startsWith('/tiles/')) return res.writeHead(404).end() // nothing leaves the machine: the tiles are refused
    const body = path.startsWith('/assets/') ? await readFile(join(dist, path)).catch(() => null) : null
    res.writeHead(200, { 'Content-Type': body ? (TYPES[extname(path)] ?? 'application/octet-stream') : 'text/html' })
    res.end(body ?? (path === '/locations' && prerendered ? prerendered : index))
  })
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
  origin = `http://127.0.0.1:${server.address().port}`
  return { server, url: origin }
}

// ---- one run: open /locations, wait for every face on the map, then pan by mouse ----
async function measure(browser, url) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } })
  const page = await context.newPage()
  if (CPU > 1) await (await context.newCDPSession(page)).send('Emulation.setCPUThrottlingRate', { rate: CPU })
  // The first draw is awaited without a script of Playwright's in the page: its selectors and
  // waitForFunction inject a large script into the page (about 20 ms of CPU, 50 to 75 ms of the main
  // thread on a 2-core host), which ran while the app's scripts arrived and held them back. A
  // PerformanceObserver of the page's own marks says when every face is on the map, by a console
  // message this process waits for.
  await page.addInitScript((n) => {
    new PerformanceObserver((list, observer) => {
      if (list.getEntriesByName('map:rendered').some((m) => m.detail?.faces === n)) {
        observer.disconnect()
        console.debug('marquee-bench:first-draw')
      }
    }).observe({ type: 'mark' })
  }, FACES)
  const drawn = page.waitForEvent('console', { predicate: (m) => m.text() === 'marquee-bench:first-draw', timeout: 60000 })
  if (TRACE) await browser.startTracing(page, { categories: TRACE_CATEGORIES })
  await page.goto(`${url}/locations`)
  await drawn
  const map = page.locator('.leaflet-container')
  if (TRACE) {
    mkdirSync(TRACE, { recursive: true })
    writeFileSync(join(TRACE, `first-draw-${++traced}.json`), await browser.stopTracing())
  }
  const first = await page.evaluate((n) => {
    const faces = performance.getEntriesByType('resource').find((e) => e.name.includes('/api/od/locations/'))
    const rendered = performance.getEntriesByName('map:rendered').find((m) => m.detail?.faces === n)
    const decoded = performance.getEntriesByName('map:faces-decoded').find((m) => m.detail?.faces > 0)
    return { responseEnd: faces.responseEnd, rendered: rendered.startTime, markers: rendered.detail.markers, decodeMs: decoded?.duration ?? NaN }
  }, FACES)

  // A pan: the mouse drags the map 600 px over about one second while every frame is timed.
  const box = await map.boundingBox()
  const pan = async (label) => {
    await page.evaluate(() => {
      window.__frames = []
      let last = performance.now()
      const tick = (now) => {
        window.__frames.push(now - last)
        last = now
        if (window.__timing) requestAnimationFrame(tick)
      }
      window.__timing = true
      requestAnimationFrame(tick)
    })
    const x = box.x + box.width / 2
    const y = box.y + box.height / 2
    await page.mouse.move(x, y)
    await page.mouse.down()
    for (let i = 1; i <= 60; i += 1) {
      await page.mouse.move(x - i * 10, y - i * 4)
      await page.waitForTimeout(16)
    }
    const before = await page.evaluate(() => performance.getEntriesByName('map:rendered').length)
    const released = await page.evaluate(() => performance.now())
    await page.mouse.up()
    // The map reclusters once the pan has ended (moveend): time until the new markers are drawn.
    await page.waitForFunction((n) => performance.getEntriesByName('map:rendered').length > n, before, { timeout: 10000 })
    const settle = await page.evaluate((t) => {
      const marks = performance.getEntriesByName('map:rendered')
      return marks[marks.length - 1].startTime - t
    }, released)
    const frames = await page.evaluate(() => {
      window.__timing = false
      return window.__frames.slice(1)
    })
    const sorted = [...frames].sort((a, b) => a - b)
    const markers = Number(await map.getAttribute('data-markers'))
    return {
      label,
      frames: frames.length,
      meanMs: frames.reduce((a, b) => a + b, 0) / frames.length,
      p95Ms: sorted[Math.floor(sorted.length * 0.95)],
      maxMs: sorted[sorted.length - 1],
      longFrames: frames.filter((f) => f > 50).length,
      settleMs: settle,
      markers,
    }
  }
  const wide = await pan('USA, zoom 3')
  // Closer in: one dense metro fitted to the screen, so hundreds of signs are single markers.
  await page.getByLabel('Market', { exact: true }).selectOption('Los Angeles')
  await page.waitForFunction(() => Number(document.querySelector('.leaflet-container')?.getAttribute('data-zoom')) >= 8, null, { timeout: 10000 })
  await page.waitForTimeout(600)
  const close = await pan(`one market, zoom ${await map.getAttribute('data-zoom')}`)
  await context.close()
  return { renderMs: first.rendered - first.responseEnd, sinceNavigationMs: first.rendered, firstMarkers: first.markers, decodeMs: first.decodeMs, pans: [wide, close] }
}

const median = (values) => {
  const s = [...values].sort((a, b) => a - b)
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2
}
const ms = (v) => `${v.toFixed(1)} ms`

const faces = inventory(FACES)
const facesJson = JSON.stringify(faces)
const facesColumns = JSON.stringify(columns(faces))
const markets = METROS.map(([market, lat, lng]) => ({ id: market, market, cities: [market], center: { lat, lng }, zoom: 10, fixed: market === 'SF Bay Area' }))
  .sort((a, b) => a.market.localeCompare(b.market))
const { server, url } = await serve(faces, facesJson, markets)
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
  // Every host but this one is unknown to the browser: nothing leaves the machine, and no request
  // waits for a Playwright route (each one a round trip through this process).
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1'],
})
const hostIndex = await benchmarkIndex(browser, 5)
const CPU = args.cpu === 'reference' ? Math.round(referenceHostMultiplier(hostIndex) * 100) / 100 : Number(args.cpu ?? 1)
try {
  await measure(browser, url) // warm-up: caches, JIT
  const runs = []
  for (let i = 0; i < RUNS; i += 1) runs.push(await measure(browser, url))
  const gz = (text) => gzipSync(text, { level: 9 }).length
  const met = (ok) => (ok ? 'met' : 'NOT met')
  console.log(`Map render, ${FACES} faces (${(facesJson.length / 1e6).toFixed(1)} MB of JSON, ${(gz(facesJson) / 1e3).toFixed(0)} kB gzip'd; as columns ${(facesColumns.length / 1e6).toFixed(2)} MB, ${(gz(facesColumns) / 1e3).toFixed(0)} kB gzip'd), Chromium ${browser.version()}, ${cpus().length} × ${cpus()[0]?.model.trim()}, ${Math.round(totalmem() / 2 ** 30)} GB, load ${loadavg().map((l) => l.toFixed(2)).join(' ')}; Lighthouse's benchmark index of this host ${hostIndex}, CPU slowed ${CPU}x${args.cpu === 'reference' ? ' (to the host of index 1,533 Lighthouse is calibrated for)' : ''}; median of ${RUNS} runs; /locations sent as ${WHOLE_APP ? 'the whole app (index.html, --whole-app)' : 'the prerendered page'}`)
  const sinceNavigation = median(runs.map((r) => r.sinceNavigationMs))
  const decode = median(runs.map((r) => r.decodeMs))
  console.log(`  first render of every face (faces answer → markers drawn): ${ms(median(runs.map((r) => r.renderMs)))} (${runs[0].firstMarkers} clusters/markers); from navigation: ${ms(sinceNavigation)} (goal < 1000 ms: ${met(sinceNavigation < 1000)})`)
  console.log(`  decoding the columns of ${FACES} faces: ${ms(decode)} (goal < 20 ms: ${met(decode < 20)})`)
  for (let p = 0; p < runs[0].pans.length; p += 1) {
    const pans = runs.map((r) => r.pans[p])
    console.log(
      `  pan, ${pans[0].label}: frame mean ${ms(median(pans.map((x) => x.meanMs)))}, p95 ${ms(median(pans.map((x) => x.p95Ms)))}, max ${ms(median(pans.map((x) => x.maxMs)))}, frames > 50 ms ${median(pans.map((x) => x.longFrames))}; recluster after the pan ${ms(median(pans.map((x) => x.settleMs)))} (${pans[0].markers} markers)`,
    )
  }
} finally {
  await browser.close()
  server.close()
}
