import 'leaflet/dist/leaflet.css'
import './map.css'
import { latLngBounds, point, type LeafletEventHandlerFnMap, type Map as LeafletMap, type Point } from 'leaflet'
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState, type ReactNode } from 'react'
import { flushSync } from 'react-dom'
import { Circle, MapContainer, Marker, Popup, useMap, useMapEvents } from 'react-leaflet'
import { buildIndex, queryIndex } from './clusterIndex'
import { clusterIcon, faceIcon, type FaceMarkerState, type FaceMarkerTone } from './icons'
import OfflineBasemap from './OfflineBasemap'
import { signPoints, signsOf, takeWorkerIndex, workersAvailable, type Drawn, type Frame, type WorkerIndex } from './signIndex'
import { TileLayerInParts } from './tilesInParts'
import {
  circleRadiusMetres,
  defaultView,
  MAP_INIT_DELAY_MS,
  markerPosition,
  MAX_ZOOM,
  MIN_ZOOM,
  visibleFaces,
  type LatLng,
  type MapMode,
  type MapView,
  type Sign,
} from './viewRules'

export type FaceId = number | string

/** What the map needs of a face; callers pass their own face type with more fields. */
export interface MapFace {
  id: FaceId
  lat: number
  lng: number
  /** North Face, South Face, East Face, West Face or Double Faced (A §3). */
  face: string
  location_name: string
}

export interface MapCircle {
  center: LatLng
  miles: number
}

export interface MapProps<F extends MapFace> {
  faces: readonly F[]
  /** browse (/locations), creation (zoom 4 default) or detail (a campaign's markers). */
  mode: MapMode
  /** The accessible name of the map region. */
  label: string
  /** The tiles' URL template; '' when they cannot be reached (the built-in basemap), undefined while
   *  the page does not know yet: the map mounts, and its base layer waits for it. */
  tileUrl: string | undefined
  attribution: string
  /** Where to look; the map moves each time a new view object is passed. */
  view?: MapView | null
  /** The radius circle of a place search (A §2). */
  circle?: MapCircle | null
  selectedId?: FaceId | null
  /** A marker was clicked (or Enter pressed on it), or the info window was closed (null). */
  onSelect?: (id: FaceId | null) => void
  /** The info window of the selected face; `others` are the other faces of its sign. */
  renderInfo?: (face: F, others: F[]) => ReactNode
  /** Checked faces (campaign creation). */
  checked?: ReadonlySet<FaceId>
  /** B §3: show only the checked faces; off by itself when nothing is checked. */
  showOnlyChecked?: boolean
  /** Faces that cannot be checked (not priced, not available) are drawn grey. */
  isDisabled?: (face: F) => boolean
  /** A colour of the page's own per face (the Screens page colours each face by its screen's health). */
  toneOf?: (face: F) => FaceMarkerTone | undefined
  /** The words a marker's title adds after the face (read by screen readers): ", offline". */
  describe?: (face: F) => string
  className?: string
}

const NO_CHECKS: ReadonlySet<FaceId> = new Set()
const MAP_CONTAINER_STYLE = { position: 'relative' } as const

/**
 * The reusable map (DESIGN §6): faces clustered with supercluster (only what is on screen is a
 * DOM marker, so 10,000 faces pan smoothly; see docs/map.md), arrow markers with the left/right
 * offsets of double-faced signs, an optional radius circle, a controlled info window, and the
 * checked / show-only-checked / disabled states the campaign screens need.
 */
