import { api } from '../../../platform/api'
import type { SerializedError } from '@reduxjs/toolkit'
import type { ApiError, RequestArgs } from '../../../platform/http'
import { nextTask } from '../../../platform/nextTask'
import { FacesOrderChanged, readFaces, type DecodedFaces } from './faceColumns'
import type {
  AvailableSpot,
  AvailableSpotsRequest,
  Location,
  LocationColumns,
  LocationIDs,
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

const facesParams = (q: FacesQuery) => ('place' in q ? { place: q.place, radius: q.radius } : { market: q.market || undefined })

/** The request of the map's faces (mapFaces), which LocationsPage's prefetch also sends early. */
export const mapFacesRequest = (q: FacesQuery): RequestArgs => ({ url: '/api/od/locations/', params: { ...facesParams(q), format: 'columns' }, revalidate: true })

export const MAP_CONFIG_URL = '/api/map/config'

// Each answer's map faces, decoded once: /locations decodes and clusters its first faces from the
// answer read ahead (readEarly) while the page hydrates, and the store's data is then the very
// same list, which the map finds clustered (issue 30, the 10,000-face first draw).
const decodedAnswers = new WeakMap<object, DecodedFaces>()

/** The map's faces of a faces answer (mapFaces' data), decoded and frozen once per answer. */
export function mapFacesOf(body: LocationColumns | Location[]): DecodedFaces {
  let decoded = decodedAnswers.get(body)
  if (!decoded) {
    const read = readFaces(body)
    decoded = { faces: frozen(read.faces), keyBytes: read.keyBytes }
    decodedAnswers.set(body, decoded)
  }
  return decoded
}

// The locations calls of docs/api.md ("Locations"). All are public reads.
export const locationsApi = api.injectEndpoints({
  endpoints: (build) => ({
    markets: build.query<Market[], void>({
      query: () => '/api/markets/',
      // Each screen reports it: /campaigns/new goes to the dashboard with B §8's message, /locations
      // shows it beside the filter.
      extraOptions: { silent: true },
    }),
    // What the map draws, without the faces' ids (docs/map.md "The faces: columns, keys and ids"):
    // each face's id is its key, and keyBytes finds the key of an available spot's face (faceKey).
    // /locations needs no more: about half the bytes of the faces with their ids.
    mapFaces: build.query<DecodedFaces, FacesQuery>({
      // The server tags the answer (ETag): the browser asks again but downloads it only when it changed.
      query: mapFacesRequest,
      transformResponse: async (body: LocationColumns | Location[]) => {
        const decoded = mapFacesOf(body)
        // The store's update (and the page's render it starts) in a task of its own, after the
        // decoding's: together they were one long task of /locations (issue 30, Total Blocking Time).
        await nextTask()
        return decoded
      },
      // B §8: a location load failure is logged only (the page logs it), never flashed.
      extraOptions: { silent: true },
    }),
    // The faces with their ids, for the pages that send or keep them (the campaign form, Screens):
    // the same columns, and their ids asked for at the same time, both tagged (ETag).
    faces: build.query<Location[], FacesQuery>({
      queryFn: async (q, _api, _extra, baseQuery) => {
        const params = facesParams(q)
        // A face added or removed between the two requests: the answers differ in order; ask again once.
        for (let attempt = 0; ; attempt++) {
          const [columns, ids] = await Promise.all([
            baseQuery({ url: '/api/od/locations/', params: { ...params, format: 'columns' }, revalidate: true }),
            baseQuery({ url: '/api/od/locations/', params: { ...params, format: 'ids' }, revalidate: true }),
          ])
          if (columns.error) return { error: columns.error }
          if (ids.error) return { error: ids.error }
          try {
            return { data: frozen(readFaces(columns.data as LocationColumns | Location[], ids.data as LocationIDs).faces) }
          } catch (e) {
            if (!(e instanceof FacesOrderChanged) || attempt > 0) throw e
          }
        }
      },
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
      query: () => MAP_CONFIG_URL,
      keepUnusedDataFor: 3600,
    }),
  }),
})

export const {
  useMarketsQuery,
  useFacesQuery,
  useMapFacesQuery,
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
 * A query's result as a page reads it, in which the query's start changes nothing: before it starts
 * (skipped, or the first render, which a prerendered page hydrates) it reads as fetching, as RTK
 * Query's useQuery shows a query that has not started, and once started it is fetching. With the
 * whole result (the request's id and start time) its start rendered the page again, synchronously,
 * in the effects of the render that started it: the longest task of /locations (issue 30, Total
 * Blocking Time). For a selectFromResult; a selectFromResult replaces useQuery's own "not started
 * reads as fetching", so this keeps it. `currentData` is the answer to the current argument only
 * (`data` stays the last answer while a new argument's loads): it changes with `data` or with
 * `isFetching`, so it costs no render of its own.
 */
export function quietStart<T>(result: {
  data?: T
  currentData?: T
  error?: ApiError | SerializedError
  isError: boolean
  isFetching: boolean
  isSuccess: boolean
  isUninitialized: boolean
}) {
  const { data, currentData, error, isError, isFetching, isSuccess, isUninitialized } = result
  return { data, currentData, error, isError, isFetching: isFetching || isUninitialized, isSuccess }
}

/**
 * The map's tile settings: the server's, the default once they cannot be read, null while asked.
 * When the tiles cannot be reached (the server could not reach them, or the browser is offline),
 * tile_url is empty: the map draws its offline basemap and asks for no tile. `skip` waits to ask.
 */
export function useMapTiles(options: { skip?: boolean } = {}): MapConfig | null {
  const config = useMapConfigQuery(undefined, { ...options, selectFromResult: quietStart })
  const tiles = config.data ?? (config.isError ? FALLBACK_TILES : null)
  if (tiles && (tiles.offline || (typeof navigator !== 'undefined' && navigator.onLine === false))) return { ...tiles, tile_url: '' }
  return tiles
}
