import { describe, expect, it } from 'vitest'
import type { Location, LocationColumns, LocationIDs } from '../../../platform/api-types/locations'
import { decodeFaceColumns, faceKey, FacesOrderChanged, readFaces } from './faceColumns'

// Three faces as GET /api/od/locations/?format=columns sends them (modules/locations/facecolumns.go):
// the two sides of one sign and a single face, around a place (with distances); their keys are the
// first 4 bytes of their ids, which ?format=ids sends whole.
const ids = ['6ef4bc0d-f051-5c9a-b6ff-6da8341baeec', '00000000-0000-4000-8000-0000000000ff', 'ffffffff-ffff-4fff-bfff-ffffffffffff']
const keys = ['6ef4bc0d', '00000000', 'ffffffff']
const hexToBase64 = (hex: string) => btoa(hex.match(/../g)!.map((b) => String.fromCharCode(parseInt(b, 16))).join(''))
const columns: LocationColumns = {
  format: 2,
  order: 'o1',
  key_bytes: 4,
  keys: hexToBase64(keys.join('')),
  names: ['Market St & 5th, San Francisco', 'Broadway, Oakland'],
  name: [0, 0, 1],
  markets: ['SF Bay Area'],
  market: [0, 0, 0],
  cities: ['San Francisco', 'Oakland'],
  city: [0, 0, 1],
  faces: ['North Face', 'South Face', 'Double Faced'],
  face: [0, 1, 2],
  snapshots: ['/api/od/snapshots/billboard-1.svg', ''],
  snapshot: [0, 0, 1],
  lat: [3778000, 5, 2000],
  lng: [-12241000, -5, 11000],
  value: [79000, 51050, 12000],
  ooh: [172928, 90000, 12],
  frequency: [9, 6, 12],
  duration: [8, 15, 10],
  flags: [1, 3, 0],
  distance: [120, 120, 1234],
}
const idsAnswer: LocationIDs = { format: 2, order: 'o1', uuids: hexToBase64(ids.map((id) => id.replaceAll('-', '')).join('')) }

const facesWith = (id: readonly string[]): Location[] => [
  {
    id: id[0]!, location_name: 'Market St & 5th, San Francisco', market: 'SF Bay Area', city: 'San Francisco', lat: 37.78, lng: -122.41,
    face: 'North Face', double_faced: true, other_face: id[1]!, likely: true, location: { ad_rotation_frequency: 9, ad_spot_duration: 8 },
    new_location_snapshot: '/api/od/snapshots/billboard-1.svg', location_snapshot: '', exclude_maximize_budget: false, value: 790, ooh: 172928, distance: 1.2,
  },
  {
    id: id[1]!, location_name: 'Market St & 5th, San Francisco', market: 'SF Bay Area', city: 'San Francisco', lat: 37.78005, lng: -122.41005,
    face: 'South Face', double_faced: true, other_face: id[0]!, likely: true, location: { ad_rotation_frequency: 6, ad_spot_duration: 15 },
    new_location_snapshot: '/api/od/snapshots/billboard-1.svg', location_snapshot: '', exclude_maximize_budget: true, value: 510.5, ooh: 90000, distance: 1.2,
  },
  {
    id: id[2]!, location_name: 'Broadway, Oakland', market: 'SF Bay Area', city: 'Oakland', lat: 37.80005, lng: -122.30005,
    face: 'Double Faced', double_faced: false, other_face: '', likely: false, location: { ad_rotation_frequency: 12, ad_spot_duration: 10 },
    new_location_snapshot: '', location_snapshot: '', exclude_maximize_budget: false, value: 120, ooh: 12, distance: 12.34,
  },
]

