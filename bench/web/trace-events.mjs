// Reading a Chrome trace of a page's load (the traces main-thread-trace.mjs --save and
// map-render.mjs --trace write): the renderer's main thread, its tasks, what ran in them, and the
// CPU profile's samples. Used by main-thread-trace.mjs and trace-report.mjs.

const NAMED = new Set(['FunctionCall', 'EvaluateScript', 'v8.compileModule', 'v8.evaluateModule', 'TimerFire', 'EventDispatch', 'FireAnimationFrame', 'ParseHTML', 'Layout', 'UpdateLayoutTree', 'Paint', 'RunMicrotasks', 'XHRReadyStateChange', 'FireIdleCallback', 'v8.compile', 'ParseAuthorStyleSheet', 'PrePaint', 'Commit', 'HitTest'])

/** The events of note inside a task over 2 ms, by kind (and script or timer), summed. */
export function childrenOf(main, task) {
  const end = task.ts + task.dur
  const inside = main.filter((e) => e.ph === 'X' && e !== task && e.ts >= task.ts && e.ts + (e.dur ?? 0) <= end && NAMED.has(e.name) && e.dur > 2000)
  const sums = new Map()
  for (const e of inside) {
    const d = e.args?.data ?? {}
    const where = d.url ? d.url.replace(/^.*\//, '') : d.type ?? d.functionName ?? ''
    const key = `${e.name}${where ? ` ${where}` : ''}`
    sums.set(key, (sums.get(key) ?? 0) + e.dur / 1000)
  }
  return [...sums].sort((a, b) => b[1] - a[1]).slice(0, 6).map(([k, v]) => `${k} ${v.toFixed(0)}`)
}

/** A function as `name@script`, the script's file without its hash. */
export function scriptFunction(frame, name) {
  return `${name}@${(frame.url ?? '').replace(/^.*\//, '').replace(/-[\w-]{8}\.js$/, '')}`
}

/** The CPU profile's samples of the main thread: [time, node] with each node's function and script. */
export function profileSamples(events, pid, tid) {
  const profiles = new Map()
  for (const e of events) {
    if (e.pid !== pid || (e.name !== 'Profile' && e.name !== 'ProfileChunk')) continue
    const p = profiles.get(e.id) ?? { time: 0, nodes: new Map(), samples: [], tid: e.tid }
    profiles.set(e.id, p)
    if (e.name === 'Profile') p.tid = e.tid
    const data = e.args?.data ?? {}
    if (e.name === 'Profile') p.time = data.startTime
    for (const node of data.cpuProfile?.nodes ?? []) p.nodes.set(node.id, node)
    const ids = data.cpuProfile?.samples ?? []
    const deltas = data.timeDeltas ?? []
    ids.forEach((id, i) => {
      p.time += deltas[i] ?? 0
      p.samples.push([p.time, id])
    })
  }
  // The main thread's profile (workers have their own).
  return [...profiles.values()].find((p) => p.tid === tid) ?? { nodes: new Map(), samples: [] }
}

/** The functions with the most self time between two times; `nameOf(callFrame)` names a function
 *  (by default its name and its script's, without the script's hash). */
export function topFunctions({ nodes, samples }, from, to, nameOf = scriptFunction) {
  const self = new Map()
  let last = null
  for (const [time, id] of samples) {
    if (time < from) {
      last = time
      continue
    }
    if (time > to) break
    const node = nodes.get(id)
    const frame = node?.callFrame ?? {}
    const name = frame.functionName || (frame.url ? '(anonymous)' : '(program)')
    if (name === '(idle)' || name === '(program)' || name === '(garbage collector)') {
      if (name === '(garbage collector)') self.set('(gc)', (self.get('(gc)') ?? 0) + (time - (last ?? time)) / 1000)
      last = time
      continue
    }
    const key = nameOf(frame, name)
    self.set(key, (self.get(key) ?? 0) + (time - (last ?? time)) / 1000)
    last = time
  }
  return [...self].sort((a, b) => b[1] - a[1]).slice(0, 6).map(([k, v]) => `${k} ${v.toFixed(0)}`)
}

/**
 * The page's renderer main thread: its events, the navigation's start (the last before the first
 * contentful paint: a new tab's about:blank has one too) and that paint. Without a paint, the
 * renderer main thread with the most events.
 */
export function rendererMain(events) {
  const fcp = events.find((e) => e.name === 'firstContentfulPaint')
  const mains = events.filter((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain' && (!fcp || e.pid === fcp.pid))
  const count = (m) => events.filter((e) => e.pid === m.pid && e.tid === m.tid).length
  const chosen = mains.length === 1 ? mains[0] : [...mains].sort((a, b) => count(b) - count(a))[0]
  if (!chosen) throw new Error('no renderer main thread in the trace')
  const { pid, tid } = chosen
  const main = events.filter((e) => e.pid === pid && e.tid === tid)
  const starts = main.filter((e) => e.name === 'navigationStart' && (!fcp || e.ts <= fcp.ts))
  const navigation = starts.length ? Math.max(...starts.map((e) => e.ts)) : (fcp?.ts ?? main[0].ts)
  return { pid, tid, main, navigation, fcp }
}

/** The outermost tasks of a thread, in order (a task may run a nested one, as a synchronous XHR does). */
export function outerTasks(thread) {
  const all = thread.filter((e) => e.ph === 'X' && e.name === 'RunTask' && e.dur).sort((a, b) => a.ts - b.ts)
  const tasks = []
  for (const t of all) if (!tasks.length || t.ts >= tasks.at(-1).ts + tasks.at(-1).dur) tasks.push(t)
  return tasks
}
