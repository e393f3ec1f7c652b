import { lazy, Suspense, useCallback, useDeferredValue, useEffect, useMemo, useState } from 'react'
import { Link } from 'react-router'
import Alert from '../../../platform/Alert'
import type { AvailableSpot, Location, LocationColumns, PlacePrediction } from '../../../platform/api-types/locations'
import { defaultStartDate, formatInputDate, inputToApiDate } from '../../../platform/dates'
import { errorMessage, isApiError, readEarly, type EarlyRequest } from '../../../platform/http'
import DateInput from '../../../platform/inputs/DateInput'
import { validateDate } from '../../../platform/inputs/dateRules'
import type { default as FaceMapComponent, FaceId, MapFace, MapProps } from '../../../platform/map/Map'
import { prepareFaces } from '../../../platform/map/signIndex'
import { nextTask } from '../../../platform/nextTask'
import {
  DEFAULT_RADIUS_MILES,
  defaultView,
  facesView,
  marketView,
  RADIUS_OPTIONS,
  radiusView,
  type LatLng,
  type MapView,
} from '../../../platform/map/viewRules'
import Spinner from '../../../platform/Spinner'
import {
  MAP_CONFIG_URL,
  mapFacesOf,
  mapFacesRequest,
  quietStart,
  useAvailableSpotsQuery,
  useLazyPlaceDetailsQuery,
  useMapFacesQuery,
  useMapTiles,
  useMarketsQuery,
  type FacesQuery,
} from '../shared/api'
import { faceKey } from '../shared/faceColumns'
import FaceInfo from '../components/FaceInfo'
import FaceList from '../components/FaceList'
import PlaceSearch from '../shared/PlaceSearch'
import { useMountedInTransition } from '../../../platform/useHydrated'

// The map (Leaflet) is its own chunk, asked for once the page has mounted: the page is
// prerendered without it (scripts/prerender.mjs; Leaflet needs a browser) and paints before it.
type MapModule = typeof import('../../../platform/map/Map')
let mapModule: MapModule | undefined
const loadMap = () =>
  import('../../../platform/map/Map').then((loaded) => {
    mapModule = loaded
    return loaded
  })
const LazyFaceMap = lazy(loadMap) as unknown as typeof FaceMapComponent

/**
 * The map, from its chunk as soon as that has been evaluated (prefetch asks for it before the page
 * hydrates): the lazy component's first render makes a promise of it even then, and the map
 * suspended, committed its placeholder and rendered again a task later (issue 30, the 10,000-face
 * first draw). Which of the two is chosen once, on mounting: a component of another type in its
 * place would be a new map.
 */
function FaceMap<F extends MapFace>(props: MapProps<F>) {
  const [Chosen] = useState<typeof FaceMapComponent>(() => mapModule?.default ?? LazyFaceMap)
  return <Chosen<F> {...props} />
}

// The page's first faces: every market's (its filter starts at "All markets").
const FIRST_FACES: FacesQuery = { market: '' }

/**
 * The page's first data, the faces and the map's settings: the prerendered page's HTML asks for
 * them as it paints, before any of the app's code has run (the route's handle; scripts/prerender.mjs).
 * They were asked for from the hydration's effects (200 to 300 ms after it on a quiet machine),
 * then from before the hydration (after the app's code had run): issue 30, the first draw. The
 * answers wait outside the store (platform/http.ts) until the page's own queries take them, after
 * the hydration: a store update in the middle of it made React hydrate again, three times as long.
 */
export const FIRST_REQUESTS: readonly EarlyRequest[] = [mapFacesRequest(FIRST_FACES), { url: MAP_CONFIG_URL }]

/**
 * What else the prerendered page needs first, before it hydrates (main.tsx, through the route's
 * handle): the map's code, in a task of its own; then, with the faces its HTML asked for, their
 * decoding and their clustering in the map's worker, each in a task of its own. The worker builds
 * the index on the other core while the page hydrates, and the store's faces are the same list
 * (mapFacesOf), so the map finds them clustered: it waited for the index after the hydration, a
 * quarter of a second of the 10,000-face first draw (issue 30).
 */
