import { describe, expect, it } from 'vitest'
import {
  circleRadiusMetres,
  defaultView,
  degreesPerPixel,
  distanceMiles,
  facesView,
  faceBearing,
  faceOffsetLng,
  faceSide,
  groupSigns,
  markerPosition,
  marketView,
  pairDoubleFaced,
  pairGapPixels,
  radiusView,
  radiusZoom,
  RADIUS_OPTIONS,
  USA_CENTRE,
  visibleFaces,
} from './viewRules'

describe('defaultView', () => {
  it.each([
    ['browse', 3],
    ['detail', 3],
    ['creation', 4],
  ] as const)('%s shows the centre of the USA at zoom %i', (mode, zoom) => {
    expect(defaultView(mode)).toEqual({ kind: 'centre', center: USA_CENTRE, zoom })
  })
})

describe('radiusZoom (B §9)', () => {
  it.each([
    [5, 11],
    [10, 10],
    [15, 9],
    [20, 9], // 12 - 4 + 1
    [25, 9], // 12 - 5 + 2
    [50, 8],
    [100, 7],
    [250, 5],
  ])('%i miles → zoom %i', (miles, zoom) => {
    expect(radiusZoom(miles)).toBe(zoom)
  })

  it('gives a usable zoom for every radius option, never closer for a larger radius', () => {
    const zooms = RADIUS_OPTIONS.map(radiusZoom)
    for (let i = 1; i < zooms.length; i += 1) expect(zooms[i]).toBeLessThanOrEqual(zooms[i - 1]!)
    expect(Math.min(...zooms)).toBeGreaterThanOrEqual(3)
  })

  it('rejects a radius that is not positive', () => {
    expect(() => radiusZoom(0)).toThrow(RangeError)
    expect(() => radiusZoom(Number.NaN)).toThrow(RangeError)
  })
})

describe('circleRadiusMetres (A §9)', () => {
  it.each([
    [5, 8045],
    [25, 40225],
    [250, 402250],
  ])('%i miles → %i m at 1609 m per mile', (miles, metres) => {
    expect(circleRadiusMetres(miles)).toBe(metres)
  })
})

describe('marketView (B §9)', () => {
  const bayArea = { center: { lat: 37.77, lng: -122.27 }, zoom: 8, fixed: true }
  const chicago = { center: { lat: 41.88, lng: -87.63 }, zoom: 9, fixed: false }
  const faces = [
    { lat: 41.8, lng: -87.7 },
    { lat: 42.0, lng: -87.6 },
  ]

  it('keeps the SF Bay Area fixed at its centre and zoom 8, whatever the faces', () => {
    expect(marketView(bayArea, faces)).toEqual({ kind: 'centre', center: bayArea.center, zoom: 8 })
  })

  it('fits the faces of any other market', () => {
    expect(marketView(chicago, faces)).toEqual({
      kind: 'bounds',
      southWest: { lat: 41.8, lng: -87.7 },
      northEast: { lat: 42.0, lng: -87.6 },
      maxZoom: 15,
    })
  })

  it('uses the market centre when it has no faces', () => {
    expect(marketView(chicago, [])).toEqual({ kind: 'centre', center: chicago.center, zoom: 9 })
  })
})

describe('facesView', () => {
  it('shows a single marker at zoom 15 (A §9)', () => {
    expect(facesView([{ lat: 40, lng: -75 }])).toEqual({ kind: 'centre', center: { lat: 40, lng: -75 }, zoom: 15 })
  })

  it('treats the two faces of one sign as a single marker', () => {
    expect(facesView([{ lat: 40, lng: -75 }, { lat: 40, lng: -75 }])).toMatchObject({ kind: 'centre', zoom: 15 })
  })

  it('has no view for no faces', () => {
    expect(facesView([])).toBeNull()
  })
})

describe('radiusView', () => {
  it('centres on the place at the radius zoom', () => {
    expect(radiusView({ lat: 37.7, lng: -122.4 }, 10)).toEqual({ kind: 'centre', center: { lat: 37.7, lng: -122.4 }, zoom: 10 })
  })
})

