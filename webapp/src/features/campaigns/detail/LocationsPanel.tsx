import { useMemo, useState } from 'react'
import type { CampaignLocation } from '../../../platform/api-types/campaigns'
import FaceMap from '../../../platform/map/Map'
import { faceDescription, facesView } from '../../../platform/map/viewRules'
import { useMapTiles } from '../../../platform/map/api'
import { creativeImageUrl } from './detailRules'


export interface LocationsPanelProps {
  locations: readonly CampaignLocation[]
  /** Opens the creative selector for one location, or every location (null). */
  onChangeCreative?: (location: CampaignLocation | null) => void
}

/** B §2: the campaign's faces on the map (detail mode) and the creative each one shows. */
export default function LocationsPanel({ locations, onChangeCreative }: LocationsPanelProps) {
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
          {locations.map((loc) => (
            <li key={loc.id} className={`flex items-center gap-3 rounded-xl border p-2 ${selectedId === loc.id ? 'border-brand-600 bg-brand-50' : 'border-slate-200 bg-white'}`}>
              {loc.creativeUrl ? (
                <img src={creativeImageUrl(loc.creativeUrl)} alt={`Creative at ${loc.location_name}`} className="h-10 w-28 shrink-0 rounded bg-slate-100 object-contain" />
              ) : (
                <span className="flex h-10 w-28 shrink-0 items-center justify-center rounded bg-slate-100 text-xs text-slate-700">No creative</span>
              )}
              {/* The full name and the face in a tooltip, and the face never truncated: the two
                  faces of one sign share a name. */}
              <button type="button" className="min-w-0 flex-1 text-left" title={faceDescription(loc)} onClick={() => setSelectedId(loc.id)}>
                <span className="block truncate text-sm font-medium text-slate-900">{loc.location_name}</span>
                <span className="flex min-w-0 gap-1 text-xs text-slate-600">
                  <span className="shrink-0 font-medium text-slate-700">{loc.face}</span>
                  <span className="truncate">· {[loc.city, loc.market].filter(Boolean).join(', ')}</span>
                </span>
              </button>
              {onChangeCreative && (
                <button type="button" className="btn-ghost shrink-0 text-sm" aria-label={`Change creative at ${loc.location_name}, ${loc.face}`} onClick={() => onChangeCreative(loc)}>
                  Change
                </button>
              )}
            </li>
          ))}
        </ul>
      </div>
    </div>
  )
}
