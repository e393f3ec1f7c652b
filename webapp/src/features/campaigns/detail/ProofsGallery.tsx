import type { WeekCreative } from '../../../platform/api-types/campaigns'
import { formatDisplayDate } from '../../../platform/dates'

/** B §2: proofs of play (creative type 'Proof'), as thumbnails that open the full photo. */
export default function ProofsGallery({ proofs }: { proofs: readonly WeekCreative[] }) {
  if (proofs.length === 0) {
    return <p className="text-sm text-slate-600">Photos of your ads on the billboards appear here once the weeks have run.</p>
  }
  return (
    <ul className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-4" aria-label="Proofs">
      {proofs.map((proof, i) => (
        <li key={proof.id}>
          <a href={proof.url} target="_blank" rel="noreferrer" className="group block overflow-hidden rounded-xl border border-slate-200 bg-white hover:border-brand-600">
            <img
              src={proof.converted_thumb || proof.url}
              alt={`Proof ${i + 1}${proof.created_at ? `, ${formatDisplayDate(proof.created_at)}` : ''}`}
              className="aspect-[4/3] w-full bg-slate-100 object-cover"
              loading="lazy"
            />
          </a>
        </li>
      ))}
    </ul>
  )
}
