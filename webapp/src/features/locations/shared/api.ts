import { api } from '../../../platform/api'
import { readFaces } from './faceColumns'
import type {
  AvailableSpot,
  AvailableSpotsRequest,
  Location,
  LocationColumns,
  MapConfig,
  Market,
  PlaceDetails,
  PlacePrediction,
} from '../../../platform/api-types/locations'

/**
 * The inventory lists are thousands of rows (3,250 faces, 1.6 MB of JSON): frozen at the top as
 * they arrive, the store's Immer takes them as they are instead of walking and freezing every row
 * (that walk was a long task on /locations). They are never changed in place.
 */
const frozen = <T>(rows: T[]): T[] => Object.freeze(rows) as T[]

/** Which faces to load: a market (empty = every face), or those within `radius` miles of a place. */
export type FacesQuery = { market: string } | { place: string; radius: number }

// The locations calls of docs/api.md ("Locations"). All are public reads.
export const locationsApi = api.injectEndpoints({
  endpoints: (build) => ({
    markets: build.query<Market[], void>({
      query: () => '/api/markets/',
      // Each screen reports it: /campaigns/new goes to the dashboard with B §8's message, /locations
      // shows it beside the filter.
      extraOptions: { silent: true },
    }),
    faces: build.query<Location[], FacesQuery>({
      // The faces in columns: about 44% of the JSON's bytes, decoded in a few milliseconds;
      // the server tags them (ETag), so the browser asks again but downloads them only when they changed.
      query: (q) => ({
        url: '/api/od/locations/',
        params: { ...('place' in q ? { place: q.place, radius: q.radius } : { market: q.market || undefined }), format: 'columns' },
      }),
      transformResponse: (body: LocationColumns | Location[]) => frozen(readFaces(body)),
      // B §8: a location load failure is logged only (the page logs it), never flashed.
      extraOptions: { silent: true },
    }),
    // A read that carries its filter in a body (B §7), so it is a query, cached per body.
    availableSpots: build.query<AvailableSpot[], AvailableSpotsRequest>({
      query: (body) => ({ url: '/api/available-spots/', method: 'POST', body }),
      transformResponse: frozen<AvailableSpot>,
    }),
    placePredictions: build.query<PlacePrediction[], string>({
      query: (input) => ({ url: '/api/places/predictions', params: { input } }),
    }),
    placeDetails: build.query<PlaceDetails, string>({
      query: (id) => ({ url: '/api/places/details', params: { id } }),
    }),
    mapConfig: build.query<MapConfig, void>({
      query: () => '/api/map/config',
      keepUnusedDataFor: 3600,
    }),
  }),
})

export const {
  useMarketsQuery,
  useFacesQuery,
  useAvailableSpotsQuery,
  usePlacePredictionsQuery,
  useLazyPlaceDetailsQuery,
  useMapConfigQuery,
} = locationsApi

// Used when the server's map settings cannot be read: the default of DESIGN §1.8.
const FALLBACK_TILES: MapConfig = {
  tile_url: 'https://tile.openstreetmap.org/{z}/{x}/{y}.png',
  attribution: '&copy; <a href="https://www.openstreetmap.org/copyright">OpenStreetMap</a> contributors',
  offline: false,
}

/**
 * The map's tile settings: the server's, the default once they cannot be read, null while asked.
 * When the tiles cannot be reached (the server could not reach them, or the browser is offline),
 * tile_url is empty: the map draws its offline basemap and asks for no tile.
 */
export function useMapTiles(): MapConfig | null {
  const config = useMapConfigQuery()
  const tiles = config.data ?? (config.isError ? FALLBACK_TILES : null)
  if (tiles && (tiles.offline || (typeof navigator !== 'undefined' && navigator.onLine === false))) return { ...tiles, tile_url: '' }
  return tiles
}
