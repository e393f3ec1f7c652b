/**
 * The map's clustering in a Web Worker (clusterWorker.ts), apart from the map's chunk (Leaflet and
 * React Leaflet), so that a page can group its faces and have them clustered before that chunk has
 * been fetched and evaluated: /locations does as it hydrates, and the worker builds the index on
 * the other core meanwhile (issue 30, the 10,000-face first draw waited for the map's chunk, then
 * for the index). The map (Map.tsx) takes the worker and the signs it finds here.
 */
import { type ClusterItem, type ClusterReply, type ClusterRequest, type SignPoints } from './clusterIndex'
import type { MapFace } from './Map'
import { groupSigns, type Sign } from './viewRules'

/** A worker, and whether it has failed to load or run (before anyone listened). */
interface StartedWorker {
  worker: Worker
  failed: boolean
}

export const workersAvailable = typeof Worker !== 'undefined'

function startClusterWorker(): StartedWorker {
  const worker = new Worker(new URL('./clusterWorker.ts', import.meta.url), { type: 'module' })
  const started: StartedWorker = { worker, failed: false }
  // An error before a map has taken the worker is kept, and that map then clusters on the page.
  worker.addEventListener('error', (event) => {
    event.preventDefault()
    started.failed = true
  })
  return started
}

/** What the map shows: its zoom and its bounds with a margin ([west, south, east, north]). */
export interface Frame {
  zoom: number
  bbox: [number, number, number, number]
}

/** The markers of a view, with the signs and the zoom they were found for. */
export interface Drawn<F extends MapFace> {
  signs: Sign<F>[]
  items: ClusterItem[]
  zoom: number
}

// A worker started when this module is evaluated (with the map's chunk, or a page that prepares
// its faces, /locations), so that its script is fetched and compiled while Leaflet creates the
// map, not after the faces have arrived: the first map to cluster takes it (issue 30, the first
// draw), with the signs a page may already have loaded into it (prepareFaces). Started a task
// later, as creating a Worker costs a few milliseconds of the main thread too.
let spareIndex: WorkerIndex<MapFace> | null = null
let spareWanted = workersAvailable
if (workersAvailable) {
  setTimeout(() => {
    if (spareWanted) spareIndex ??= new WorkerIndex(startClusterWorker())
  }, 0)
}

/** The spare worker's index once, then a new one each time. */
export function takeWorkerIndex<F extends MapFace>(): WorkerIndex<F> {
  const taken = (spareIndex as WorkerIndex<F> | null) ?? new WorkerIndex<F>(startClusterWorker())
  spareIndex = null
  spareWanted = false
  return taken
}

// The signs of each list of faces, grouped once: a page that warmed the index with its faces
// (prepareFaces) and the map it renders next find the same signs, so the worker loads them once.
const signsCache = new WeakMap<readonly MapFace[], Sign<MapFace>[]>()

/** The signs of these faces, grouped once per list. */
export function signsOf<F extends MapFace>(faces: readonly F[]): Sign<F>[] {
  let signs = signsCache.get(faces) as Sign<F>[] | undefined
  if (!signs) {
    signs = groupSigns(faces)
    signsCache.set(faces, signs)
  }
  return signs
}

/**
 * Starts clustering these faces before the map that draws them has mounted: a page calls it as the
 * faces arrive (/locations), and the map, rendered later with the same list and nothing checked,
 * finds its index built or being built (issue 30: the 10,000-face first draw waited for the
 * index's 80 ms of a worker's CPU after Leaflet's stages). Does nothing once a map has taken the
 * worker, or where there is none.
 */
export function prepareFaces(faces: readonly MapFace[]): void {
  if (!spareWanted) return
  spareIndex ??= new WorkerIndex(startClusterWorker())
  spareIndex.load(signsOf(faces))
}

/** The signs as the typed arrays the worker takes (or the index built on the page). */
export function signPoints(signs: readonly Sign<MapFace>[]): SignPoints {
  const points: SignPoints = { lng: new Float64Array(signs.length), lat: new Float64Array(signs.length), count: new Uint32Array(signs.length) }
  signs.forEach((sign, i) => {
    points.lng[i] = sign.lng
    points.lat[i] = sign.lat
    points.count[i] = sign.faces.length
  })
  return points
}

/**
 * The signs' supercluster index in a Web Worker (clusterWorker.ts), so that building it for
 * thousands of signs is no long task of the page (issue 30). The map loads each new set of signs
 * into it as soon as it renders them, and its face layer asks for the markers of each view: a load
 * always goes before the query that needs it, whichever component's effect runs first.
 */
export class WorkerIndex<F extends MapFace> {
  private generation = 0
  private seq = 0
  private signs: Sign<F>[] | null = null
  private listener: ((drawn: Drawn<F>) => void) | null = null
  private failureListener: (() => void) | null = null
  private readonly worker: Worker
  /** Its script could not be loaded or run. */
  failed = false

  constructor({ worker, failed }: StartedWorker) {
    this.worker = worker
    // It may have failed before this index was made for it (started ahead).
    this.failed = failed
    worker.onerror = (event) => {
      event.preventDefault()
      this.failed = true
      this.failureListener?.()
    }
    worker.onmessage = (event: MessageEvent<ClusterReply>) => {
      const { generation, seq, items, zoom } = event.data
      // An answer to an older query, or for signs replaced since, is dropped.
      if (seq !== this.seq || generation !== this.generation || !this.signs) return
      this.listener?.({ signs: this.signs, items, zoom })
    }
  }

  /** Who hears of a failure (the map, which then clusters on the main thread). */
  onFailure(listener: () => void) {
    this.failureListener = listener
  }

  load(signs: Sign<F>[]) {
    if (signs === this.signs) return
    this.signs = signs
    this.generation += 1
    const points = signPoints(signs)
    const load: ClusterRequest = { kind: 'load', generation: this.generation, points }
    this.worker.postMessage(load, [points.lng.buffer, points.lat.buffer, points.count.buffer])
  }

  query(signs: Sign<F>[], frame: Frame, listener: (drawn: Drawn<F>) => void) {
    this.load(signs)
    this.listener = listener
    this.seq += 1
    const query: ClusterRequest = { kind: 'query', generation: this.generation, seq: this.seq, bbox: frame.bbox, zoom: frame.zoom }
    this.worker.postMessage(query)
  }

  terminate() {
    this.listener = null
    this.worker.terminate()
  }
}
