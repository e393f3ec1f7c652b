import type { Location } from '../../../platform/api-types/locations'
import { formatCount, formatDollars } from '../../../platform/money'
import Spinner from '../../../platform/Spinner'
import type { PriceData } from './rules'

function priceText(price: PriceData | undefined): string {
  if (!price) return 'Loading price…'
  if (!price.available) return 'Sold out this week'
  return `${formatDollars(price.price)}/week · ${formatCount(price.impressionsEst)} impressions`
}

export function FaceCard({ face, price, checked, can, onToggle }: { face: Location; price: PriceData | undefined; checked: boolean; can: boolean; onToggle: () => void }) {
  return (
    <div className="space-y-2 text-sm">
      <p className="font-semibold text-slate-900">{face.location_name}</p>
      <p className="text-slate-600">
        {face.face} · {face.city}, {face.market}
      </p>
      <p className="text-slate-700">{priceText(price)}</p>
      <button type="button" className={checked ? 'btn-secondary' : 'btn-primary'} disabled={!checked && !can} onClick={onToggle}>
        {checked ? 'Remove from campaign' : 'Add to campaign'}
      </button>
    </div>
  )
}

export default function FaceList({
  faces,
  loading,
  empty,
  checked,
  priceOf,
  canCheck: allowed,
  onToggle,
  onShow,
  locked,
  likely,
}: {
  locked: boolean
  /** B §3 "likely": shown on a maximum-budget campaign's faces; a budget below the minimum clears it (B §4). */
  likely: (f: Location) => boolean
  faces: readonly Location[]
  loading: boolean
  empty: string
  checked: ReadonlySet<string>
  priceOf: (id: string) => PriceData | undefined
  canCheck: (f: Location) => boolean
  onToggle: (f: Location) => void
  onShow: (f: Location) => void
}) {
  if (loading)
    return (
      <div className="flex h-24 items-center justify-center">
        <Spinner label="Loading faces and prices" />
      </div>
    )
  if (faces.length === 0) return <p className="text-sm text-slate-500">{empty}</p>
  return (
    // A scrolling list must be reachable by keyboard; while the form is disabled (the conflict
    // dialog is open over it) the list does not scroll.
    <ul aria-label="Faces" tabIndex={locked ? undefined : 0} className={`max-h-80 divide-y divide-slate-100 rounded-lg border border-slate-200 lg:max-h-[21rem] ${locked ? 'overflow-hidden' : 'overflow-auto'}`}>
      {faces.map((f) => {
        const isChecked = checked.has(f.id)
        const can = isChecked || allowed(f)
        return (
          <li key={f.id} className="flex items-start gap-2 px-3 py-2">
            <input
              id={`face-${f.id}`}
              type="checkbox"
              className="mt-1"
              checked={isChecked}
              disabled={!can}
              onChange={() => onToggle(f)}
              aria-describedby={`face-${f.id}-price`}
            />
            <div className="min-w-0 flex-1">
              <label htmlFor={`face-${f.id}`} className="block truncate text-sm font-medium text-slate-800">
                {f.location_name}, {f.face}
              </label>
              <p id={`face-${f.id}-price`} className="text-xs text-slate-600">
                {f.city} · {priceText(priceOf(f.id))}
                {likely(f) && <span className="ml-1 rounded bg-emerald-50 px-1.5 py-0.5 font-medium text-emerald-800">Likely to run</span>}
              </p>
            </div>
            <button type="button" className="text-xs text-brand-700 underline" onClick={() => onShow(f)} aria-label={`Show ${f.location_name}, ${f.face} on the map`}>
              Map
            </button>
          </li>
        )
      })}
    </ul>
  )
}
