import { useId, useMemo, useState } from 'react'
import type { Location } from '../../../platform/api-types/locations'
import Spinner from '../../../platform/Spinner'
import { useMarketsQuery } from '../../locations/shared/api'
import { useFacesWithGeometryQuery } from '../../locations/shared/faceGeometryApi'
import { REFERENCE_FACE, type PreflightFace } from '../shared/preflight'
import { useCampaignFacesQuery } from './builderFacesApi'

/** The face the builder checks against, with the words that name it. */
export interface CheckedFace {
  face: PreflightFace
  label: string
}

export const REFERENCE_CHECKED: CheckedFace = { face: REFERENCE_FACE, label: 'a standard face' }

/** The market select's value for the faces of the user's campaigns. */
const CAMPAIGN_FACES = '__campaigns__'

const CLASS_WORDS: Record<string, string> = { freeway: 'freeway', arterial: 'arterial road', street: 'street' }

/** A face of the map as the checks need it; null for one without geometry. */
export function checkedFaceOf(l: Location): CheckedFace | null {
  const g = l.geometry
  if (!g || !(g.width_ft > 0) || !(g.pixel_width > 0) || !(g.viewing_distance_ft > 0)) return null
  return {
    face: {
      id: l.id,
      width_ft: g.width_ft,
      height_ft: g.height_ft,
      pixel_width: g.pixel_width,
      pixel_height: g.pixel_height,
      distance_class: g.distance_class,
      viewing_distance_ft: g.viewing_distance_ft,
    },
    label: `${l.location_name}, ${l.face}`,
  }
}

/** The words of a face's option: its name, size and road. */
export function faceOptionLabel(c: CheckedFace): string {
  const f = c.face
  return `${c.label} (${f.width_ft} x ${f.height_ft} ft, ${CLASS_WORDS[f.distance_class] ?? f.distance_class})`
}

/** The faces whose name holds every word of the filter, in name order. */
export function filterFaces(faces: readonly CheckedFace[], filter: string): CheckedFace[] {
  const words = filter.toLowerCase().split(/\s+/).filter(Boolean)
  return faces.filter((c) => words.every((w) => c.label.toLowerCase().includes(w))).sort((a, b) => a.label.localeCompare(b.label))
}

/**
 * Issue 29: the builder checks its design against a face the user picks: the standard face by
 * default, a face of the user's campaigns, or any face of a market, found by name. The checks run in the browser on the face's
 * geometry (its size, pixels and viewing distance), as the server's do.
 */
export default function BuilderFacePicker({ value, onChange }: { value: CheckedFace; onChange: (c: CheckedFace) => void }) {
  const id = useId()
  const markets = useMarketsQuery()
  const [market, setMarket] = useState('')
  const [filter, setFilter] = useState('')
  const campaignFaces = useCampaignFacesQuery()
  const marketFaces = useFacesWithGeometryQuery([market], { skip: !market || market === CAMPAIGN_FACES })
  const faces = market === CAMPAIGN_FACES ? campaignFaces : marketFaces
  const ownCount = campaignFaces.data?.length ?? 0
  const all = useMemo(() => (faces.data ?? []).map(checkedFaceOf).filter((c): c is CheckedFace => c !== null), [faces.data])
  const f = value.face
  // The chosen face stays listed whatever the filter, so the list never shows another choice.
  const shown = useMemo(() => {
    const found = filterFaces(all, filter)
    const chosen = all.find((c) => c.face.id === f.id)
    return chosen && !found.includes(chosen) ? [chosen, ...found] : found
  }, [all, filter, f.id])

  return (
    <fieldset className="space-y-2 rounded-lg border border-slate-200 p-3">
      <legend className="px-1 text-xs font-semibold text-slate-900">Check against</legend>
      <div className="grid gap-2">
        <div>
          <label className="block text-xs font-medium text-slate-700" htmlFor={`${id}-market`}>
            Market
          </label>
          <select
            id={`${id}-market`}
            className="field-input mt-0.5"
            value={market}
            onChange={(e) => {
              setMarket(e.target.value)
              setFilter('')
              // Another market: back to the standard face until one of its faces is chosen.
              onChange(REFERENCE_CHECKED)
            }}
          >
            <option value="">Standard face</option>
            {ownCount > 0 && <option value={CAMPAIGN_FACES}>Faces of your campaigns ({ownCount})</option>}
            {(markets.data ?? []).map((m) => (
              <option key={m.id} value={m.market}>
                {m.market}
              </option>
            ))}
          </select>
        </div>
        {market && (
          <div>
            <label className="block text-xs font-medium text-slate-700" htmlFor={`${id}-filter`}>
              Find a face by name
            </label>
            <input id={`${id}-filter`} type="search" className="field-input mt-0.5" value={filter} onChange={(e) => setFilter(e.target.value)} autoComplete="off" />
          </div>
        )}
      </div>
      {market &&
        (faces.isLoading ? (
          <Spinner label="Loading the faces" />
        ) : faces.isError ? (
          <p className="text-xs text-red-700">The faces could not be loaded. The checks use the standard face.</p>
        ) : (
          <div>
            <label className="block text-xs font-medium text-slate-700" htmlFor={`${id}-face`}>
              Face
            </label>
            <select
              id={`${id}-face`}
              aria-describedby={`${id}-count`}
              className="field-input mt-0.5"
              value={f.id}
              onChange={(e) => onChange(all.find((c) => c.face.id === e.target.value) ?? REFERENCE_CHECKED)}
            >
              <option value="">Standard face</option>
              {shown.map((c) => (
                <option key={c.face.id} value={c.face.id}>
                  {faceOptionLabel(c)}
                </option>
              ))}
            </select>
            <p id={`${id}-count`} className="mt-0.5 text-xs text-slate-600">
              {shown.length} of {all.length} faces listed
            </p>
          </div>
        ))}
      <p className="text-xs text-slate-600" data-testid="preflight-face">
        Judged on {value.label}: {f.width_ft} x {f.height_ft} ft, {f.pixel_width} x {f.pixel_height} px, read from {f.viewing_distance_ft} ft. Your campaign checks it again on the faces you choose.
      </p>
    </fieldset>
  )
}
