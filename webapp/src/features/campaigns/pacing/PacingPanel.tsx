import { Link } from 'react-router'
import { formatDollars } from '../../../platform/money'
import Spinner from '../../../platform/Spinner'
import { useCampaignPacingQuery } from './pacingApi'
import { finishText, PACE_LABELS, paceState, paceText, renewPath, spentPercent, type PaceState } from './pacingRules'

const PACE_TONES: Record<PaceState, string> = {
  none: 'bg-slate-100 text-slate-700',
  on: 'bg-emerald-50 text-emerald-800',
  slightly: 'bg-amber-50 text-amber-800',
  behind: 'bg-red-50 text-red-800',
}

/**
 * On /campaigns/{id}: spent to date, committed, remaining, the projected finish and the
 * delivery against plan, with the renew link of a finite campaign.
 */
export default function PacingPanel({ campaignId }: { campaignId: string }) {
  const pacing = useCampaignPacingQuery(campaignId)
  const p = pacing.data
  return (
    <section aria-labelledby="section-pacing" className="card space-y-4 p-4 sm:p-6" data-testid="pacing-panel">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="section-pacing" className="text-lg font-semibold text-slate-900">
          Pacing
        </h2>
        {p?.renewable && (
          <Link to={renewPath(campaignId)} className="btn-secondary">
            Renew this campaign
          </Link>
        )}
      </div>
      {pacing.isLoading && <Spinner label="Loading the pacing" />}
      {pacing.isError && <p className="text-sm text-slate-600">We could not load the pacing of this campaign. Please try again later.</p>}
      {p && (
        <>
          <dl className="grid grid-cols-1 gap-3 sm:grid-cols-3">
            <Figure label="Spent to date" value={formatDollars(p.spent)} />
            <Figure label="Committed" value={formatDollars(p.committed)} />
            <Figure label="Remaining" value={formatDollars(p.remaining)} />
          </dl>
          <div>
            <div className="h-2 w-full overflow-hidden rounded-full bg-slate-100" role="progressbar" aria-label="Share of the committed budget spent" aria-valuemin={0} aria-valuemax={100} aria-valuenow={spentPercent(p)}>
              <div className="h-full rounded-full bg-brand-700" style={{ width: `${spentPercent(p)}%` }} />
            </div>
          </div>
          <p className="text-sm text-slate-700" data-testid="pacing-finish">
            <span className="font-medium text-slate-900">Projected finish: </span>
            {finishText(p)}
          </p>
          <div className="flex flex-col gap-2 sm:flex-row sm:items-center">
            <span className={`inline-flex w-fit rounded-full px-3 py-1 text-sm font-medium ${PACE_TONES[paceState(p.pace_percent)]}`} data-testid="pacing-state">
              {PACE_LABELS[paceState(p.pace_percent)]}
            </span>
            <span className="text-sm text-slate-700" data-testid="pacing-delivery">
              {paceText(p)}
            </span>
          </div>
        </>
      )}
    </section>
  )
}

function Figure({ label, value }: { label: string; value: string }) {
  return (
    <div className="rounded-lg border border-slate-200 px-4 py-3">
      <dt className="text-xs font-medium tracking-wide text-slate-500 uppercase">{label}</dt>
      <dd className="mt-1 text-lg font-semibold text-slate-900 tabular-nums">{value}</dd>
    </div>
  )
}
