// Lighthouse of the public pages (docs/performance.md "First visit"): /, /login and
// /locations of the real binary (bin/marquee, `make build`) with demo data, in Debian's Chromium,
// with Lighthouse's default mobile settings (a mid-range phone: 4x CPU slowdown, simulated slow 4G).
//
//   node bench/web/lighthouse.mjs [--runs 3] [--port 18290] [--pages /,/login,/locations] [--save DIR] [--bin PATH] [--offline 1] [--cpu calibrated|N]
//
// --cpu calibrated slows the CPU by the multiplier that makes this host Lighthouse's mid-tier phone
// (host-speed.mjs: 4 only on a host of benchmark index 1,533; 10.8 on one of 3,118), so that the
// figures of fast and slow hosts can be compared; --cpu N sets the multiplier. Without it, Lighthouse's
// default (4).
// --bin measures another build of the binary (a before/after pair at the same load). --save writes each run's whole report (Lighthouse JSON) to DIR, to see what an audit found, and the
// trace it was simulated from (NAME-trace.json, for trace-report.mjs).
//
// Each page is measured --runs times in a fresh browser; the run with the median performance score
// is printed, as a table for docs/performance.md. Targets: performance >= 95 (LCP <= 1.8 s),
// accessibility and best practices 100 for / and /login; performance >= 90 for /locations.
import { mkdirSync, writeFileSync } from 'node:fs'
import { cpus, loadavg } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { startMarquee } from './marquee-server.mjs'
import { startTileServer } from './tile-server.mjs'
import { benchmarkIndex, mobileMultiplier } from './host-speed.mjs'

const root = fileURLToPath(new URL('../..', import.meta.url))
const modules = join(root, 'webapp', 'node_modules')
const { default: lighthouse } = await import(join(modules, 'lighthouse', 'core', 'index.js'))
const chromeLauncher = await import(join(modules, 'chrome-launcher', 'dist', 'index.js'))

const args = Object.fromEntries(
  process.argv.slice(2).reduce((pairs, arg, i, all) => (arg.startsWith('--') ? [...pairs, [arg.slice(2), all[i + 1]]] : pairs), []),
)
const RUNS = Number(args.runs ?? 3)
const PORT = Number(args.port ?? 18290)
const BASE = `http://127.0.0.1:${PORT}`
const PAGES = (args.pages ?? '/,/login,/locations').split(',')
const SAVE = args.save
let saved = 0

// ---- the CPU slowdown: Lighthouse's default, or calibrated to this host ----
let CPU_MULTIPLIER = args.cpu && args.cpu !== 'calibrated' ? Number(args.cpu) : undefined
let hostIndex
if (args.cpu === 'calibrated') {
  const { chromium } = await import(join(modules, 'playwright-core', 'index.mjs'))
  const browser = await chromium.launch({ executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] })
  hostIndex = await benchmarkIndex(browser, 5)
  await browser.close()
  CPU_MULTIPLIER = Math.round(mobileMultiplier(hostIndex) * 10) / 10
}

// ---- the map tiles: this machine has no internet, so the tile host is a local stand-in (tile-server.mjs) ----
const tiles = await startTileServer()
const TILE_URL = tiles.url

// ---- the server: the real binary on a fresh SQLite database with the demo data ----
// --offline puts the tiles on a host that never resolves (the map then draws its built-in basemap).
const OFFLINE = 'offline' in args
const { stop: stopServer } = await startMarquee({ root, port: PORT, bin: args.bin, tileUrl: OFFLINE ? 'https://tiles.invalid/{z}/{x}/{y}.png' : TILE_URL })
const stop = () => {
  stopServer()
  tiles.close()
}

// ---- the measurements ----
async function measure(path) {
  const chrome = await chromeLauncher.launch({
    chromePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
    chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  })
  try {
    const flags = { port: chrome.port, output: 'json', logLevel: 'error' }
    // Lighthouse merges a flag's settings into its defaults: only the multiplier changes.
    if (CPU_MULTIPLIER) flags.throttling = { cpuSlowdownMultiplier: CPU_MULTIPLIER }
    const result = await lighthouse(BASE + path, flags)
    const { categories, audits } = result.lhr
    if (SAVE) {
      mkdirSync(SAVE, { recursive: true })
      const name = `${path.replace(/\W+/g, '_') || 'root'}-${++saved}`
      writeFileSync(join(SAVE, `${name}.json`), JSON.stringify(result.lhr))
      // The trace the simulation was made from, for trace-report.mjs: its tasks at the host's speed.
      writeFileSync(join(SAVE, `${name}-trace.json`), JSON.stringify(result.artifacts.Trace))
    }
    const scripts = (audits['network-requests'].details?.items ?? []).filter((r) => r.resourceType === 'Script')
    return {
      path,
      performance: Math.round(categories.performance.score * 100),
      accessibility: Math.round(categories.accessibility.score * 100),
      bestPractices: Math.round(categories['best-practices'].score * 100),
      fcp: audits['first-contentful-paint'].numericValue,
      lcp: audits['largest-contentful-paint'].numericValue,
      tbt: audits['total-blocking-time'].numericValue,
      // Lighthouse's own measure of the host's speed: its default 4x CPU slowdown is calibrated for
      // a high-end desktop (1500 to 2000); figures from slower hosts are not comparable as they are.
      benchmarkIndex: result.lhr.environment.benchmarkIndex,
      cls: audits['cumulative-layout-shift'].numericValue,
      transfer: audits['total-byte-weight'].numericValue,
      js: scripts.reduce((sum, r) => sum + (r.transferSize ?? 0), 0),
      // The faces' bytes, the script that ran longest, and what the console said.
      faces: (audits['network-requests'].details?.items ?? []).filter((r) => r.url.includes('/api/od/locations/')).reduce((sum, r) => sum + (r.transferSize ?? 0), 0),
      bootup: [...(audits['bootup-time'].details?.items ?? [])].sort((a, b) => b.scripting - a.scripting).slice(0, 2).map((r) => `${r.url.replace(/^.*\//, '')} ${r.scripting.toFixed(0)} ms`),
      consoleErrors: (audits['errors-in-console'].details?.items ?? []).map((r) => r.description),
      failed: Object.values(audits)
        .filter((a) => a.score !== null && a.score < 1 && a.scoreDisplayMode === 'binary')
        .map((a) => a.id),
    }
  } finally {
    await chrome.kill()
  }
}

