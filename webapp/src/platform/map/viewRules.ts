// The map's view rules (A §9, B §3, B §9) as plain functions, so they are tested without a map.

export interface LatLng {
  lat: number
  lng: number
}

/** Where the map looks: a centre and a zoom, or a box to fit. */
export type MapView =
  | { kind: 'centre'; center: LatLng; zoom: number }
  | { kind: 'bounds'; southWest: LatLng; northEast: LatLng; maxZoom: number }

export type CentreView = Extract<MapView, { kind: 'centre' }>

/** Who shows the map: the public browser, campaign creation, or a campaign's detail. */
export type MapMode = 'browse' | 'creation' | 'detail'

// Geographic centre of the contiguous United States.
export const USA_CENTRE: LatLng = { lat: 39.8283, lng: -98.5795 }
/** A §9: the default view is the centre of the USA at zoom 3. */
export const DEFAULT_ZOOM = 3
/** B §9: the creation flow centres on the USA at zoom 4. */
export const CREATION_ZOOM = 4
/** A §9 / B §9: a single marker uses zoom 15. */
export const SINGLE_MARKER_ZOOM = 15
/** A §9 / B §9: the radius circle uses 1609 metres per mile. */
export const METRES_PER_MILE = 1609
/** B §9: radius options in miles, default 5. */
export const RADIUS_OPTIONS = [5, 10, 15, 20, 25, 50, 100, 250] as const
export const DEFAULT_RADIUS_MILES = 5
/** B §9: place input debounce 500 ms, 250 ms on blur. */
export const PLACE_DEBOUNCE_MS = 500
export const PLACE_BLUR_DEBOUNCE_MS = 250
/** B §9: map initialisation delay 500 ms. */
export const MAP_INIT_DELAY_MS = 500
/** Leaflet's zoom range with OpenStreetMap tiles. */
export const MIN_ZOOM = 2
export const MAX_ZOOM = 18

const clampZoom = (zoom: number) => Math.min(MAX_ZOOM, Math.max(MIN_ZOOM, zoom))

/** A §9 / B §9: the USA at zoom 3, or zoom 4 in the creation flow. */
export function defaultView(mode: MapMode): CentreView {
  return { kind: 'centre', center: USA_CENTRE, zoom: mode === 'creation' ? CREATION_ZOOM : DEFAULT_ZOOM }
}

/**
 * B §9: zoom 12 minus radius/5, plus 1 at 20 miles and plus 2 at 25 miles (5 → 11, 10 → 10,
 * 15 → 9, 20 → 9, 25 → 9). The formula goes below zoom 3 past 45 miles, so the longer options
 * of B §9 (50, 100, 250) keep the 25-mile zoom and lose one level each time the radius doubles,
 * which keeps the whole circle on screen: 50 → 8, 100 → 7, 250 → 5.
 */
export function radiusZoom(miles: number): number {
  if (!(miles > 0)) throw new RangeError(`radius must be positive, got ${miles}`)
  if (miles <= 25) {
    let zoom = 12 - miles / 5
    if (miles === 20) zoom += 1
    if (miles === 25) zoom += 2
    return clampZoom(Math.round(zoom))
  }
  return clampZoom(9 - Math.ceil(Math.log2(miles / 25)))
}

/** A §9: the circle's radius in metres. */
export function circleRadiusMetres(miles: number): number {
  return miles * METRES_PER_MILE
}

export interface MarketArea {
  center: LatLng
  zoom: number
  /** B §9: only the SF Bay Area has a fixed centre. */
  fixed: boolean
}

/**
 * The view for a market (B §9): a fixed market (the SF Bay Area, zoom 8) shows its own centre
 * and zoom; any other market fits its faces, or uses its centre and zoom when it has none; a
 * single face is shown at zoom 15.
 */
export function marketView(market: MarketArea, faces: readonly LatLng[]): MapView {
  if (market.fixed || faces.length === 0) return { kind: 'centre', center: market.center, zoom: market.zoom }
  return facesView(faces) ?? { kind: 'centre', center: market.center, zoom: market.zoom }
}

/** The view that shows these faces: one place at zoom 15, several fitted; null for none. */
export function facesView(faces: readonly LatLng[]): MapView | null {
  if (faces.length === 0) return null
  let south = Infinity
  let west = Infinity
  let north = -Infinity
  let east = -Infinity
  for (const { lat, lng } of faces) {
    south = Math.min(south, lat)
    north = Math.max(north, lat)
    west = Math.min(west, lng)
    east = Math.max(east, lng)
  }
  // A §9: a single marker (or the two faces of one sign) uses zoom 15.
  if (north - south < 1e-6 && east - west < 1e-6) {
    return { kind: 'centre', center: { lat: south, lng: west }, zoom: SINGLE_MARKER_ZOOM }
  }
  return { kind: 'bounds', southWest: { lat: south, lng: west }, northEast: { lat: north, lng: east }, maxZoom: SINGLE_MARKER_ZOOM }
}

/** A place search (B §9): the place in the middle, zoomed for the radius. */
export function radiusView(center: LatLng, miles: number): CentreView {
  return { kind: 'centre', center, zoom: radiusZoom(miles) }
}

