import type { Location, LocationColumns, LocationIDs } from '../../../platform/api-types/locations'

/** LocationColumns.format and LocationIDs.format this decoder reads (Go: locations.LocationColumnsFormat). */
export const COLUMNS_FORMAT = 2
const FLAG_LIKELY = 1
const FLAG_EXCLUDE_MAXIMIZE_BUDGET = 2

const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'))

/**
 * The faces of the columns, each with its key for an id (`id` is the key: the first key_bytes
 * bytes of its UUID in hex), or with its full id when `ids` (GET /api/od/locations/?format=ids of
 * the same query) is given. `keyBytes` says how to find a face's key from a full id (faceKey).
 */
export interface DecodedFaces {
  faces: Location[]
  keyBytes: number
}

/**
 * The key of a face id, as the columns key their faces (LocationColumns.key_bytes): its UUID's first
 * 2 × keyBytes hex digits, or the id itself when the keys are the ids (keyBytes 0). Every face of the
 * catalogue has a key of its own, so an available spot's face id (xxx) names at most one face.
 */
export function faceKey(id: string, keyBytes: number): string {
  if (keyBytes === 0) return id
  // The canonical form is 8-4-4-4-12 hex digits; the keys are at least 4 bytes (8 digits).
  return keyBytes === 4 ? id.slice(0, 8) : id.replaceAll('-', '').slice(0, 2 * keyBytes)
}

/** The keys of the columns: key_bytes bytes a face in base64, written as hex; or the ids themselves. */
function decodeKeys(columns: LocationColumns, n: number): string[] {
  if (!columns.keys) return columns.key ?? []
  const size = columns.key_bytes
  const bytes = atob(columns.keys)
  if (bytes.length !== size * n) throw new Error(`faces: ${bytes.length} bytes of keys for ${n} faces`)
  const keys = new Array<string>(n)
  if (size === 4) {
    // The usual size (the fewest bytes allowed): one expression makes one string, where the loop
    // below makes a string for each byte added (issue 30, decoding 10,000 faces in < 20 ms).
    for (let i = 0, o = 0; i < n; i++, o += 4) {
      keys[i] = HEX[bytes.charCodeAt(o)]! + HEX[bytes.charCodeAt(o + 1)]! + HEX[bytes.charCodeAt(o + 2)]! + HEX[bytes.charCodeAt(o + 3)]!
    }
    return keys
  }
  for (let i = 0, o = 0; i < n; i++) {
    let s = ''
    for (let k = 0; k < size; k++, o++) s += HEX[bytes.charCodeAt(o)]
    keys[i] = s
  }
  return keys
}

/** The ids of GET /api/od/locations/?format=ids: 16 bytes a UUID in base64, written back in the canonical form. */
export function decodeIds(answer: LocationIDs, n: number): string[] {
  if (answer.format !== COLUMNS_FORMAT) throw new Error(`faces: unknown format ${answer.format}`)
  if (!answer.uuids) return answer.id ?? []
  const bytes = atob(answer.uuids)
  if (bytes.length !== 16 * n) throw new Error(`faces: ${bytes.length} bytes of ids for ${n} faces`)
  const ids = new Array<string>(n)
  for (let i = 0, o = 0; i < n; i++, o += 16) {
    let s = ''
    for (let k = 0; k < 16; k++) {
      s += HEX[bytes.charCodeAt(o + k)]
      if (k === 3 || k === 5 || k === 7 || k === 9) s += '-'
    }
    ids[i] = s
  }
  return ids
}

/**
 * Decodes GET /api/od/locations/?format=columns (the layout is documented on the Go
 * type, modules/locations/service.go) into the faces it encodes. Each face's id is its key, or its
 * full id when `ids` is given (the two answers must have the same order). The faces carry what the
 * columns carry: the snapshot shown is new_location_snapshot (location_snapshot is empty), and
 * double_faced and other_face are found again from the names, as the map pairs faces (B §3).
 */