export default function FaceMap<F extends MapFace>(props: MapProps<F>) {
  const { faces, checked = NO_CHECKS, showOnlyChecked = false, mode, label, tileUrl, attribution, view, circle, className } = props
  const initial = view?.kind === 'centre' ? view : defaultView(mode)
  const shown = useMemo(() => visibleFaces(faces, checked, showOnlyChecked), [faces, checked, showOnlyChecked])
  const signs = useMemo(() => signsOf(shown), [shown])
  // The signs' index is built from the map's first render on, while Leaflet creates the map in its
  // stages, not once the faces' layer mounts after them (issue 30, the 10,000-face first draw).
  const index = useSignIndex(signs)
  // DESIGN §1.8: the tiles come from the internet. When they cannot be reached (an empty tileUrl:
  // the server could not reach them, or the browser is offline) or the first one fails, the embedded
  // basemap is drawn instead and the map says so once; the tile layer is removed, so no further
  // tile is asked for (offline, one failed request and console error per tile). Until the page knows
  // (tileUrl undefined), there is no base layer yet.
  const [tilesFailed, setTilesFailed] = useState(false)
  const onTileError = useCallback(() => setTilesFailed(true), [])
  const tilesKnown = tileUrl !== undefined
  const offline = tilesFailed || tileUrl === ''
  const stage = useMountStage(MOUNT_STAGES)
  const { regionRef, sizeRef } = useRegionSize()
  return (
    <div ref={regionRef} role="region" aria-label={label} className={`map-root relative rounded-xl bg-slate-100 ${className ?? 'h-96'}`} data-tiles={offline ? 'offline' : tilesKnown ? 'online' : 'pending'}>
      {offline && (
        <p role="status" className="pointer-events-none absolute top-2 right-2 z-[500] max-w-[calc(100%-4rem)] rounded bg-white/90 px-2 py-1 text-xs text-slate-700 shadow">
          The map tiles can’t be reached: showing the built-in map.
        </p>
      )}
      {stage >= STAGE_MAP && (
        <MapContainer
          minZoom={MIN_ZOOM}
          maxZoom={MAX_ZOOM}
          worldCopyJump
          className="h-full w-full rounded-xl"
          // Leaflet makes its container positioned, and asks the computed style first unless the
          // element says so itself: a style recalculation of the page in the task that creates the
          // map (5 ms of its 13 at 1x, issue 30), which the next frame does anyway.
          style={MAP_CONTAINER_STYLE}
        >
          <FirstView center={initial.center} zoom={initial.zoom} sizeRef={sizeRef} />
          {stage >= STAGE_BASE && tilesKnown && !offline && <Tiles url={tileUrl} attribution={attribution} onError={onTileError} />}
          {stage >= STAGE_BASE && offline && <OfflineBasemap />}
          <ViewController view={view ?? null} />
          {circle && (
            <Circle
              center={[circle.center.lat, circle.center.lng]}
              radius={circleRadiusMetres(circle.miles)}
              pathOptions={{ color: '#4338ca', weight: 2, fillColor: '#6366f1', fillOpacity: 0.08 }}
              interactive={false}
            />
          )}
          {stage >= STAGE_FACES && <FaceLayer {...props} signs={signs} index={index} />}
        </MapContainer>
      )}
    </div>
  )
}

/**
 * The map's tiles, a few at a time (TileLayerInParts). detectRetina: a phone's screen (device pixel
 * ratio above 1) gets tiles of the next zoom at half size, so the map is as sharp as the page instead
 * of upscaled (Lighthouse: image-size-responsive); the layer's maxZoom is one above the map's, as
 * Leaflet takes one off for the next zoom's tiles.
 */
function Tiles({ url, attribution, onError }: { url: string; attribution: string; onError: () => void }) {
  const map = useMap()
  useEffect(() => {
    const layer = new TileLayerInParts(url, { attribution, detectRetina: true, maxZoom: MAX_ZOOM + 1 })
    layer.on('tileerror', onError)
    layer.addTo(map)
    return () => {
      layer.remove()
    }
  }, [map, url, attribution, onError])
  return null
}