export function prefetch() {
  const firstFaces = readEarly<LocationColumns | Location[]>(mapFacesRequest(FIRST_FACES))
  window.setTimeout(() => void loadMap(), 0)
  void firstFaces?.then(async (answer) => {
    if (!answer.data) return
    await nextTask()
    const { faces } = mapFacesOf(answer.data)
    await nextTask()
    prepareFaces(faces)
  })
}

// A §5: weeks start on a Monday; every other weekday is disabled in the week picker.
const NOT_MONDAY = [0, 2, 3, 4, 5, 6] as const

type FindBy = 'market' | 'place'

interface ChosenPlace {
  id: string
  name: string
  center: LatLng
}

const FACE_TYPES = [
  ['North Face', 'Faces north, read by traffic heading south toward it.'],
  ['South Face', 'Faces south, read by northbound traffic.'],
  ['East Face', 'Faces east, read by westbound traffic.'],
  ['West Face', 'Faces west, read by eastbound traffic.'],
  ['Double Faced', 'Two screens back to back; the map shows an arrow for each side, North and West on the left. Each side has its own price.'],
] as const

// The page's words around the map and the list: the same elements on every render, which React
// then skips; the page renders a dozen times as it starts (its data arriving, the map's stages),
// each a task on a phone (issue 30, Total Blocking Time).
const PAGE_HEADER = (
  <header className="max-w-3xl">
    <p className="text-sm font-semibold uppercase tracking-wide text-indigo-600">Locations</p>
    <h1 className="mt-1 text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl">Every billboard face, on one map</h1>
    <p className="mt-3 text-lg leading-relaxed text-slate-600">
      Browse digital billboard faces from independent media owners across the United States. Filter by market and
      city, or search a place and see the faces within a radius. Open a face to see its weekly price, audience and
      availability.
    </p>
  </header>
)

const FACE_TYPES_SECTION = (
  <section aria-labelledby="face-types-title" className="mt-12">
    <h2 id="face-types-title" className="text-2xl font-bold tracking-tight text-slate-900">
      Face types and how your ad plays
    </h2>
    <p className="mt-3 max-w-3xl leading-relaxed text-slate-600">
      A face is one screen on one billboard structure; its direction tells you which traffic sees it. Digital faces
      rotate a short loop of ads: for each face you book, your ad shows Monday through Sunday, for the spot duration
      in seconds at the rotation frequency listed for that face. Every booked week starts on a Monday.
    </p>
    <dl className="mt-6 grid gap-4 sm:grid-cols-2 lg:grid-cols-5">
      {FACE_TYPES.map(([name, text]) => (
        <div key={name} className="rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200">
          <dt className="font-semibold text-slate-900">{name}</dt>
          <dd className="mt-1 text-sm leading-relaxed text-slate-600">{text}</dd>
        </div>
      ))}
    </dl>
    <p className="mt-6 text-slate-600">
      Faces that are sold out for your week cannot be booked. See{' '}
      <Link to="/cost" className="link">
        how pricing works
      </Link>{' '}
      or{' '}
      <Link to="/register" className="link">
        create an account
      </Link>{' '}
      to plan a campaign.
    </p>
  </section>
)

/**
 * The public map of every billboard face (A §2 /locations): by market and city, or within a
 * radius of a US place (B §9), with an info window per face and its availability for a week.
 */
