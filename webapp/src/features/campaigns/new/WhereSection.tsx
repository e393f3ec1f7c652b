import type { Dispatch } from 'react'
import { StrategyMarket, StrategyRadius } from '../../../platform/api-types/campaigns'
import type { Location, MapConfig, Market, PlacePrediction } from '../../../platform/api-types/locations'
import FaceMap from '../../../platform/map/Map'
import { facesView, RADIUS_OPTIONS } from '../../../platform/map/viewRules'
import Spinner from '../../../platform/Spinner'
import PlaceSearch from '../../locations/shared/PlaceSearch'
import { Chip, Choice } from './controls'
import FaceList, { FaceCard } from './FaceList'
import type { FormAction, FormState, PendingToggle } from './formState'
import type { PriceData } from './rules'

/** Where the campaign runs: the strategy, the markets and cities or a place and radius, the map and the list of faces. */
export default function WhereSection({
  state: { fields, ui },
  dispatch,
  locked,
  onToggle,
  markets,
  marketsLoading,
  marketRows,
  marketCities,
  loadedFaces,
  tiles,
  faces,
  facesChosen,
  loadingFaces,
  checkedSet,
  onlyChecked,
  priceOf,
  canCheck,
  onToggleFace,
  onPickPlace,
  likely,
}: {
  state: FormState
  dispatch: Dispatch<FormAction>
  locked: boolean
  onToggle: (toggle: PendingToggle) => void
  markets: readonly Market[] | undefined
  marketsLoading: boolean
  /** The chosen markets' rows and their cities. */
  marketRows: readonly Market[]
  marketCities: readonly string[]
  /** Every face loaded for the chosen markets or place (before the city filter). */
  loadedFaces: readonly Location[]
  tiles: MapConfig | null
  /** The faces shown on the map and in the list. */
  faces: Location[]
  /** A market or a place is chosen, so faces are asked for. */
  facesChosen: boolean
  loadingFaces: boolean
  checkedSet: ReadonlySet<string>
  onlyChecked: boolean
  priceOf: (id: string) => PriceData | undefined
  canCheck: (face: Location) => boolean
  onToggleFace: (face: Location) => void
  onPickPlace: (prediction: PlacePrediction) => void
  likely: (face: Location) => boolean
}) {
  const { strategy, markets: chosenMarkets, cities, place, radius, checked } = fields

  const toggleMarket = (market: string) => {
    const next = chosenMarkets.includes(market) ? chosenMarkets.filter((x) => x !== market) : [...chosenMarkets, market]
    const kept = new Set(next)
    // A face or a city of a market taken away goes with it.
    dispatch({
      type: 'marketsChosen',
      markets: next,
      cities: cities.filter((city) => (markets ?? []).some((row) => kept.has(row.market) && row.cities?.includes(city))),
      checked: checked.filter((id) => kept.has(loadedFaces.find((f) => f.id === id)?.market ?? '')),
    })
  }

  return (
    <section className="card space-y-4 p-4 sm:p-6" aria-labelledby="where-title">
      <h2 id="where-title" className="text-lg font-semibold text-slate-900">
        Where
      </h2>
      <fieldset data-tour="strategy">
        <legend className="text-sm font-medium text-slate-700">Strategy</legend>
        <div className="mt-2 flex flex-wrap gap-2">
          <Choice name="strategy" label="DMA market" checked={strategy === StrategyMarket} onChange={() => onToggle({ kind: 'strategy', value: StrategyMarket })} />
          <Choice name="strategy" label="Radius around an address" checked={strategy === StrategyRadius} onChange={() => onToggle({ kind: 'strategy', value: StrategyRadius })} />
        </div>
      </fieldset>
      {strategy === StrategyMarket ? (
        <div className="grid gap-4 md:grid-cols-2">
          <fieldset data-tour="market" className="min-w-0">
            <legend className="text-sm font-medium text-slate-700">Markets {chosenMarkets.length > 0 ? `(${chosenMarkets.length})` : ''}</legend>
            {/* While the form is locked its checkboxes cannot take the focus, so the list does not scroll (axe: a scrolling region needs something focusable). */}
            <div className={`mt-1.5 flex max-h-32 flex-wrap gap-1.5 ${locked ? 'overflow-hidden' : 'overflow-auto'}`}>
              {markets?.map((m) => <Chip key={m.id} label={m.market} checked={chosenMarkets.includes(m.market)} onChange={() => toggleMarket(m.market)} />)}
              {marketsLoading && <Spinner label="Loading markets" />}
            </div>
          </fieldset>
          <fieldset data-tour="cities" className="min-w-0">
            <legend className="text-sm font-medium text-slate-700">Cities {cities.length > 0 ? `(${cities.length})` : '(all)'}</legend>
            {/* While the form is locked its checkboxes cannot take the focus, so the list does not scroll (axe: a scrolling region needs something focusable). */}
            <div className={`mt-1.5 flex max-h-32 flex-wrap gap-1.5 ${locked ? 'overflow-hidden' : 'overflow-auto'}`}>
              {marketCities.map((city) => (
                <Chip key={city} label={city} checked={cities.includes(city)} onChange={() => dispatch({ type: 'cityToggled', city })} />
              ))}
              {marketRows.length === 0 && <p className="text-sm text-slate-500">Choose a market to filter by city.</p>}
            </div>
          </fieldset>
        </div>
      ) : (
        <div className="grid gap-4 md:grid-cols-[minmax(0,1fr)_12rem]" data-tour="market">
          <PlaceSearch id="campaign-place" label="Address or place" initial={place?.name} onPick={onPickPlace} error={ui.errors.place} disabled={locked} />
          <div className="space-y-1.5" data-tour="cities">
            <label htmlFor="campaign-radius" className="block text-sm font-medium text-slate-700">
              Radius
            </label>
            <select id="campaign-radius" className="field-input" value={radius} onChange={(e) => dispatch({ type: 'radiusChanged', radius: Number(e.target.value) })}>
              {RADIUS_OPTIONS.map((r) => (
                <option key={r} value={r}>
                  {r} miles
                </option>
              ))}
            </select>
          </div>
        </div>
      )}

      <div className="grid gap-4 lg:grid-cols-[minmax(0,1fr)_20rem]">
        <div data-tour="map" className="min-w-0">
          {tiles ? (
            <FaceMap<Location>
              faces={faces}
              mode="creation"
              label="Map of the faces you can choose"
              tileUrl={tiles.tile_url}
              attribution={tiles.attribution}
              view={ui.view}
              circle={strategy === StrategyRadius && place?.center ? { center: place.center, miles: radius } : null}
              selectedId={ui.selectedId}
              onSelect={(id) => dispatch({ type: 'shown', ui: { selectedId: id === null ? null : String(id) } })}
              checked={checkedSet}
              showOnlyChecked={onlyChecked}
              isDisabled={(f) => !checkedSet.has(f.id) && !canCheck(f)}
              renderInfo={(face) => <FaceCard face={face} price={priceOf(face.id)} checked={checkedSet.has(face.id)} can={canCheck(face)} onToggle={() => onToggleFace(face)} />}
              className="h-80 sm:h-96"
            />
          ) : (
            <div className="flex h-80 items-center justify-center rounded-xl bg-slate-100">
              <Spinner label="Loading the map" />
            </div>
          )}
        </div>
        <div className="min-w-0 space-y-2" data-field="locations">
          <div className="flex items-center justify-between gap-2">
            <h3 className="text-sm font-semibold text-slate-900">
              Locations <span className="font-normal text-slate-500">({checked.length} chosen)</span>
            </h3>
            <label className="flex items-center gap-1.5 text-xs text-slate-700">
              <input type="checkbox" checked={onlyChecked} disabled={checked.length === 0} onChange={(e) => dispatch({ type: 'shown', ui: { wantOnlyChecked: e.target.checked } })} />
              Show only checked
            </label>
          </div>
          {ui.errors.locations && (
            <p role="alert" className="text-sm text-red-600">
              {ui.errors.locations}
            </p>
          )}
          <FaceList
            faces={onlyChecked ? faces.filter((f) => checkedSet.has(f.id)) : faces}
            loading={loadingFaces}
            empty={!facesChosen ? (strategy === StrategyMarket ? 'Choose a market to see its faces.' : 'Search a place to see the faces around it.') : 'No faces here — try other cities or a larger radius.'}
            checked={checkedSet}
            priceOf={priceOf}
            canCheck={canCheck}
            onToggle={onToggleFace}
            likely={likely}
            onShow={(f) => dispatch({ type: 'shown', ui: { selectedId: f.id, view: facesView([f]) } })}
            locked={locked}
          />
        </div>
      </div>
    </section>
  )
}
