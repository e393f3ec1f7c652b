import { Link } from 'react-router'
import { formatDollars } from '../../../platform/money'
import { useCompanyPacingQuery } from './pacingApi'
import { finishShort, PACE_LABELS, paceState } from './pacingRules'

/**
 * On /dashboard: each live campaign's spend, projected finish and delivery against plan,
 * from one call. Nothing shows without a live campaign (the counts' empty state speaks then).
 */
export default function DashboardPacing() {
  const pacing = useCompanyPacingQuery()
  const items = pacing.data?.items ?? []
  if (pacing.isError) return <p className="text-sm text-slate-600">We could not load your campaigns’ pacing. Please try again later.</p>
  if (items.length === 0) return null
  return (
    <section aria-labelledby="dashboard-pacing" className="card p-4 sm:p-6">
      <h2 id="dashboard-pacing" className="text-lg font-semibold text-slate-900">
        Pacing
      </h2>
      <ul className="mt-3 divide-y divide-slate-100">
        {items.map((p) => (
          <li key={p.campaign_id} className="flex flex-col gap-1 py-3 sm:flex-row sm:items-center sm:justify-between sm:gap-4">
            <Link to={`/campaigns/${encodeURIComponent(p.campaign_id)}`} className="font-medium text-brand-700 hover:underline">
              {p.name}
            </Link>
            <span className="flex flex-wrap gap-x-4 gap-y-1 text-sm text-slate-700 tabular-nums">
              <span>
                {formatDollars(p.spent)} of {formatDollars(p.committed)} spent
              </span>
              <span>Finish: {finishShort(p)}</span>
              <span>
                {PACE_LABELS[paceState(p.pace_percent)]}
                {p.pace_percent !== null && p.pace_percent !== undefined ? ` (${p.pace_percent}%)` : ''}
              </span>
            </span>
          </li>
        ))}
      </ul>
    </section>
  )
}
