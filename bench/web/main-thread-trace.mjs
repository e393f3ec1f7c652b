// The main thread's long tasks of a page (docs/performance.md "Fourth pass"): the real binary
// (bin/marquee, `make build`) with the demo data and tiles served locally, as lighthouse.mjs runs
// it, in Chromium at Lighthouse's phone settings (412x823 at 1.75 device pixels, CPU slowed 4x by
// DevTools' throttling), traced from navigation until the map has drawn and the page is quiet.
//
//   node bench/web/main-thread-trace.mjs [--page /locations] [--runs 3] [--cpu 4] [--wait 10000] [--bin PATH] [--port 18291] [--save DIR] [--as 4|calibrated]
//
// Why not only Lighthouse: its Total Blocking Time is simulated from the tasks of one run at the
// host's speed times four, so on this shared machine it swings by three times with the load. A
// trace names each long task and what ran in it (the trace's own events, and the CPU profile's
// functions by self time), and the sum of their blocking parts (each task's time over 50 ms, from
// the first contentful paint on, as Lighthouse counts it) moves far less with the load.
// Each run prints its long tasks; the summary gives each run's blocking sum and the median. With
// --cpu 1 it also estimates Lighthouse's figure from each task's CPU time times four, which a busy
// machine inflates far less than the wall-clock time (the tasks wait for a core, not compute longer).
// --as sets that multiplier: 4, Lighthouse's default, or `calibrated`, the multiplier that makes
// this host Lighthouse's mid-tier phone (host-speed.mjs), for figures that do not depend on the host.
import { mkdirSync, writeFileSync } from 'node:fs'
import { cpus, loadavg } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { startMarquee } from './marquee-server.mjs'
import { startTileServer } from './tile-server.mjs'
import { benchmarkIndex, mobileMultiplier } from './host-speed.mjs'
import { childrenOf, outerTasks, profileSamples, rendererMain, topFunctions } from './trace-events.mjs'

const root = fileURLToPath(new URL('../..', import.meta.url))
const { chromium } = await import(join(root, 'webapp', 'node_modules', 'playwright-core', 'index.mjs'))

const args = Object.fromEntries(
  process.argv.slice(2).reduce((pairs, arg, i, all) => (arg.startsWith('--') ? [...pairs, [arg.slice(2), all[i + 1]]] : pairs), []),
)
const PAGE = args.page ?? '/locations'
const RUNS = Number(args.runs ?? 3)
const CPU = Number(args.cpu ?? 4)
const PORT = Number(args.port ?? 18291)
const WAIT = Number(args.wait ?? 10_000)
const LONG_MS = 50
const load = () => loadavg().map((l) => l.toFixed(2)).join(' ')

const tiles = await startTileServer()
const { base, stop: stopServer } = await startMarquee({ root, port: PORT, bin: args.bin, tileUrl: tiles.url })
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] })
const hostIndex = args.as === 'calibrated' ? await benchmarkIndex(browser, 5) : undefined
const AS = hostIndex ? Math.round(mobileMultiplier(hostIndex) * 10) / 10 : Number(args.as ?? 4)

const CATEGORIES = [
  'devtools.timeline',
  'disabled-by-default-devtools.timeline',
  'v8.execute',
  'blink.user_timing',
  'loading',
  'disabled-by-default-v8.cpu_profiler',
].join(',')

async function traceOnce(run) {
  const context = await browser.newContext({ viewport: { width: 412, height: 823 }, deviceScaleFactor: 1.75, isMobile: true, hasTouch: true })
  const page = await context.newPage()
  const cdp = await context.newCDPSession(page)
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU })
  await browser.startTracing(page, { categories: CATEGORIES.split(',') })
  await page.goto(base + PAGE, { waitUntil: 'load' })
  // A fixed wait, with nothing asked of the page: Playwright's selectors run scripts in the page
  // (their tasks would be traced too). The map's `map:rendered` mark says whether it had drawn.
  await page.waitForTimeout(WAIT)
  const trace = JSON.parse((await browser.stopTracing()).toString())
  await context.close()
  if (args.save) {
    mkdirSync(args.save, { recursive: true })
    writeFileSync(join(args.save, `trace-${run}.json`), JSON.stringify(trace))
  }
  return analyse(trace.traceEvents ?? trace)
}