// The map mounts in stages, one task each (issue 30, Total Blocking Time): its empty region, then
// Leaflet creating the map, then the faces' layer, then its base layer (the tiles' images or the
// built-in basemap's paths). In one commit they were one task of 40 ms on a fast machine, 160 ms on
// Lighthouse's phone; between the stages the page answers input and paints. Leaflet is created only
// after the browser has laid out and painted the empty region (a frame, then a task), so that the
// region's size is known without a forced layout (useRegionSize, FirstView: measuring the new
// container was 68 ms of getSize at 4x); the region's layout is contained (map.css). The faces come
// before the base layer: their layer asks the cluster worker for the view's markers, and the base
// layer is added while the worker answers, instead of before the question (the first draw).
const STAGE_MAP = 1
const STAGE_FACES = 2
const STAGE_BASE = 3
const MOUNT_STAGES = STAGE_BASE

/** 0 on the first render, then one more each task after a commit (the first after a paint), up to `last`. */
function useMountStage(last: number): number {
  const [stage, setStage] = useState(0)
  useEffect(() => {
    if (stage >= last) return
    // Rendered and committed in this task, alone: left to React's scheduler, a stage was rendered
    // in a later task together with whatever else was pending (the faces' list), one long task again.
    const next = () => flushSync(() => setStage(stage + 1))
    if (stage > 0 || typeof requestAnimationFrame === 'undefined') {
      const timer = window.setTimeout(next, 0)
      return () => window.clearTimeout(timer)
    }
    // A task after the next frame: the frame lays out and paints the new region.
    let timer = 0
    const frame = requestAnimationFrame(() => {
      timer = window.setTimeout(next, 0)
    })
    return () => {
      cancelAnimationFrame(frame)
      window.clearTimeout(timer)
    }
  }, [stage, last])
  return stage
}

interface Size {
  width: number
  height: number
}

/**
 * The map region's size as the browser last laid it out, from a ResizeObserver: read after a
 * layout, it costs none. Null until then, or where there is no ResizeObserver (jsdom).
 */
function useRegionSize() {
  const regionRef = useRef<HTMLDivElement>(null)
  const sizeRef = useRef<Size | null>(null)
  useEffect(() => {
    const region = regionRef.current
    if (!region || typeof ResizeObserver === 'undefined') return
    const observer = new ResizeObserver((entries) => {
      const box = entries[0]?.contentRect
      if (box) sizeRef.current = { width: Math.round(box.width), height: Math.round(box.height) }
    })
    observer.observe(region)
    return () => observer.disconnect()
  }, [])
  return { regionRef, sizeRef }
}

/**
 * The map's first view. Leaflet's first setView measures its container (clientWidth and
 * clientHeight), which forces a layout of every change the page has not laid out yet: 15 to 45 ms
 * of the task that creates the map, 60 to 180 ms at a phone's speed (issue 30, Total Blocking
 * Time). The container fills the region (its content box), whose size the ResizeObserver read
 * after the browser's own layout, so Leaflet is given that size instead of measuring. It measures
 * again after the initialisation delay (ViewController's invalidateSize) and on every resize.
 */
/** Leaflet 1.9's cache of getSize(), which it refreshes while _sizeChanged is set (its constructor sets it). */
function giveSize(map: LeafletMap, size: Size) {
  const cache = map as unknown as { _size?: Point; _sizeChanged: boolean }
  cache._size = point(size.width, size.height)
  cache._sizeChanged = false
}

