import type { Location, LocationColumns } from '../../../platform/api-types/locations'

/** LocationColumns.format this decoder reads (Go: locations.LocationColumnsFormat). */
export const COLUMNS_FORMAT = 1
const FLAG_LIKELY = 1
const FLAG_EXCLUDE_MAXIMIZE_BUDGET = 2

const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'))

/** The ids of the columns: 16 bytes a UUID in base64, written back in the canonical form. */
function decodeIds(columns: LocationColumns, n: number): string[] {
  if (!columns.uuids) return columns.id ?? []
  const bytes = atob(columns.uuids)
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
 * type, modules/locations/service.go) into the faces it encodes. The faces carry what the columns
 * carry: the snapshot shown is new_location_snapshot (location_snapshot is empty), and double_faced
 * and other_face are found again from the names, as the map pairs faces (B §3).
 */
export function decodeFaceColumns(columns: LocationColumns): Location[] {
  if (columns.format !== COLUMNS_FORMAT) throw new Error(`faces: unknown format ${columns.format}`)
  const started = performance.now()
  const n = columns.name.length
  const ids = decodeIds(columns, n)
  const { names, markets, cities, faces, snapshots, flags, distance } = columns
  const out = new Array<Location>(n)
  // The first face of each name, and the faces after it, to set double_faced and other_face.
  const firstOfName = new Int32Array(names.length).fill(-1)
  let name = 0
  let lat = 0
  let lng = 0
  for (let i = 0; i < n; i++) {
    name += columns.name[i]!
    lat += columns.lat[i]!
    lng += columns.lng[i]!
    const face: Location = {
      id: ids[i]!,
      location_name: names[name]!,
      market: markets[columns.market[i]!]!,
      city: cities[columns.city[i]!]!,
      lat: lat / 1e5,
      lng: lng / 1e5,
      face: faces[columns.face[i]!]!,
      double_faced: false,
      other_face: '',
      likely: (flags[i]! & FLAG_LIKELY) !== 0,
      location: { ad_rotation_frequency: columns.frequency[i]!, ad_spot_duration: columns.duration[i]! },
      new_location_snapshot: snapshots[columns.snapshot[i]!]!,
      location_snapshot: '',
      exclude_maximize_budget: (flags[i]! & FLAG_EXCLUDE_MAXIMIZE_BUDGET) !== 0,
      value: columns.value[i]! / 100,
      ooh: columns.ooh[i]!,
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
  // For the render benchmark (bench/web/map-render.mjs: 20 ms for 10,000 faces).
  performance.measure('map:faces-decoded', { start: started, detail: { faces: n } })
  return out
}

/** The faces answer: the columns decoded, or the faces as they are (the JSON form of the API). */
export function readFaces(body: LocationColumns | Location[]): Location[] {
  return Array.isArray(body) ? body : decodeFaceColumns(body)
}