export default function LocationsPage() {
  const [findBy, setFindBy] = useState<FindBy>('market')
  const [market, setMarket] = useState('')
  const [cities, setCities] = useState<readonly string[]>([])
  const [place, setPlace] = useState<ChosenPlace | null>(null)
  const [placeError, setPlaceError] = useState<string | null>(null)
  const [radius, setRadius] = useState<number>(DEFAULT_RADIUS_MILES)
  const [weekText, setWeekText] = useState(() => formatInputDate(defaultStartDate(new Date(), [1])))
  const [selectedId, setSelectedId] = useState<string | null>(null)
  const [view, setView] = useState<MapView | null>(null)
  // Set when the market or cities change: the map fits the faces once they have loaded.
  const [fitPending, setFitPending] = useState(false)

  // The prerendered page was rendered on another day: the week (today's) is filled in once the
  // page has hydrated, so the server's HTML and the first render agree; the map mounts then too.
  const hydrated = useMountedInTransition()
  // The markets (the filter's options) are asked for once the page has been idle: the hydration's
  // effects start every query of the page in one task, and this one is not needed for the first
  // view (issue 30, Total Blocking Time). The map's settings and the faces are asked for at once.
  const idle = useIdle()
  // Read through quietStart, as the faces: a query's start renders nothing (shared/api.ts).
  const markets = useMarketsQuery(undefined, { skip: !idle, selectFromResult: quietStart })
  // The faces are asked for in the hydration's effects, the map's code a task later and its
  // settings a task after that: each start (the store's update, its fetch) is a few milliseconds,
  // a long task together on a phone (issue 30). The code (46 kB) first, as the map waits for it
  // longest: the 10,000-face first draw. On the prerendered page the faces and the settings take
  // the answers its HTML asked for (FIRST_REQUESTS), and the code is on its way (prefetch).
  const afterFaces = useTasksAfterMount(2)
  const tiles = useMapTiles({ skip: afterFaces < 2 })
  useEffect(() => {
    if (afterFaces === 1) void loadMap()
  }, [afterFaces])
  const [loadPlace, placeDetails] = useLazyPlaceDetailsQuery()

  const query: FacesQuery = findBy === 'place' && place ? { place: place.id, radius } : findBy === 'market' && market ? { market } : FIRST_FACES
  // The faces without their ids: this page never sends a face id, and each face's id here is its
  // key (docs/map.md "The faces: columns, keys and ids"), which the week's spots are matched by.
  // Its start, in the hydration's effects, renders nothing (quietStart).
  const faces = useMapFacesQuery(query, { selectFromResult: quietStart })
  // The list of the thousands of faces renders at transition priority: React draws it in slices,
  // between which the page answers input, instead of in one long task as they arrive.
  const facesData = useDeferredValue(faces.data)
  // The map's clustering starts on the faces as they arrive, in a task of its own, before the map
  // renders them: the map finds its index built or being built (issue 30, the 10,000-face first
  // draw). On the prerendered page prefetch has done it for the first faces, and this loads nothing
  // again. Only the first map takes the warmed worker; a list the map does not draw as it is (a
  // city filter) costs the worker one index it then replaces.
  const arrived = faces.data?.faces
  useEffect(() => {
    if (!arrived) return
    const timer = window.setTimeout(() => prepareFaces(arrived), 0)
    return () => window.clearTimeout(timer)
  }, [arrived])
  const facesError = faces.isError ? faces.error : undefined
  useEffect(() => {
    // B §8: a location load failure is logged only.
    if (facesError) console.error('Location load failure', facesError)
  }, [facesError])

  const chosenMarket = markets.data?.find((m) => m.market === market)
  const shownFaces = useMemo(() => facesShown(facesData?.faces, findBy, cities), [facesData, findBy, cities])
  // The map takes the faces as they arrive, not deferred with the list: its render is light (it
  // finds the same list grouped and clustered already, prefetch), and behind the list's deferred
  // render its first markers waited for it (issue 30, the 10,000-face first draw).
  // (A place's faces in the answer's order: the map has no use for the list's nearest-first.)
  const mapFaces = useMemo(() => facesShown(faces.data?.faces, findBy === 'place' ? 'market' : findBy, findBy === 'place' ? [] : cities), [faces.data, findBy, cities])

  // Availability and the week's price for every face shown (POST /api/available-spots/).
  const week = hydrated && validateDate(weekText, { today: new Date(), disabledWeekdays: NOT_MONDAY }) === null ? inputToApiDate(weekText) : null
  const spotMarkets = useMemo(() => [...new Set(shownFaces.map((face) => face.market))].sort(), [shownFaces])
  const spotsQuery = useAvailableSpotsQuery(
    { start_at: week ?? '', markets: spotMarkets, ...(findBy === 'market' && cities.length > 0 ? { cities: cities.join(',') } : {}) },
    { skip: !week || spotMarkets.length === 0 },
  )
  const spotsData = useDeferredValue(spotsQuery.data)
  const spots = useMemo(() => {
    // By the key of the spot's face: the faces of this page carry their keys for ids.
    const byFace = new Map<string, AvailableSpot>()
    const keyBytes = facesData?.keyBytes ?? 0
    if (week) for (const spot of spotsData ?? []) byFace.set(faceKey(spot.xxx, keyBytes), spot)
    return byFace
  }, [spotsData, week, facesData?.keyBytes])

  // The map fits the chosen market's faces once they have loaded (state adjusted while rendering).
  if (fitPending && !faces.isFetching && faces.isSuccess && facesData === faces.data) {
    setFitPending(false)
    setView(chosenMarket ? marketView(chosenMarket, shownFaces) : defaultView('browse'))
  }

  const changeFindBy = (next: FindBy) => {
    setFindBy(next)
    setSelectedId(null)
    if (next === 'place' && place) setView(radiusView(place.center, radius))
    if (next === 'market') setFitPending(true)
  }

  const pickPlace = async (prediction: PlacePrediction) => {
    setPlaceError(null)
    const result = await loadPlace(prediction.id)
    if (result.error || !result.data) {
      // B §8: a place details failure is rejected with the service status.
      setPlaceError(errorMessage(result.error))
      return
    }
    const center = result.data.geometry.location
    setPlace({ id: result.data.id, name: result.data.name, center })
    setSelectedId(null)
    setView(radiusView(center, radius))
  }

  const changeRadius = (miles: number) => {
    setRadius(miles)
    if (place) setView(radiusView(place.center, miles))
  }

  // The same function while the list is the same: the list (memo) renders only when it changes.
  const showFace = useCallback(
    (id: string) => {
      const face = shownFaces.find((f) => f.id === id)
      if (!face) return
      setSelectedId(id)
      setView(facesView([face]))
    },
    [shownFaces],
  )

  const fieldErrors = facesError && isApiError(facesError) && facesError.status < 500 ? facesError.errors : {}
  const loading = (faces.isFetching || facesData !== faces.data) && !facesData
  // The list of the filter before stays until the new filter's faces are listed, dimmed and not to
  // be clicked: its faces are not the map's, so a click on one opened nothing. (After a failed load
  // it stays as it was: B §8 logs a location load failure only.)
  const listStale = !faces.isError && facesData !== undefined && facesData !== faces.currentData
  const emptyText =
    findBy === 'place' && place ? 'No faces in this area — try a larger radius' : cities.length > 0 ? 'No faces in these cities — choose other cities' : 'No faces to show'

  return (
    <div className="mx-auto max-w-7xl px-4 py-8 sm:px-6 lg:px-8">
      {PAGE_HEADER}

      <form role="search" aria-label="Find faces" className="mt-6 space-y-4 rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-5" onSubmit={(e) => e.preventDefault()}>
        <fieldset>
          <legend className="text-sm font-medium text-slate-700">Find faces by</legend>
          <div className="mt-2 inline-flex rounded-lg bg-slate-100 p-1">
            {(['market', 'place'] as const).map((option) => (
              <label key={option} className={`cursor-pointer rounded-md px-4 py-1.5 text-sm font-medium has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-brand-600 ${findBy === option ? 'bg-white text-brand-800 shadow-sm' : 'text-slate-600'}`}>
                <input type="radio" name="find-by" value={option} className="sr-only" checked={findBy === option} onChange={() => changeFindBy(option)} />
                {option === 'market' ? 'Market and city' : 'Place and radius'}
              </label>
            ))}
          </div>
        </fieldset>

        <div className="grid gap-4 md:grid-cols-[minmax(0,1fr)_minmax(0,1fr)_14rem]">
          {findBy === 'market' ? (
            <>
              <div className="space-y-1.5">
                <label htmlFor="market" className="block text-sm font-medium text-slate-700">
                  Market
                </label>
                <select
                  id="market"
                  className="field-input"
                  value={market}
                  disabled={!markets.data}
                  onChange={(e) => {
                    setMarket(e.target.value)
                    setCities([])
                    setSelectedId(null)
                    setFitPending(true)
                  }}
                >
                  <option value="">All markets</option>
                  {markets.data?.map((m) => (
                    <option key={m.id} value={m.market}>
                      {m.market}
                    </option>
                  ))}
                </select>
                {markets.isError && <p className="text-sm text-red-700">{errorMessage(markets.error)}</p>}
                {fieldErrors.market && <p className="text-sm text-red-700">{fieldErrors.market}</p>}
              </div>
              <CityFilter
                cities={chosenMarket?.cities ?? []}
                chosen={cities}
                onChange={(next) => {
                  setCities(next)
                  setSelectedId(null)
                  setFitPending(true)
                }}
              />
            </>
          ) : (
            <>
              <PlaceSearch id="place" label="Place" onPick={pickPlace} error={placeError ?? fieldErrors.place ?? null} />
              <div className="space-y-1.5">
                <label htmlFor="radius" className="block text-sm font-medium text-slate-700">
                  Radius
                </label>
                <select id="radius" className="field-input" value={radius} aria-invalid={fieldErrors.radius ? true : undefined} onChange={(e) => changeRadius(Number(e.target.value))}>
                  {RADIUS_OPTIONS.map((miles) => (
                    <option key={miles} value={miles}>
                      {miles} miles
                    </option>
                  ))}
                </select>
                {fieldErrors.radius && <p className="text-sm text-red-700">{fieldErrors.radius}</p>}
              </div>
            </>
          )}
          <DateInput id="week" label="Week starting" value={hydrated ? weekText : ''} onChange={setWeekText} disabledWeekdays={NOT_MONDAY} hint="A Monday, mm/dd/yyyy" />
        </div>
        {facesError && isApiError(facesError) && facesError.status >= 400 && facesError.status < 500 && <Alert>{facesError.message}</Alert>}
        {placeDetails.isFetching && <Spinner label="Finding the place" className="h-4 w-4" />}
      </form>

      <div className="mt-6 grid gap-6 lg:grid-cols-[minmax(0,1fr)_22rem]">
        <div className="relative">
          {/* The map mounts as soon as the page has hydrated, and its base layer once its settings
              have come: waiting for them, Leaflet's stages started a quarter of a second later
              (issue 30, the 10,000-face first draw). */}
          {hydrated ? (
            <Suspense fallback={<MapPlaceholder />}>
              <FaceMap<Location>
                faces={mapFaces}
                mode="browse"
                label="Map of billboard faces"
                tileUrl={tiles?.tile_url}
                attribution={tiles?.attribution ?? ''}
                view={view}
                circle={findBy === 'place' && place ? { center: place.center, miles: radius } : null}
                selectedId={selectedId}
                onSelect={(id: FaceId | null) => setSelectedId(id === null ? null : String(id))}
                isDisabled={(face) => spots.get(face.id)?.available === false}
                renderInfo={(face, others) => (
                  <FaceInfo face={face} spot={spots.get(face.id)} week={week} loading={spotsQuery.isFetching} others={others} onShowFace={setSelectedId} />
                )}
                className="h-[22rem] sm:h-[30rem] lg:h-[40rem]"
              />
            </Suspense>
          ) : (
            <MapPlaceholder />
          )}
          {faces.isFetching && faces.data && (
            <div className="pointer-events-none absolute top-3 right-3 z-[500] rounded-lg bg-white/90 px-3 py-1.5 shadow">
              <Spinner label="Loading faces" className="h-4 w-4" />
            </div>
          )}
        </div>
        <section aria-labelledby="faces-title">
          <h2 id="faces-title" className="sr-only">
            Faces
          </h2>
          {loading ? (
            <div className="flex justify-center p-8">
              <Spinner label="Loading faces" />
            </div>
          ) : facesError && !faces.data ? (
            <p className="rounded-xl border border-dashed border-slate-300 bg-white p-6 text-center text-slate-600">The faces could not be loaded. Please try again later.</p>
          ) : (
            <FaceList key={JSON.stringify(query) + cities.join()} faces={shownFaces} spots={spots} selectedId={selectedId} onShow={showFace} emptyText={emptyText} stale={listStale} />
          )}
        </section>
      </div>

      {FACE_TYPES_SECTION}
    </div>
  )
}

