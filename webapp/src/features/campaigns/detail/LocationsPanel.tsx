import { useMemo, useState } from 'react'
import type { CampaignLocation, MakeGood } from '../../../platform/api-types/campaigns'
import FaceMap from '../../../platform/map/Map'
import { faceDescription, facesView } from '../../../platform/map/viewRules'
import { useMapTiles } from '../../locations/shared/api'
import { formatCredit } from './deliveryRules'
import { creativeImageUrl, faceMakeGoods } from './detailRules'


export interface LocationsPanelProps {
  locations: readonly CampaignLocation[]
  /** The campaign's make-goods: a face that earned some is marked with them. */
  makeGoods?: readonly MakeGood[]
  /** Opens the creative selector for one location, or every location (null). */
  onChangeCreative?: (location: CampaignLocation | null) => void
}

/** B §2: the campaign's faces on the map (detail mode) and the creative each one shows. */
export default function LocationsPanel({ locations, makeGoods = [], onChangeCreative }: LocationsPanelProps) {
  const tiles = useMapTiles()
  const [selectedId, setSelectedId] = useState<string | number | null>(null)
  const view = useMemo(() => facesView(locations), [locations])

  return (
    <div className="grid grid-cols-1 gap-4 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
      <div>
        {tiles ? (
          <FaceMap
            faces={locations}
            mode="detail"
            label="Map of the campaign's billboards"
            tileUrl={tiles.tile_url}
            attribution={tiles.attribution}
            view={view}
            selectedId={selectedId}
            onSelect={setSelectedId}
            renderInfo={(face) => (
              <div className="space-y-1 text-sm">
                <p className="font-semibold text-slate-900">{face.location_name}</p>
                <p className="text-slate-600">
                  {face.face} · {[face.city, face.market].filter(Boolean).join(', ')}
                </p>
                {face.creativeUrl && <img src={creativeImageUrl(face.creativeUrl)} alt="" className="mt-1 aspect-[7/2] w-48 rounded bg-slate-100 object-contain" />}
              </div>
            )}
            className="h-80 lg:h-96"
          />
        ) : (
          <div className="h-80 animate-pulse rounded-xl bg-slate-100 lg:h-96" aria-hidden="true" />
        )}
      </div>
      <div className="space-y-3">
        <div className="flex items-center justify-between gap-2">
          <h3 className="font-semibold text-slate-900">Creative per location</h3>
          {onChangeCreative && locations.length > 1 && (
            <button type="button" className="btn-secondary text-sm" onClick={() => onChangeCreative(null)}>
              Change for all
            </button>
          )}
        </div>
        <ul className="max-h-96 space-y-2 overflow-y-auto pr-1" aria-label="Locations">
          {locations.map((loc) => {
            const earned = faceMakeGoods(makeGoods, loc)
            return (
              <li key={loc.id} className={`flex items-start gap-3 rounded-xl border p-2 ${selectedId === loc.id ? 'border-brand-600 bg-brand-50' : 'border-slate-200 bg-white'}`}>
                {loc.creativeUrl ? (
                  <img src={creativeImageUrl(loc.creativeUrl)} alt={`Creative at ${loc.location_name}`} className="h-10 w-20 shrink-0 rounded bg-slate-100 object-contain sm:w-28" />
                ) : (
                  <span className="flex h-10 w-20 shrink-0 items-center justify-center rounded bg-slate-100 text-xs text-slate-700 sm:w-28">No creative</span>
                )}
                {/* The whole name wraps (it was cut at about 12 characters on a phone);
                    the face is always shown: the two faces of one sign share a name. */}
                <button type="button" className="min-w-0 flex-1 text-left" title={faceDescription(loc)} onClick={() => setSelectedId(loc.id)}>
                  <span className="block text-sm font-medium break-words text-slate-900">{loc.location_name}</span>
                  <span className="block text-xs break-words text-slate-600">
                    <span className="font-medium text-slate-700">{loc.face}</span> · {[loc.city, loc.market].filter(Boolean).join(', ')}
                  </span>
                  {earned.count > 0 && (
                    <span className="mt-1 flex w-fit items-center gap-1 rounded-full bg-amber-100 px-2 py-0.5 text-xs font-semibold text-amber-900">
                      <span aria-hidden="true">⚑</span>
                      {earned.count === 1 ? '1 make-good' : `${earned.count} make-goods`}: {formatCredit(earned.credit)} credit
                    </span>
                  )}
                </button>
                {onChangeCreative && (
                  <button type="button" className="btn-ghost shrink-0 text-sm" aria-label={`Change creative at ${loc.location_name}, ${loc.face}`} onClick={() => onChangeCreative(loc)}>
                    Change
                  </button>
                )}
              </li>
            )
          })}
        </ul>
      </div>
    </div>
  )
}
