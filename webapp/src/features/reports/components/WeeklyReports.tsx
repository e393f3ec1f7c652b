import { useDispatch } from 'react-redux'
import { Link } from 'react-router'
import { flashShown } from '../../../platform/flash/flash'
import { errorMessage } from '../../../platform/http'
import { formatDisplayDate } from '../../../platform/dates'
import { useReportCampaignsQuery, useSetScheduleMutation } from '../api'

/** Statuses whose campaign still has weeks to come (a weekly report of them makes sense). */
const RUNNING = new Set(['active', 'paused', 'pending'])

/**
 * The weekly reports: per running campaign, a switch; each Monday the report of the week
 * that ended is made and emailed.
 */
export default function WeeklyReports() {
  const campaigns = useReportCampaignsQuery()
  const [setSchedule, saving] = useSetScheduleMutation()
  const dispatch = useDispatch()
  const running = (campaigns.data ?? []).filter((c) => RUNNING.has(c.status) || c.scheduled)
  if (campaigns.isLoading) return null

  const toggle = async (campaignId: string, enabled: boolean) => {
    try {
      const answer = await setSchedule({ campaignId, enabled }).unwrap()
      dispatch(flashShown(answer.message, 'success'))
    } catch (error) {
      dispatch(flashShown(`Sorry! ${errorMessage(error)}`, 'danger'))
    }
  }

  return (
    <section aria-labelledby="weekly-reports" className="card p-4 sm:p-6">
      <h2 id="weekly-reports" className="text-lg font-semibold text-slate-900">
        Weekly reports
      </h2>
      <p className="mt-1 text-sm text-slate-600">
        Every Monday, for each campaign switched on here, we make the PDF report of the week that just ended and email it to you. The company-wide weekly
        digest is another email, set in{' '}
        <Link to="/settings?tab=emails" className="link">
          Settings, Emails
        </Link>
        .
      </p>
      {running.length === 0 && <p className="mt-4 text-sm text-slate-600">None of your campaigns is running: a weekly report can be chosen for a campaign that has weeks to come.</p>}
      <ul className="mt-4 divide-y divide-slate-100">
        {running.map((c) => (
          <li key={c.id} className="flex items-center justify-between gap-4 py-3">
            <div className="min-w-0">
              <p className="truncate font-medium text-slate-900">{c.name}</p>
              <p className="text-sm text-slate-500">
                {formatDisplayDate(c.start_date)} – {formatDisplayDate(c.end_date)}
              </p>
            </div>
            <label className="inline-flex shrink-0 cursor-pointer items-center gap-2 text-sm text-slate-700">
              <input
                type="checkbox"
                role="switch"
                className="h-5 w-5 accent-brand-700"
                checked={c.scheduled}
                disabled={saving.isLoading}
                onChange={(e) => toggle(c.id, e.target.checked)}
                aria-label={`Weekly report of ${c.name}`}
              />
              Weekly report
            </label>
          </li>
        ))}
      </ul>
    </section>
  )
}
