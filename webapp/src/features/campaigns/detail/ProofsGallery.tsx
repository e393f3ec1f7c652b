import type { Proof } from '../../../platform/api-types/campaigns'
import { formatDisplayDate } from '../../../platform/dates'
import { weekRange } from './detailRules'
import VerificationCodes from './VerificationCodes'

/** The face and the week a proof shows, e.g. 'Bay Bridge West, North Face · Nov 02, 2026 – Nov 08, 2026'. */
export function proofCaption(proof: Proof): string {
  const face = [proof.location_name, proof.face].filter(Boolean).join(', ')
  const week = proof.start_at ? weekRange(proof) : ''
  return [face, week].filter(Boolean).join(' · ')
}

/**
 * B §2: proofs of play (creative type 'Proof'), as thumbnails that open the full photo, each
 * captioned with the face and the week it shows.
 */
export default function ProofsGallery({ proofs, campaignId }: { proofs: readonly Proof[]; campaignId?: string }) {
  // The signed records' verification codes, under the photos.
  const codes = campaignId ? <VerificationCodes campaignId={campaignId} /> : null
  if (proofs.length === 0) {
    return (
      <>
        <p className="text-sm text-slate-600">Photos of your ads on the billboards appear here once the weeks have run.</p>
        {codes}
      </>
    )
  }
  return (
    <>
      <ul className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-4" aria-label="Proofs">
        {proofs.map((proof, i) => {
          const caption = proofCaption(proof)
          return (
            <li key={proof.id}>
              <figure className="overflow-hidden rounded-xl border border-slate-200 bg-white hover:border-brand-600">
                <a href={proof.url} target="_blank" rel="noreferrer" className="block">
                  <img
                    src={proof.converted_thumb || proof.url}
                    alt={`Proof ${i + 1}${caption ? `: ${caption}` : ''}${proof.created_at ? `, ${formatDisplayDate(proof.created_at)}` : ''}`}
                    className="aspect-[4/3] w-full bg-slate-100 object-cover"
                    loading="lazy"
                  />
                </a>
                {caption && (
                  <figcaption className="px-2 py-1.5 text-xs text-slate-600">
                    <span className="block font-medium text-slate-800">{[proof.location_name, proof.face].filter(Boolean).join(', ')}</span>
                    {proof.start_at && <span className="block">{weekRange(proof)}</span>}
                  </figcaption>
                )}
              </figure>
            </li>
          )
        })}
      </ul>
      {codes}
    </>
  )
}