const middle = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]
const rows = []
try {
  for (const path of PAGES) {
    const runs = []
    for (let i = 0; i < RUNS; i++) runs.push(await measure(path))
    runs.sort((a, b) => a.performance - b.performance)
    rows.push({
      ...runs[Math.floor(runs.length / 2)],
      all: runs.map((r) => r.performance),
      tbts: runs.map((r) => Math.round(r.tbt)),
      medianTbt: middle(runs.map((r) => r.tbt)),
      benchmarkIndex: middle(runs.map((r) => r.benchmarkIndex)),
    })
  }
} finally {
  stop()
}

const kib = (b) => `${(b / 1024).toFixed(0)} KiB`
console.log(`Lighthouse ${OFFLINE ? '(map tiles offline) ' : ''}${(await import(join(modules, 'lighthouse', 'package.json'), { with: { type: 'json' } })).default.version}, mobile, median of ${RUNS}; ${cpus().length} CPUs (${cpus()[0].model}), load ${loadavg().map((l) => l.toFixed(2)).join(' ')}; Lighthouse's benchmark index of this host, median ${rows.map((r) => r.benchmarkIndex.toFixed(0)).join(', ')} (its 4x slowdown is calibrated for 1,533); CPU slowed ${CPU_MULTIPLIER ? `${CPU_MULTIPLIER}x${hostIndex ? ` (calibrated to the host's index ${hostIndex} before the runs)` : ''}` : '4x (the default)'}`)
// The TBT column is the median of the runs; the other columns are the median-performance run's.
console.log('| page | performance (runs) | accessibility | best practices | FCP | LCP | TBT (median) | CLS | transferred | of it JavaScript |')
console.log('|---|---|---|---|---|---|---|---|---|---|')
for (const r of rows) {
  console.log(`| \`${r.path}\` | ${r.performance} (${r.all.join(', ')}) | ${r.accessibility} | ${r.bestPractices} | ${(r.fcp / 1000).toFixed(1)} s | ${(r.lcp / 1000).toFixed(1)} s | ${r.medianTbt.toFixed(0)} ms | ${r.cls.toFixed(3)} | ${kib(r.transfer)} | ${kib(r.js)} |`)
}
for (const r of rows) console.log(`${r.path}: TBT of each run ${r.tbts.join(', ')} ms, median ${r.medianTbt.toFixed(0)} ms`)
for (const r of rows) if (r.failed.length) console.log(`${r.path}: failed audits: ${r.failed.join(', ')}`)
for (const r of rows) console.log(`${r.path}: longest scripts ${r.bootup.join(', ')}${r.consoleErrors.length ? `; console errors: ${r.consoleErrors.length} (${r.consoleErrors[0]})` : '; no console error'}`)
// The goals for /locations (docs/performance.md "The map at the speed of the landing page"), beside the figures.
const loc = rows.find((r) => r.path === '/locations')
if (loc) {
  const met = (ok) => (ok ? 'met' : 'NOT met')
  console.log(`/locations goals${OFFLINE ? ' (tiles offline)' : ''}: performance ${loc.performance} (goal >= 95: ${met(loc.performance >= 95)}), accessibility ${loc.accessibility} (100: ${met(loc.accessibility === 100)}), best practices ${loc.bestPractices} (100: ${met(loc.bestPractices === 100)}), TBT ${loc.medianTbt.toFixed(0)} ms, median of the runs (< 150 ms: ${met(loc.medianTbt < 150)}), faces ${kib(loc.faces)} moved (goal <= 81 KiB, a third of 244 KB: ${met(loc.faces <= 81 * 1024)}), console errors ${loc.consoleErrors.length} (0: ${met(loc.consoleErrors.length === 0)})`)
}
