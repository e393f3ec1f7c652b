// What a page's load did, read from a Chrome trace (main-thread-trace.mjs --save DIR, or
// map-render.mjs --trace DIR): the renderer main thread's tasks with their CPU time and what ran in
// them, the requests with the time the network had each answer and the time the page took it, and
// the CPU each thread of the browser used. For finding what a figure of docs/performance.md waited
// for (a task's wall time over its CPU time is time spent waiting for a core).
//
//   node bench/web/trace-report.mjs TRACE.json [--from MS] [--to MS] [--min MS] [--network] [--threads] [--sources DIR]
//
// Times are in ms from the navigation's start. --min lists only the tasks of at least that wall time
// (default 5), and every task with one of the page's marks (map:rendered, map:faces-decoded).
// --sources names the functions by their place in the sources (file:line) instead of their minified
// names: DIR is the same build with source maps beside it, which leave the chunks as they are, so
// the traced page's files are found there by name:
//   cd webapp && npx vite build --sourcemap hidden --outDir /tmp/sourcemapped
import { existsSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { childrenOf, outerTasks, profileSamples, rendererMain, scriptFunction, topFunctions } from './trace-events.mjs'

const file = process.argv[2]
if (!file || file.startsWith('--')) {
  console.error('usage: node bench/web/trace-report.mjs TRACE.json [--from MS] [--to MS] [--min MS] [--network] [--threads] [--sources DIR]')
  process.exit(2)
}
const args = Object.fromEntries(
  process.argv.slice(3).reduce((pairs, arg, i, all) => (arg.startsWith('--') ? [...pairs, [arg.slice(2), all[i + 1]?.startsWith('--') ? true : (all[i + 1] ?? true)]] : pairs), []),
)
const raw = JSON.parse(readFileSync(file, 'utf8'))
const events = raw.traceEvents ?? raw
const { pid, tid, main, navigation, fcp } = rendererMain(events)
const at = (ts) => (ts - navigation) / 1000
const from = navigation + Number(args.from ?? 0) * 1000
const to = args.to ? navigation + Number(args.to) * 1000 : Infinity
const MIN = Number(args.min ?? 5)
const within = (e) => e.ts >= from && e.ts < to
const ms = (v) => v.toFixed(1).padStart(6)
const nameOf = args.sources ? sourceNames(args.sources) : scriptFunction

/** Names a profile's function by the source file and line its minified code came from (a chunk of
 *  DIR/assets with its .map), or as `name@script` where there is no map. */
function sourceNames(dir) {
  const require = createRequire(join(fileURLToPath(new URL('../..', import.meta.url)), 'webapp', 'package.json'))
  const { TraceMap, originalPositionFor } = require('@jridgewell/trace-mapping')
  const maps = new Map()
  const mapOf = (url) => {
    const file = join(dir, 'assets', url.replace(/^.*\//, '').replace(/[?#].*$/, '') + '.map')
    if (!maps.has(file)) maps.set(file, existsSync(file) ? new TraceMap(readFileSync(file, 'utf8')) : null)
    return maps.get(file)
  }
  return (frame, name) => {
    const map = frame.url ? mapOf(frame.url) : null
    // The profile's lines and columns count from 0, the map's lines from 1.
    const at = map && originalPositionFor(map, { line: frame.lineNumber + 1, column: frame.columnNumber })
    if (!at?.source) return scriptFunction(frame, name)
    return `${at.name ?? name}@${at.source.replace(/^.*?webapp\//, '').replace(/^(\.\.\/)+/, '').replace(/^(src|node_modules)\//, '')}:${at.line}`
  }
}

// ---- the main thread's tasks ----
const marks = events.filter((e) => e.pid === pid && (e.cat ?? '').includes('blink.user_timing') && e.name.startsWith('map:'))
const samples = profileSamples(events, pid, tid)
let wall = 0
let cpu = 0
console.log(`${file}: first contentful paint at ${fcp ? at(fcp.ts).toFixed(0) : '-'} ms`)
console.log('    at   wall    CPU  what ran (ms of wall time) | functions by self time')
for (const task of outerTasks(main).filter(within)) {
  wall += task.dur / 1000
  cpu += (task.tdur ?? 0) / 1000
  const named = marks.filter((m) => m.ts >= task.ts && m.ts < task.ts + task.dur).map((m) => m.name)
  if (task.dur / 1000 < MIN && !named.length) continue
  const what = childrenOf(main, task).join(', ')
  const functions = topFunctions(samples, task.ts, task.ts + task.dur, nameOf).join(', ')
  console.log(`${at(task.ts).toFixed(0).padStart(6)} ${ms(task.dur / 1000)} ${ms((task.tdur ?? 0) / 1000)}  ${what}${functions ? ` | ${functions}` : ''}${named.length ? ` [${[...new Set(named)].join(', ')}]` : ''}`)
}
console.log(`main thread: ${wall.toFixed(0)} ms of tasks, ${cpu.toFixed(0)} ms of CPU`)

// ---- the requests: when the page asked, when the network had the answer's headers, when the page took them ----
if (args.network) {
  console.log('\n asked  network  headers  taken  request')
  const asked = new Map(events.filter((e) => e.name === 'ResourceSendRequest').map((e) => [e.args.data.requestId, e]))
  for (const e of events.filter((e) => e.name === 'ResourceReceiveResponse')) {
    const { requestId, timing } = e.args.data
    const request = asked.get(requestId)
    if (!request || !timing || !within(request)) continue
    const start = timing.requestTime * 1e6
    const name = request.args.data.url.replace(/^https?:\/\/[^/]+/, '')
    console.log(`${at(request.ts).toFixed(0).padStart(6)} ${at(start).toFixed(0).padStart(8)} ${at(start + timing.receiveHeadersEnd * 1000).toFixed(0).padStart(8)} ${at(e.ts).toFixed(0).padStart(6)}  ${name.length > 70 ? `${name.slice(0, 67)}...` : name}`)
  }
}

// ---- the CPU of each thread of the browser's processes ----
if (args.threads) {
  const names = new Map()
  const processes = new Map()
  for (const e of events) {
    if (e.ph !== 'M') continue
    if (e.name === 'thread_name') names.set(`${e.pid}:${e.tid}`, e.args.name)
    if (e.name === 'process_name') processes.set(e.pid, e.args.name)
  }
  const threads = new Map()
  for (const e of events) {
    if (e.ph !== 'X' || (e.name !== 'RunTask' && e.name !== 'ThreadControllerImpl::RunTask' && e.name !== 'ThreadPool_RunTask') || !within(e)) continue
    const key = `${processes.get(e.pid) ?? e.pid} / ${names.get(`${e.pid}:${e.tid}`) ?? e.tid}`
    const sum = threads.get(key) ?? { wall: 0, cpu: 0 }
    sum.wall += e.dur / 1000
    sum.cpu += (e.tdur ?? 0) / 1000
    threads.set(key, sum)
  }
  console.log('\n  wall    CPU  thread')
  for (const [key, sum] of [...threads].sort((a, b) => b[1].cpu - a[1].cpu).filter(([, s]) => s.cpu >= 1)) console.log(`${sum.wall.toFixed(0).padStart(6)} ${sum.cpu.toFixed(0).padStart(6)}  ${key}`)
}
