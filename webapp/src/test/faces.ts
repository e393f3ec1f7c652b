import type { AvailableSpot, Location, Market } from '../platform/api-types/locations'

// Data generators of faces and spots for the tests of the map screens (only tests import this file).

let next = 0

export function makeFace(overrides: Partial<Location> = {}): Location {
  next += 1
  return {
    id: `face-${next}`,
    location_name: `Sign ${next}`,
    market: 'SF Bay Area',
    city: 'San Francisco',
    lat: 37.77 + next / 1000,
    lng: -122.42,
    face: 'North Face',
    double_faced: false,
    other_face: '',
    likely: false,
    location: { ad_rotation_frequency: 6, ad_spot_duration: 8 },
    new_location_snapshot: '',
    location_snapshot: '',
    exclude_maximize_budget: false,
    value: 1250,
    ooh: 198899,
    ...overrides,
  }
}

export function makeSpot(face: Location, overrides: Partial<AvailableSpot> = {}): AvailableSpot {
  return {
    xxx: face.id,
    used_spots: 1,
    available_spots: 6,
    min_value: face.value,
    min_value_2: 0,
    vendor_tier: 1,
    old_value: 0,
    ooh: face.ooh,
    available: true,
    ...overrides,
    // The server's price: min_value rounded up to the next $10 (locations.SpotPrice), unless given.
    price: overrides.price ?? Math.ceil((overrides.min_value ?? face.value) / 10) * 10,
  }
}

export const BAY_AREA: Market = {
  id: 'm-sf',
  market: 'SF Bay Area',
  cities: ['Oakland', 'San Francisco'],
  center: { lat: 37.7, lng: -122.2 },
  zoom: 8,
  fixed: true,
}

export const CHICAGO: Market = {
  id: 'm-chi',
  market: 'Chicago',
  cities: ['Chicago', 'Evanston'],
  center: { lat: 41.88, lng: -87.63 },
  zoom: 9,
  fixed: false,
}