describe('faceSide (B §3)', () => {
  it.each([
    ['North Face', 'left'],
    ['West Face', 'left'],
    ['South Face', 'right'],
    ['East Face', 'right'],
    ['Double Faced', 'right'],
    ['  north face ', 'left'],
  ] as const)('%s is the %s marker', (face, side) => {
    expect(faceSide(face)).toBe(side)
  })
})

describe('faceBearing', () => {
  it.each([
    ['North Face', 0],
    ['East Face', 90],
    ['South Face', 180],
    ['West Face', 270],
    ['Double Faced', null],
  ] as const)('%s points %s', (face, bearing) => {
    expect(faceBearing(face)).toBe(bearing)
  })
})

describe('face offsets depend on zoom (B §9)', () => {
  it.each([
    [3, 7],
    [10, 7],
    [11, 10],
    [14, 10],
    [15, 14],
    [18, 14],
  ])('at zoom %i the gap is %i pixels', (zoom, pixels) => {
    expect(pairGapPixels(zoom)).toBe(pixels)
  })

  it('puts the left face west of the point and the right face east, by the gap at that zoom', () => {
    for (const zoom of [5, 12, 16]) {
      const gap = pairGapPixels(zoom) * degreesPerPixel(zoom)
      expect(faceOffsetLng('left', zoom)).toBeCloseTo(-gap, 12)
      expect(faceOffsetLng('right', zoom)).toBeCloseTo(gap, 12)
    }
  })

  it('halves the degrees per pixel at each zoom level', () => {
    expect(degreesPerPixel(0)).toBeCloseTo(360 / 256, 12)
    expect(degreesPerPixel(11) / degreesPerPixel(12)).toBeCloseTo(2, 12)
  })

  it('moves only the faces of a double-faced sign', () => {
    const north = { lat: 37, lng: -122, face: 'North Face' }
    expect(markerPosition(north, false, 15)).toEqual({ lat: 37, lng: -122 })
    expect(markerPosition(north, true, 15).lng).toBeLessThan(-122)
    expect(markerPosition({ ...north, face: 'South Face' }, true, 15).lng).toBeGreaterThan(-122)
  })
})

describe('pairDoubleFaced (B §3)', () => {
  it('pairs faces by location name and leaves single faces out', () => {
    const pairs = pairDoubleFaced([
      { id: 1, location_name: 'Bay Bridge Approach' },
      { id: 2, location_name: 'bay bridge approach ' },
      { id: 3, location_name: 'Market Street' },
    ])
    expect(pairs.get(1)).toEqual([2])
    expect(pairs.get(2)).toEqual([1])
    expect(pairs.has(3)).toBe(false)
  })
})

describe('visibleFaces (show-only-checked, B §4)', () => {
  const faces = [{ id: 1 }, { id: 2 }, { id: 3 }]

  it.each([
    [false, [2], [1, 2, 3]],
    [true, [2], [2]],
    [true, [], [1, 2, 3]], // the mode turns off when nothing is checked
  ])('only-checked %s with %j checked shows %j', (onlyChecked, checked, shown) => {
    expect(visibleFaces(faces, new Set(checked), onlyChecked).map((f) => f.id)).toEqual(shown)
  })
})

describe('distanceMiles', () => {
  it('measures San Francisco to Oakland at about 8 miles on a 3956-mile Earth', () => {
    expect(distanceMiles({ lat: 37.7749, lng: -122.4194 }, { lat: 37.8044, lng: -122.2712 })).toBeCloseTo(8.35, 1)
  })
})

describe('groupSigns (B §3)', () => {
  it('puts the faces of one name on one sign at the first face’s point', () => {
    const signs = groupSigns([
      { id: 1, location_name: 'A', lat: 1, lng: 2 },
      { id: 2, location_name: 'B', lat: 3, lng: 4 },
      { id: 3, location_name: 'a', lat: 1.00001, lng: 2 },
    ])
    expect(signs.map((s) => [s.lat, s.lng, s.faces.map((f) => f.id)])).toEqual([
      [1, 2, [1, 3]],
      [3, 4, [2]],
    ])
  })
})
