/**
 * Starting the map's cluster worker (clusterWorker.ts), apart from the map's chunk (Leaflet), so
 * that a page can start it before that chunk has arrived and been evaluated: /locations does as it
 * hydrates, and the worker's script is fetched and compiled on the other core meanwhile (issue
 * 30, the 10,000-face first draw waited for it after the map's chunk). The first map to cluster
 * takes the worker started ahead (Map.tsx).
 */

/** A worker, and whether it has failed to load or run (before anyone listened). */
export interface StartedWorker {
  worker: Worker
  failed: boolean
}

export const workersAvailable = typeof Worker !== 'undefined'

export function startClusterWorker(): StartedWorker {
  const worker = new Worker(new URL('./clusterWorker.ts', import.meta.url), { type: 'module' })
  const started: StartedWorker = { worker, failed: false }
  // An error before the map has taken the worker is kept, and the map then clusters on the page.
  worker.addEventListener('error', (event) => {
    event.preventDefault()
    started.failed = true
  })
  return started
}

let ahead: StartedWorker | null = null

/** Starts the worker now, for the first map that clusters to take; once. */
export function startClusterWorkerAhead(): void {
  if (workersAvailable) ahead ??= startClusterWorker()
}

/** The worker started ahead, once, or a new one. */
export function takeClusterWorker(): StartedWorker {
  const taken = ahead ?? startClusterWorker()
  ahead = null
  return taken
}
