import { Link } from 'react-router'
import { formatDisplayDate } from '../../../platform/dates'
import { formatCount } from '../../../platform/money'
import { useProofCodesQuery } from './proofCodesApi'

/**
 * Each week and face's verification code, the current record of its signed proof of
 * play. Anyone given a code checks it at /verify/{code} without signing in.
 */
export default function VerificationCodes({ campaignId }: { campaignId: string }) {
  const { data } = useProofCodesQuery(campaignId)
  const weeks = data?.weeks ?? []
  if (weeks.length === 0) {
    return <p className="mt-4 text-sm text-slate-600">Verification codes appear here once a week's delivery or proof photos are recorded.</p>
  }
  return (
    <div className="mt-6">
      <h3 className="text-sm font-semibold text-slate-900">Verification codes</h3>
      <p className="text-sm text-slate-600">Each code proves a week's delivery and photos, signed by Marquee. Share it with anyone who needs to check.</p>
      <ul aria-label="Verification codes" className="mt-2 divide-y divide-slate-200 rounded-xl border border-slate-200 bg-white text-sm">
        {weeks.map((w) => (
          <li key={w.week_id} className="flex flex-wrap items-center justify-between gap-2 px-3 py-2">
            <span className="text-slate-700">
              Week of {formatDisplayDate(w.week)}
              {w.location && ` · ${w.location}`}
              {w.impressions != null && ` · ${formatCount(w.impressions)} impressions`}
              {w.signed_by_screen ? ' · signed by its screen' : w.records > 1 && ' · corrected'}
            </span>
            <Link to={`/verify/${w.code}`} className="font-mono font-semibold text-brand-700 underline" aria-label={`Verify code ${w.code}`}>
              {w.code}
            </Link>
          </li>
        ))}
      </ul>
    </div>
  )
}