/** The side of a double-faced sign a face is drawn on. */
export type FaceSide = 'left' | 'right'

/** B §3: North and West faces are the left marker, the others the right one. */
export function faceSide(face: string): FaceSide {
  const name = face.trim().toLowerCase()
  return name.startsWith('north') || name.startsWith('west') ? 'left' : 'right'
}

/**
 * A face in words that tell the two faces of one sign apart: its name, its face,
 * and for a face with a direction the side of the sign's pair of markers it is drawn on (B §3).
 * Lists show it as the title (tooltip) of a name they may truncate.
 */
export function faceDescription(face: { location_name: string; face: string }): string {
  const direction = faceBearing(face.face) !== null
  return `${face.location_name}, ${face.face || 'face'}${direction ? ` (${faceSide(face.face)} side)` : ''}`
}

/** Which way an arrow marker points, in degrees clockwise from north; null for no direction. */
export function faceBearing(face: string): number | null {
  const name = face.trim().toLowerCase()
  if (name.startsWith('north')) return 0
  if (name.startsWith('east')) return 90
  if (name.startsWith('south')) return 180
  if (name.startsWith('west')) return 270
  return null
}

/**
 * B §9: left and right markers are set apart by an offset that depends on zoom. The gap is
 * counted in screen pixels (wider when zoomed in, where the sign itself fills the screen) and
 * turned into degrees of longitude for that zoom, so the two arrows sit side by side at any zoom.
 */
export function pairGapPixels(zoom: number): number {
  if (zoom >= 15) return 14
  if (zoom >= 11) return 10
  return 7
}

/** Degrees of longitude per screen pixel at a zoom (Web Mercator, 256-pixel tiles). */
export function degreesPerPixel(zoom: number): number {
  return 360 / (256 * 2 ** zoom)
}

/** The longitude offset of a face of a double-faced sign at a zoom: negative left, positive right. */
export function faceOffsetLng(side: FaceSide, zoom: number): number {
  const offset = pairGapPixels(zoom) * degreesPerPixel(zoom)
  return side === 'left' ? -offset : offset
}

export interface PairableFace {
  id: number | string
  location_name: string
}

/**
 * B §3: faces with the same location name are one double-faced sign. Returns, for each face of
 * such a sign, the ids of its other faces (a marker's otherMarkers, B §3).
 */
export function pairDoubleFaced<F extends PairableFace>(faces: readonly F[]): Map<F['id'], F['id'][]> {
  const byName = new Map<string, F[]>()
  for (const face of faces) {
    const key = face.location_name.trim().toLowerCase()
    const group = byName.get(key)
    if (group) group.push(face)
    else byName.set(key, [face])
  }
  const others = new Map<F['id'], F['id'][]>()
  for (const group of byName.values()) {
    if (group.length < 2) continue
    for (const face of group) {
      others.set(
        face.id,
        group.filter((other) => other.id !== face.id).map((other) => other.id),
      )
    }
  }
  return others
}

/** B §3 Map marker: id, lat, lng and the other faces of the same sign. */
export interface MapMarker {
  id: number | string
  lat: number
  lng: number
  otherMarkers: (number | string)[]
}

/**
 * Where a face's marker is drawn at a zoom: a face of a double-faced sign moves to its side
 * (B §3, B §9); a single face stays on its point.
 */
export function markerPosition(face: LatLng & { face: string }, paired: boolean, zoom: number): LatLng {
  if (!paired) return { lat: face.lat, lng: face.lng }
  return { lat: face.lat, lng: face.lng + faceOffsetLng(faceSide(face.face), zoom) }
}

/**
 * B §3 show-only-checked: the faces to draw. The mode turns off by itself when nothing is
 * checked (B §4), so every face shows then.
 */
export function visibleFaces<F extends { id: number | string }>(faces: readonly F[], checked: ReadonlySet<F['id']>, showOnlyChecked: boolean): readonly F[] {
  if (!showOnlyChecked || checked.size === 0) return faces
  return faces.filter((face) => checked.has(face.id))
}

/** Great-circle distance in miles (B §9: Earth radius 3956 miles). */
export function distanceMiles(a: LatLng, b: LatLng): number {
  const toRad = (deg: number) => (deg * Math.PI) / 180
  const dLat = toRad(b.lat - a.lat)
  const dLng = toRad(b.lng - a.lng)
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(toRad(a.lat)) * Math.cos(toRad(b.lat)) * Math.sin(dLng / 2) ** 2
  return 2 * 3956 * Math.asin(Math.min(1, Math.sqrt(h)))
}

/** One sign: its faces (two for a double-faced sign, B §3) and the point it is clustered at. */
export interface Sign<F> {
  lat: number
  lng: number
  faces: F[]
}

/** B §3: groups faces into signs by location name, keeping the order of first appearance. */
export function groupSigns<F extends PairableFace & LatLng>(faces: readonly F[]): Sign<F>[] {
  const byName = new Map<string, Sign<F>>()
  for (const face of faces) {
    const key = face.location_name.trim().toLowerCase()
    const sign = byName.get(key)
    if (sign) sign.faces.push(face)
    else byName.set(key, { lat: face.lat, lng: face.lng, faces: [face] })
  }
  return [...byName.values()]
}