export function decodeFaceColumns(columns: LocationColumns, ids?: LocationIDs): DecodedFaces {
  if (columns.format !== COLUMNS_FORMAT) throw new Error(`faces: unknown format ${columns.format}`)
  if (ids && ids.order !== columns.order) throw new FacesOrderChanged()
  const started = performance.now()
  const n = columns.name.length
  const keys = ids ? decodeIds(ids, n) : decodeKeys(columns, n)
  const { names, markets, cities, faces, snapshots, flags, distance } = columns
  // The columns in locals: the loop runs once, mostly before V8 has optimised it, where every
  // property read is a lookup.
  const nameStep = columns.name
  const latStep = columns.lat
  const lngStep = columns.lng
  const { market, city, face: faceOf, snapshot, frequency, duration, value, ooh } = columns
  const out = new Array<Location>(n)
  // The first face of each name, and the faces after it, to set double_faced and other_face.
  const firstOfName = new Int32Array(names.length).fill(-1)
  // Each face's timing (its loop frequency and spot duration) is one of a few pairs: the faces of a
  // pair share one frozen object instead of one each, 10,000 fewer objects for 10,000 faces.
  const timings = new Map<number, Location['location']>()
  let name = 0
  let lat = 0
  let lng = 0
  for (let i = 0; i < n; i++) {
    name += nameStep[i]!
    lat += latStep[i]!
    lng += lngStep[i]!
    const perLoop = frequency[i]!
    const seconds = duration[i]!
    // A pair of small whole numbers (all of them, in practice) is named by one number.
    const timingKey = seconds >>> 16 === 0 && perLoop >>> 15 === 0 ? perLoop * 65536 + seconds : -1
    let timing = timings.get(timingKey)
    if (timing === undefined) {
      timing = Object.freeze({ ad_rotation_frequency: perLoop, ad_spot_duration: seconds })
      if (timingKey >= 0) timings.set(timingKey, timing)
    }
    const flag = flags[i]!
    const face: Location = {
      id: keys[i]!,
      location_name: names[name]!,
      market: markets[market[i]!]!,
      city: cities[city[i]!]!,
      lat: lat / 1e5,
      lng: lng / 1e5,
      face: faces[faceOf[i]!]!,
      double_faced: false,
      other_face: '',
      likely: (flag & FLAG_LIKELY) !== 0,
      location: timing,
      new_location_snapshot: snapshots[snapshot[i]!]!,
      location_snapshot: '',
      exclude_maximize_budget: (flag & FLAG_EXCLUDE_MAXIMIZE_BUDGET) !== 0,
      value: value[i]! / 100,
      ooh: ooh[i]!,
    }
    if (distance) face.distance = distance[i]! / 100
    const first = firstOfName[name]!
    if (first < 0) {
      firstOfName[name] = i
    } else {
      const other = out[first]!
      face.double_faced = other.double_faced = true
      face.other_face = other.id
      if (!other.other_face) other.other_face = face.id
    }
    out[i] = face
  }
  // For the render benchmark (bench/web/map-render.mjs: the goal is < 20 ms for 10,000 faces).
  performance.measure('map:faces-decoded', { start: started, detail: { faces: n } })
  return { faces: out, keyBytes: ids || !columns.keys ? 0 : columns.key_bytes }
}

/** The columns and the ids were made from different faces (one was added or removed between the two requests). */
export class FacesOrderChanged extends Error {
  constructor() {
    super('faces: the ids are not those of the columns')
  }
}

/**
 * The faces answer: the columns decoded (with their ids when given), or the faces as they are when
 * the answer is the JSON form of the API (an array of Location, whose ids are their keys).
 */
export function readFaces(body: LocationColumns | Location[], ids?: LocationIDs | Location[]): DecodedFaces {
  if (Array.isArray(body)) return { faces: body, keyBytes: 0 }
  if (Array.isArray(ids)) throw new Error('faces: the ids answer is not in columns')
  return decodeFaceColumns(body, ids)
}
