import type { AvailableSpot, Location } from '../../../platform/api-types/locations'
import { formatDisplayDate } from '../../../platform/dates'
import { formatCount, formatDollars } from '../../../platform/money'
import { adDisplayText, weeklyTerms } from '../format'

export interface FaceInfoProps {
  face: Location
  /** The chosen week's spot of this face; undefined while it loads or when it is not known. */
  spot: AvailableSpot | undefined
  /** The chosen week (a Monday, YYYY-MM-DD), or null when the week field is not valid. */
  week: string | null
  /** Whether the week's availability is still loading. */
  loading: boolean
  /** The other faces of a double-faced sign (B §3). */
  others: Location[]
  onShowFace?: (id: string) => void
}

/**
 * A face's info window (A §2 Map): name, face, city, market, weekly price, estimated weekly
 * impressions, availability for the chosen week, the snapshot and the ad display text of A §9.
 */
export default function FaceInfo({ face, spot, week, loading, others, onShowFace }: FaceInfoProps) {
  const { price, impressions } = weeklyTerms(face, spot)
  const snapshot = face.new_location_snapshot || face.location_snapshot
  const weekText = week ? `the week of ${formatDisplayDate(week)}` : 'the chosen week'
  const availability = !week
    ? 'Choose a Monday to see availability'
    : loading
      ? 'Checking availability…'
      : !spot
        ? `Availability for ${weekText} is not known`
        : spot.available
          ? `Available for ${weekText}`
          : `Sold out for ${weekText}`
  return (
    <article aria-label={`${face.location_name}, ${face.face}`} className="w-64 space-y-2 text-sm text-slate-700">
      {snapshot && <img src={snapshot} alt={`Photo of ${face.location_name}`} className="h-28 w-full rounded-md bg-slate-100 object-cover" />}
      <h3 className="text-base font-semibold leading-snug text-slate-900">{face.location_name}</h3>
      <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-0.5">
        <dt className="text-slate-500">Face</dt>
        <dd>{face.face}</dd>
        <dt className="text-slate-500">City</dt>
        <dd>{face.city}</dd>
        <dt className="text-slate-500">Market</dt>
        <dd>{face.market}</dd>
        <dt className="text-slate-500">Weekly price</dt>
        <dd className="font-semibold text-slate-900">{formatDollars(price)}</dd>
        <dt className="text-slate-500">Est. weekly impressions</dt>
        <dd>{formatCount(impressions)}</dd>
      </dl>
      <p
        data-testid="face-availability"
        className={`rounded-md px-2 py-1 font-medium ${spot && week && !loading ? (spot.available ? 'bg-emerald-50 text-emerald-800' : 'bg-red-50 text-red-800') : 'bg-slate-50 text-slate-600'}`}
      >
        {availability}
      </p>
      <p data-testid="face-display-text" className="leading-snug">
        {adDisplayText(face.location)}
      </p>
      {others.length > 0 && (
        <p className="text-slate-600">
          Double-faced sign: the other side is{' '}
          {others.map((other, i) => (
            <span key={other.id}>
              {i > 0 && ', '}
              {onShowFace ? (
                <button type="button" className="link" onClick={() => onShowFace(other.id)}>
                  {other.face}
                </button>
              ) : (
                other.face
              )}
            </span>
          ))}
          .
        </p>
      )}
    </article>
  )
}
