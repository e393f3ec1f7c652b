import { useEffect, useMemo, useRef, useState, type FormEvent } from 'react'
import { Link, useNavigate } from 'react-router'
import Alert from '../../../platform/Alert'
import { MaxNameLen, MsgCreated, MsgNoCampaigns, MsgWeeksRequired } from '../../../platform/api-types/reports'
import { carryFlash, FLASH_MEDIUM_MS } from '../../../platform/flash/flash'
import { errorMessage } from '../../../platform/http'
import { formatCount } from '../../../platform/money'
import Spinner from '../../../platform/Spinner'
import { useCreateReportMutation, useReportCampaignsQuery, useReportWeeksQuery } from '../api'
import { chosenWeekIds, weekLabel } from '../rules'

/**
 * B §2 /reports/new (and /report/new): pick one of the company's campaigns, then any of its finished
 * weeks (B §4: end date in the past). Without campaigns, back to /reports with the B §8 message.
 * Generating shows its progress, then the list says 'Your report has been created successfully!'.
 */
export default function NewReport() {
  const navigate = useNavigate()
  const campaigns = useReportCampaignsQuery()
  const [campaignId, setCampaignId] = useState('')
  const weeks = useReportWeeksQuery(campaignId, { skip: !campaignId })
  const [chosen, setChosen] = useState<Set<string>>(new Set())
  const [name, setName] = useState('')
  const [error, setError] = useState<string | null>(null)
  const [create, creating] = useCreateReportMutation()
  const errorRef = useRef<HTMLDivElement>(null)

  // B §2: no campaign, no report: back to the list with the message.
  useEffect(() => {
    if (campaigns.data && campaigns.data.length === 0) {
      carryFlash(MsgNoCampaigns, 'danger', FLASH_MEDIUM_MS)
      navigate('/reports', { replace: true })
    }
  }, [campaigns.data, navigate])

  const finished = useMemo(() => weeks.data ?? [], [weeks.data])
  // Another campaign starts with no week chosen (state adjusted while rendering).
  const [chosenFor, setChosenFor] = useState(campaignId)
  if (campaignId !== chosenFor) {
    setChosenFor(campaignId)
    setChosen(new Set())
  }
  useEffect(() => {
    if (error) errorRef.current?.focus()
  }, [error])

  const toggle = (start: string) =>
    setChosen((prev) => {
      const next = new Set(prev)
      if (next.has(start)) next.delete(start)
      else next.add(start)
      return next
    })
  const allChosen = finished.length > 0 && chosen.size === finished.length

  const submit = async (e: FormEvent) => {
    e.preventDefault()
    setError(null)
    const ids = chosenWeekIds(finished, chosen)
    if (!campaignId || ids.length === 0) {
      setError(campaignId ? MsgWeeksRequired : 'Please choose a campaign.')
      return
    }
    try {
      await create({ campaign_id: campaignId, week_ids: ids, name: name.trim() }).unwrap()
      carryFlash(MsgCreated, 'success', FLASH_MEDIUM_MS)
      navigate('/reports')
    } catch (err) {
      setError(errorMessage(err))
    }
  }

  if (campaigns.isLoading || (campaigns.data && campaigns.data.length === 0)) {
    return (
      <div className="flex justify-center py-16">
        <Spinner label="Loading your campaigns" />
      </div>
    )
  }

  return (
    <div className="mx-auto max-w-3xl space-y-6">
      <div>
        <h1 className="text-2xl font-semibold text-slate-900 sm:text-3xl">New report</h1>
        <p className="mt-1 text-slate-600">Choose a campaign and the weeks to report on. Only weeks that have ended can be reported.</p>
      </div>
      {campaigns.isError && <Alert>{`Sorry! ${errorMessage(campaigns.error)}`}</Alert>}
      <form className="card space-y-6 p-4 sm:p-6" onSubmit={submit} noValidate aria-busy={creating.isLoading}>
        <div className="space-y-1.5">
          <label htmlFor="report-campaign" className="block text-sm font-medium text-slate-700">
            Campaign
          </label>
          <select id="report-campaign" className="field-input" value={campaignId} onChange={(e) => setCampaignId(e.target.value)} disabled={creating.isLoading}>
            <option value="">Choose a campaign</option>
            {(campaigns.data ?? []).map((c) => (
              <option key={c.id} value={c.id}>
                {c.name}
              </option>
            ))}
          </select>
        </div>

        {campaignId && (
          <fieldset className="space-y-3">
            <legend className="text-sm font-medium text-slate-700">Weeks</legend>
            {weeks.isFetching && <Spinner label="Loading the weeks" />}
            {!weeks.isFetching && finished.length === 0 && (
              <Alert tone="info">This campaign has no finished week yet. A week can be reported once it has ended.</Alert>
            )}
            {finished.length > 0 && (
              <>
                <label className="flex items-center gap-2 text-sm font-medium text-slate-700">
                  <input
                    type="checkbox"
                    className="h-4 w-4 accent-brand-700"
                    checked={allChosen}
                    onChange={() => setChosen(allChosen ? new Set() : new Set(finished.map((w) => w.start_at)))}
                    disabled={creating.isLoading}
                  />
                  All finished weeks ({finished.length})
                </label>
                <ul className="divide-y divide-slate-100 rounded-lg border border-slate-200">
                  {finished.map((w) => (
                    <li key={w.start_at}>
                      <label className="flex cursor-pointer flex-wrap items-center gap-x-3 gap-y-1 px-3 py-2.5 text-sm hover:bg-slate-50">
                        <input
                          type="checkbox"
                          className="h-4 w-4 accent-brand-700"
                          checked={chosen.has(w.start_at)}
                          onChange={() => toggle(w.start_at)}
                          disabled={creating.isLoading}
                        />
                        <span className="font-medium text-slate-900">{weekLabel(w)}</span>
                        <span className="text-slate-500">
                          {w.faces} {w.faces === 1 ? 'face' : 'faces'} · {formatCount(w.delivered)} of {formatCount(w.planned)} impressions delivered
                        </span>
                      </label>
                    </li>
                  ))}
                </ul>
              </>
            )}
          </fieldset>
        )}

        <div className="space-y-1.5">
          <label htmlFor="report-name" className="block text-sm font-medium text-slate-700">
            Report name <span className="font-normal text-slate-500">(optional)</span>
          </label>
          <input
            id="report-name"
            className="field-input"
            maxLength={MaxNameLen}
            value={name}
            onChange={(e) => setName(e.target.value)}
            placeholder="The campaign and its dates"
            disabled={creating.isLoading}
          />
        </div>

        {error && (
          <div ref={errorRef} tabIndex={-1}>
            <Alert>{error}</Alert>
          </div>
        )}

        {creating.isLoading && (
          <div className="space-y-2" role="status" aria-live="polite">
            <p className="text-sm font-medium text-slate-700">Making your report: reading the delivered impressions, drawing the PDF…</p>
            <div className="h-2 overflow-hidden rounded-full bg-brand-100" role="progressbar" aria-label="Making your report">
              <div className="h-full w-1/3 animate-pulse rounded-full bg-brand-600" />
            </div>
          </div>
        )}

        <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <Link to="/reports" className="btn-secondary">
            Cancel
          </Link>
          <button type="submit" className="btn-primary" disabled={creating.isLoading}>
            {creating.isLoading ? 'Generating…' : 'Generate report'}
          </button>
        </div>
      </form>
    </div>
  )
}