describe('decodeFaceColumns', () => {
  it('gives back every face with the fields the columns carry, its key for an id', () => {
    const decoded = decodeFaceColumns(columns)
    expect(decoded.faces).toEqual<Location[]>(facesWith(keys))
    expect(decoded.keyBytes).toBe(4)
    // An available spot's face id finds its face by its key.
    expect(ids.map((id) => faceKey(id, decoded.keyBytes))).toEqual(keys)
  })

  it('gives each face its own timing, whatever the numbers (faces of the same pair share one)', () => {
    // 1 × 65536 + 70000 = 2 × 65536 + 4464: a key of the pair made of the two numbers alone would mix them up.
    const decoded = decodeFaceColumns({ ...columns, frequency: [1, 2, 1], duration: [70000, 4464, 70000] })
    expect(decoded.faces.map((f) => f.location)).toEqual([
      { ad_rotation_frequency: 1, ad_spot_duration: 70000 },
      { ad_rotation_frequency: 2, ad_spot_duration: 4464 },
      { ad_rotation_frequency: 1, ad_spot_duration: 70000 },
    ])
    const same = decodeFaceColumns({ ...columns, frequency: [9, 9, 6], duration: [8, 8, 15] }).faces
    expect(same[0]!.location).toBe(same[1]!.location)
    expect(Object.isFrozen(same[0]!.location)).toBe(true)
  })

  it('gives the full ids with the ids answer of the same order', () => {
    const decoded = decodeFaceColumns(columns, idsAnswer)
    expect(decoded.faces).toEqual<Location[]>(facesWith(ids))
    expect(decoded.keyBytes).toBe(0)
    expect(faceKey(ids[1]!, decoded.keyBytes)).toBe(ids[1])
  })

  it('finds keys longer than 4 bytes', () => {
    const six = ids.map((id) => id.replaceAll('-', '').slice(0, 12))
    const decoded = decodeFaceColumns({ ...columns, key_bytes: 6, keys: hexToBase64(six.join('')) })
    expect(decoded.faces.map((f) => f.id)).toEqual(six)
    expect(ids.map((id) => faceKey(id, 6))).toEqual(six)
  })

  it('reads keys and ids sent as they are, and no distances without a place', () => {
    const { distance: _, ...rest } = columns
    const decoded = decodeFaceColumns({ ...rest, keys: '', key_bytes: 0, key: ['a', 'b', 'c'] })
    expect(decoded.faces.map((f) => f.id)).toEqual(['a', 'b', 'c'])
    expect(decoded.keyBytes).toBe(0)
    expect(faceKey('b', decoded.keyBytes)).toBe('b')
    expect(decoded.faces.every((f) => !('distance' in f))).toBe(true)
    expect(decodeFaceColumns(columns, { format: 2, order: 'o1', uuids: '', id: ['x', 'y', 'z'] }).faces.map((f) => f.id)).toEqual(['x', 'y', 'z'])
  })

  it('refuses another format, keys or ids that do not match the faces, and ids of another order', () => {
    expect(() => decodeFaceColumns({ ...columns, format: 1 })).toThrow('unknown format 1')
    expect(() => decodeFaceColumns(columns, { ...idsAnswer, format: 1 })).toThrow('unknown format 1')
    expect(() => decodeFaceColumns({ ...columns, keys: hexToBase64('00'.repeat(8)) })).toThrow('8 bytes of keys for 3 faces')
    expect(() => decodeFaceColumns(columns, { ...idsAnswer, uuids: hexToBase64('00'.repeat(32)) })).toThrow('32 bytes of ids for 3 faces')
    expect(() => decodeFaceColumns(columns, { ...idsAnswer, order: 'o2' })).toThrow(FacesOrderChanged)
  })

  it('takes the JSON form as it is', () => {
    const faces = facesWith(ids)
    expect(readFaces(faces)).toEqual({ faces, keyBytes: 0 })
    expect(readFaces(faces).faces).toBe(faces)
    expect(readFaces(columns, idsAnswer).faces).toEqual(faces)
    expect(() => readFaces(columns, faces)).toThrow('not in columns')
  })

  it('decodes 10,000 faces in milliseconds', () => {
    const n = 10_000
    let hex = ''
    for (let i = 0; i < n; i++) hex += i.toString(16).padStart(8, '0')
    const big: LocationColumns = {
      format: 2, order: 'o', key_bytes: 4, keys: hexToBase64(hex), names: Array.from({ length: n / 2 }, (_, i) => `Sign ${i}`), name: Array.from({ length: n }, (_, i) => (i % 2 === 0 && i > 0 ? 1 : 0)),
      markets: ['M'], market: new Array<number>(n).fill(0), cities: ['C'], city: new Array<number>(n).fill(0), faces: ['North Face'], face: new Array<number>(n).fill(0),
      snapshots: [''], snapshot: new Array<number>(n).fill(0), lat: new Array<number>(n).fill(3), lng: new Array<number>(n).fill(-3), value: new Array<number>(n).fill(50000),
      ooh: new Array<number>(n).fill(1000), frequency: new Array<number>(n).fill(6), duration: new Array<number>(n).fill(8), flags: new Array<number>(n).fill(1),
    }
    decodeFaceColumns(big) // warm-up
    const started = performance.now()
    const { faces } = decodeFaceColumns(big)
    const took = performance.now() - started
    expect(faces).toHaveLength(n)
    expect(faces[n - 1]!.id).toBe((n - 1).toString(16).padStart(8, '0'))
    expect(faces[1]!.other_face).toBe(faces[0]!.id)
    // The budget is 20 ms in a browser (bench/web/map-render.mjs measures it there); jsdom on a
    // shared machine gets ten times that.
    expect(took).toBeLessThan(200)
  })
})