/** 0 on the first render, then one more each task after a commit, up to `last`. */
function useTasksAfterMount(last: number): number {
  const [count, setCount] = useState(0)
  useEffect(() => {
    if (count >= last) return
    const timer = window.setTimeout(() => setCount(count + 1), 0)
    return () => window.clearTimeout(timer)
  }, [count, last])
  return count
}

/**
 * False until the browser has had an idle moment after the page mounted (at most a second); where
 * it has no idle callbacks, a tenth of a second on, after the page's first tasks.
 */
function useIdle(): boolean {
  const [idle, setIdle] = useState(false)
  useEffect(() => {
    if (typeof requestIdleCallback === 'function') {
      const handle = requestIdleCallback(() => setIdle(true), { timeout: 1000 })
      return () => cancelIdleCallback(handle)
    }
    const timer = window.setTimeout(() => setIdle(true), 100)
    return () => window.clearTimeout(timer)
  }, [])
  return idle
}

/** Where the map will be, while its settings or its code load. */
/** The faces the list and the map show: a market's (in some of its cities), or a place's nearest first. */
function facesShown(all: readonly Location[] = [], findBy: FindBy, cities: readonly string[]): readonly Location[] {
  if (findBy === 'place') return [...all].sort((a, b) => (a.distance ?? 0) - (b.distance ?? 0))
  if (cities.length === 0) return all
  const wanted = new Set(cities)
  return all.filter((face) => wanted.has(face.city))
}