function FirstView({ center, zoom, sizeRef }: { center: LatLng; zoom: number; sizeRef: { current: Size | null } }) {
  const map = useMap()
  useLayoutEffect(() => {
    const size = sizeRef.current
    if (size && size.width > 0 && size.height > 0) giveSize(map, size)
    map.setView([center.lat, center.lng], zoom)
    // Once, when the map is created: later views are ViewController's.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [map])
  return null
}

function applyView(map: LeafletMap, view: MapView) {
  if (view.kind === 'centre') {
    map.setView([view.center.lat, view.center.lng], view.zoom)
  } else {
    const bounds = latLngBounds([view.southWest.lat, view.southWest.lng], [view.northEast.lat, view.northEast.lng])
    map.fitBounds(bounds, { maxZoom: view.maxZoom, padding: [24, 24] })
  }
}

/** Moves the map to each new view; re-reads its size after the initialisation delay (B §9). */
function ViewController({ view }: { view: MapView | null }) {
  const map = useMap()
  useEffect(() => {
    if (view) applyView(map, view)
  }, [map, view])
  useEffect(() => {
    // B §9: map initialisation delay 500 ms. The container may still be settling into the page
    // layout (a phone's stacked layout, fonts); Leaflet measures it again once it has.
    const timer = window.setTimeout(() => map.invalidateSize(), MAP_INIT_DELAY_MS)
    return () => window.clearTimeout(timer)
  }, [map])
  return null
}

function readFrame(map: LeafletMap): Frame {
  // A margin around the screen, so a short pan shows markers that are already there.
  const bounds = map.getBounds().pad(0.25)
  return { zoom: Math.round(map.getZoom()), bbox: [bounds.getWest(), bounds.getSouth(), bounds.getEast(), bounds.getNorth()] }
}

interface FaceLayerProps<F extends MapFace> extends MapProps<F> {
  signs: Sign<F>[]
  index: SignIndex<F>
}

function FaceLayer<F extends MapFace>({ signs, index, selectedId, onSelect, renderInfo, checked = NO_CHECKS, isDisabled, toneOf, describe }: FaceLayerProps<F>) {
  const map = useMap()
  const [frame, setFrame] = useState<Frame>(() => readFrame(map))
  // Recluster when a pan or zoom has ended: nothing is recomputed while the map moves.
  const events = useMemo<LeafletEventHandlerFnMap>(() => ({ moveend: () => setFrame(readFrame(map)) }), [map])
  useMapEvents(events)

  const drawn = useClusters(signs, index, frame)
  const items = drawn?.items

  // For the render measurement (bench/web) and the journeys: how much is drawn, and when (once the
  // markers of these faces are on the map).
  useEffect(() => {
    if (!drawn) return
    const faceCount = drawn.signs.reduce((n, sign) => n + sign.faces.length, 0)
    const container = map.getContainer()
    container.dataset.faces = String(faceCount)
    container.dataset.markers = String(drawn.items.length)
    container.dataset.zoom = String(drawn.zoom)
    performance.mark('map:rendered', { detail: { faces: faceCount, markers: drawn.items.length } })
  }, [map, drawn])

  // The face whose info window is open. Read when Leaflet reports the window removed, to tell
  // a close by the person (report it) from a switch to another face (already reported).
  const selectedRef = useRef<FaceId | null | undefined>(selectedId)
  // eslint-disable-next-line react-hooks/refs -- set while rendering: Leaflet fires `remove` while React removes the old popup, before any effect of this render
  selectedRef.current = selectedId
  const selected = useMemo(() => {
    if (selectedId === null || selectedId === undefined) return null
    const sign = signs.find((s) => s.faces.some((f) => f.id === selectedId))
    const face = sign?.faces.find((f) => f.id === selectedId)
    return face && sign ? { face, others: sign.faces.filter((f) => f.id !== selectedId) } : null
  }, [signs, selectedId])
  const popupAt = useMemo<[number, number] | null>(() => (selected ? [selected.face.lat, selected.face.lng] : null), [selected])
  const popupEvents = useMemo<LeafletEventHandlerFnMap>(() => {
    const id = selected?.face.id
    return { remove: () => selectedRef.current === id && onSelect?.(null) }
  }, [selected, onSelect])

  const stateOf = (face: F): FaceMarkerState =>
    face.id === selectedId ? 'selected' : isDisabled?.(face) ? 'disabled' : checked.has(face.id) ? 'checked' : 'normal'

  return (
    <>
      {drawn &&
        items!.map((item) => {
          const { lng, lat } = item
          if (item.cluster) {
            const { id: clusterId, count, expansionZoom } = item
            return (
              <Marker
                key={`c-${clusterId}`}
                position={[lat, lng]}
                icon={clusterIcon(count)}
                title={`${count} faces here: zoom in`}
                eventHandlers={{ click: () => map.setView([lat, lng], Math.min(expansionZoom, MAX_ZOOM)) }}
              />
            )
          }
          const sign: Sign<F> | undefined = drawn.signs[item.id]
          if (!sign) return null
          const paired = sign.faces.length > 1
          return sign.faces.map((face) => {
            const at = markerPosition(face, paired, drawn.zoom)
            const state = stateOf(face)
            return (
              <Marker
                key={`f-${face.id}`}
                position={[at.lat, at.lng]}
                icon={faceIcon(face.face, state, toneOf?.(face))}
                title={`${face.location_name}, ${face.face}${state === 'checked' ? ', checked' : state === 'disabled' ? ', not available' : ''}${describe?.(face) ?? ''}`}
                zIndexOffset={state === 'selected' ? 1000 : 0}
                eventHandlers={{ click: () => onSelect?.(face.id) }}
              />
            )
          })
        })}
      {selected && popupAt && renderInfo && (
        <Popup key={String(selected.face.id)} position={popupAt} eventHandlers={popupEvents} minWidth={256} maxWidth={320} autoPanPadding={[16, 16]}>
          {renderInfo(selected.face, selected.others)}
        </Popup>
      )}
    </>
  )
}

/** The map's clustering: a worker's index, or (`offThread` false) none, and the layer clusters on the main thread. */
interface SignIndex<F extends MapFace> {
  offThread: boolean
  worker: { current: WorkerIndex<F> | null }
}

/**
 * Takes the cluster worker and loads the signs into it in the commit that renders them. Where
 * there is no Worker (tests in jsdom), or its script could not be loaded or run, `offThread` is
 * false and the face layer builds the index while rendering, as the map did before.
 */
function useSignIndex<F extends MapFace>(signs: Sign<F>[]): SignIndex<F> {
  const worker = useRef<WorkerIndex<F> | null>(null)
  const [workerFailed, setWorkerFailed] = useState(false)
  const offThread = workersAvailable && !workerFailed

  useLayoutEffect(() => {
    if (!offThread) return
    const index = takeWorkerIndex<F>()
    if (index.failed) {
      // Its error came before this map was there to hear it: cluster here instead, one task on.
      index.terminate()
      const timer = window.setTimeout(() => setWorkerFailed(true), 0)
      return () => window.clearTimeout(timer)
    }
    index.onFailure(() => setWorkerFailed(true))
    worker.current = index
    return () => {
      index.terminate()
      worker.current = null
    }
  }, [offThread])

  useLayoutEffect(() => {
    worker.current?.load(signs)
  }, [signs, offThread])

  return useMemo(() => ({ offThread, worker }), [offThread])
}

/**
 * The markers of the frame, null until the worker has answered for the first signs. The worker is
 * asked in a layout effect, in the commit of the faces' render, not after the next paint: the
 * markers are drawn one worker's answer later, not a frame more.
 */
function useClusters<F extends MapFace>(signs: Sign<F>[], { offThread, worker }: SignIndex<F>, frame: Frame): Drawn<F> | null {
  const [answer, setAnswer] = useState<Drawn<F> | null>(null)

  useLayoutEffect(() => {
    worker.current?.query(signs, frame, setAnswer)
  }, [worker, offThread, signs, frame])

  // Without the worker: the index is built while rendering.
  const index = useMemo(() => (offThread ? null : buildIndex(signPoints(signs))), [offThread, signs])
  const drawnHere = useMemo(() => (index ? { signs, items: queryIndex(index, frame.bbox, frame.zoom), zoom: frame.zoom } : null), [index, signs, frame])
  return drawnHere ?? answer
}