/** The renderer's main thread, its tasks over 50 ms after the first contentful paint, and what ran in them. */
function analyse(events) {
  const { pid, tid: mainTid, main, navigation, fcp } = rendererMain(events)
  if (!fcp) throw new Error('no first contentful paint in the trace')
  const ms = (us) => us / 1000
  const tasks = outerTasks(main)
  const samples = profileSamples(events, pid, mainTid)
  const long = tasks.filter((t) => ms(t.dur) > LONG_MS)
  const blocking = long.filter((t) => t.ts >= fcp.ts).reduce((sum, t) => sum + ms(t.dur) - LONG_MS, 0)
  // Each task's CPU time (tdur: the thread's own time, not the waits for a core another process
  // holds) times AS, over 50 ms: what Lighthouse's simulation makes of a task at a phone's speed
  // (it multiplies the tasks of a run at the host's speed by its slowdown). Meant with --cpu 1.
  const atPhone = (t) => (ms(t.tdur) * AS) / CPU
  const estimate = tasks.filter((t) => t.ts >= fcp.ts && t.tdur).reduce((sum, t) => sum + Math.max(0, atPhone(t) - LONG_MS), 0)
  const heavy = tasks.filter((t) => t.ts >= fcp.ts && t.tdur && atPhone(t) > LONG_MS)
  const drawn = events.find((e) => e.pid === pid && e.name === 'map:rendered')
  return {
    fcp: ms(fcp.ts - navigation),
    drawn: drawn ? ms(drawn.ts - navigation) : null,
    blocking,
    estimate,
    heavy: heavy.map((t) => ({ at: ms(t.ts - navigation), atPhone: atPhone(t), what: childrenOf(main, t), functions: topFunctions(samples, t.ts, t.ts + t.dur) })),
    tasks: long.map((t) => ({
      at: ms(t.ts - navigation),
      dur: ms(t.dur),
      counted: t.ts >= fcp.ts,
      what: childrenOf(main, t),
      functions: topFunctions(samples, t.ts, t.ts + t.dur),
    })),
  }
}

const results = []
try {
  console.log(`${PAGE}, CPU ${CPU}x, ${cpus().length} CPUs (${cpus()[0].model}); CPU time estimated at ${AS}x${hostIndex ? ` (calibrated: host index ${hostIndex})` : ''}; load before ${load()}`)
  for (let run = 1; run <= RUNS; run++) {
    const r = await traceOnce(run)
    results.push(r)
    console.log(`\nrun ${run}: FCP ${r.fcp.toFixed(0)} ms, map drawn ${r.drawn?.toFixed(0) ?? '-'} ms, blocking after FCP ${r.blocking.toFixed(0)} ms, by CPU time x${AS} ${r.estimate.toFixed(0)} ms (load ${load()})`)
    if (CPU !== 4) {
      // At another rate the wall-clock tasks are not the phone's: list the tasks by their CPU time xAS.
      for (const t of r.heavy) {
        console.log(`  ${t.atPhone.toFixed(0).padStart(4)} ms (CPU x${AS}) at ${t.at.toFixed(0).padStart(5)}  ${t.what.join(', ')}`)
        if (t.functions.length) console.log(`           self: ${t.functions.join(', ')}`)
      }
      continue
    }
    for (const t of r.tasks) {
      console.log(`  ${t.counted ? ' ' : '('}${t.dur.toFixed(0).padStart(4)} ms at ${t.at.toFixed(0).padStart(5)}${t.counted ? ' ' : ')'}  ${t.what.join(', ')}`)
      if (t.functions.length) console.log(`           self: ${t.functions.join(', ')}`)
    }
  }
} finally {
  await browser.close()
  stopServer()
  tiles.close()
}
const median = (key) => [...results].sort((a, b) => a[key] - b[key])[Math.floor(results.length / 2)][key]
const runs = (key) => results.map((r) => r[key].toFixed(0)).join(', ')
console.log(`\n${PAGE} at ${CPU}x: blocking after FCP, median ${median('blocking').toFixed(0)} ms (runs ${runs('blocking')}); by CPU time x${AS}, median ${median('estimate').toFixed(0)} ms (runs ${runs('estimate')}); long tasks (runs) ${results.map((r) => r.tasks.filter((t) => t.counted).length).join(', ')}; load after ${load()}`)