function MapPlaceholder() {
  return (
    <div className="flex h-[22rem] items-center justify-center rounded-xl bg-slate-100 sm:h-[30rem] lg:h-[40rem]">
      <Spinner label="Loading the map" />
    </div>
  )
}

interface CityFilterProps {
  cities: readonly string[]
  chosen: readonly string[]
  onChange: (cities: string[]) => void
}

/** The city multi-select of a market: none chosen means every city. */
function CityFilter({ cities, chosen, onChange }: CityFilterProps) {
  const summary = chosen.length === 0 ? 'All cities' : chosen.length === 1 ? chosen[0] : `${chosen.length} cities`
  return (
    <fieldset className="space-y-1.5" disabled={cities.length === 0}>
      <legend className="block text-sm font-medium text-slate-700">Cities</legend>
      <details className="group relative">
        <summary className="field-input cursor-pointer list-none group-has-[:disabled]:cursor-not-allowed">
          {cities.length === 0 ? 'Choose a market first' : summary}
        </summary>
        <div className="absolute z-[1100] mt-1 max-h-64 w-full overflow-auto rounded-lg border border-slate-200 bg-white p-2 shadow-lg">
          {cities.map((city) => (
            <label key={city} className="flex items-center gap-2 rounded px-2 py-1.5 text-sm hover:bg-slate-50">
              <input
                type="checkbox"
                className="h-4 w-4 rounded border-slate-300 text-brand-700"
                checked={chosen.includes(city)}
                onChange={(e) => onChange(e.target.checked ? [...chosen, city] : chosen.filter((c) => c !== city))}
              />
              {city}
            </label>
          ))}
        </div>
      </details>
    </fieldset>
  )
}
