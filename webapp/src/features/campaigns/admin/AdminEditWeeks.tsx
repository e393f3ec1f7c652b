import { useMemo, useState } from 'react'
import { useDispatch } from 'react-redux'
import { Link, useNavigate, useParams } from 'react-router'
import Alert from '../../../platform/Alert'
import Confirm from '../../../platform/Confirm'
import Spinner from '../../../platform/Spinner'
import { ConfirmWeeks, CreativeTypeProof, MsgWeeksRequired, MsgWeeksUpdated, MsgWeeksUpdateFailed, type Week } from '../../../platform/api-types/campaigns'
import { apiToInputDate, formatDisplayDate, startOfDay } from '../../../platform/dates'
import { flash, flashShown } from '../../../platform/flash/flash'
import { errorMessage } from '../../../platform/http'
import DateInput from '../../../platform/inputs/DateInput'
import { formatCount } from '../../../platform/money'
import { useAdminUpdateWeeksMutation } from '../adminApi'
import { useCampaignQuery, useCampaignWeeksQuery } from '../api'
import {
  ALL_BUT_MONDAY,
  ALL_BUT_SUNDAY,
  groupByProduct,
  productSpan,
  toWeekMoves,
  validateWeekRows,
  weekHasStarted,
  withNewStart,
  type WeekRow,
  type WeekRowErrors,
} from './adminRules'
import DeliveryModal from './DeliveryModal'
import StatusBadge from '../list/StatusBadge'

/**
 * /admin/campaigns/edit/week/{id} (B §2, §5): an admin moves a campaign's weeks, one date range
 * per product, and records each week's delivery.
 */
export default function AdminEditWeeks() {
  const { id = '' } = useParams()
  const campaign = useCampaignQuery(id)
  const weeks = useCampaignWeeksQuery({ id, page: 1, page_size: 0, sort: '' }, { refetchOnMountOrArgChange: true })

  return (
    <div className="space-y-6">
      <div className="flex flex-col gap-2 sm:flex-row sm:items-end sm:justify-between">
        <div>
          <h1 className="text-2xl font-semibold text-slate-900 sm:text-3xl">Edit campaign weeks</h1>
          {campaign.data && (
            <p className="mt-1 flex flex-wrap items-center gap-2 text-slate-600">
              <span className="font-medium text-slate-800">{campaign.data.name}</span>
              <span>· {campaign.data.companyName}</span>
              <StatusBadge status={campaign.data.status} />
            </p>
          )}
        </div>
        <div className="flex gap-2">
          <Link to={`/admin/campaigns/edit/${encodeURIComponent(id)}`} className="btn-secondary">
            Edit campaign
          </Link>
          <Link to="/admin/campaigns" className="btn-ghost">
            Back to campaigns
          </Link>
        </div>
      </div>
      {weeks.isLoading && <Spinner label="Loading the weeks" />}
      {weeks.isError && <Alert>{errorMessage(weeks.error)}</Alert>}
      {weeks.data && <WeeksEditor campaignId={id} weeks={weeks.data.items ?? []} />}
    </div>
  )
}

// The column header names the date inputs on screen: their own labels (which also name the week
// and the location) and the format hint stay for assistive technology only.
const DATE_CELL = 'min-w-44 px-3 py-2 [&_label]:sr-only [&_p.text-xs]:sr-only'

function rowsFrom(weeks: Week[]): Record<string, WeekRow> {
  return Object.fromEntries(
    weeks.map((week) => [week.id, { week, selected: false, startAt: apiToInputDate(week.start_at), endAt: apiToInputDate(week.end_at) }]),
  )
}

function WeeksEditor({ campaignId, weeks }: { campaignId: string; weeks: Week[] }) {
  // Typed ranges survive a refetch (after a delivery is recorded); new weeks join unselected.
  const [edits, setEdits] = useState<Record<string, WeekRow>>(() => rowsFrom(weeks))
  const [rowErrors, setRowErrors] = useState<WeekRowErrors>({})
  const [formError, setFormError] = useState<string | null>(null)
  const [confirming, setConfirming] = useState(false)
  const [deliveryWeekId, setDeliveryWeekId] = useState<string | null>(null)
  const [updateWeeks, updating] = useAdminUpdateWeeksMutation()
  const dispatch = useDispatch()
  const navigate = useNavigate()
  const today = startOfDay(new Date())

  const groups = useMemo(() => groupByProduct(weeks), [weeks])
  const rows: WeekRow[] = weeks.map((w) => {
    const edit = edits[w.id]
    return edit ? { ...edit, week: w } : { week: w, selected: false, startAt: apiToInputDate(w.start_at), endAt: apiToInputDate(w.end_at) }
  })
  const rowOf = (weekId: string) => rows.find((r) => r.week.id === weekId)!
  const selectedCount = rows.filter((r) => r.selected).length
  const deliveryWeek = weeks.find((w) => w.id === deliveryWeekId) ?? null

  const change = (weekId: string, patch: Partial<WeekRow>) => {
    setEdits((e) => ({ ...e, [weekId]: { ...rowOf(weekId), ...patch } }))
    setRowErrors((r) => ({ ...r, [weekId]: '' }))
    setFormError(null)
  }

  // The product's first week's range goes to every week of that product, all selected.
  const applyToProduct = (productWeeks: Week[], from: WeekRow) => {
    setEdits((e) => {
      const next = { ...e }
      for (const w of productWeeks) next[w.id] = { ...rowOf(w.id), selected: true, startAt: from.startAt, endAt: from.endAt }
      return next
    })
    setFormError(null)
  }

  const onSave = () => {
    if (selectedCount === 0) {
      setFormError(MsgWeeksRequired)
      return
    }
    const check = validateWeekRows(rows)
    setRowErrors(check.rows)
    const firstRowError = Object.values(check.rows).find(Boolean)
    setFormError(check.form ?? firstRowError ?? null)
    if (check.form || firstRowError) return
    setConfirming(true)
  }

  const onConfirm = async () => {
    try {
      await updateWeeks({ id: campaignId, body: { weeks: toWeekMoves(rows) } }).unwrap()
      dispatch(flash(MsgWeeksUpdated, 'success', { nextPage: true }))
      navigate('/admin/campaigns')
    } catch (error) {
      setConfirming(false)
      dispatch(flashShown(MsgWeeksUpdateFailed, 'danger'))
      const message = errorMessage(error)
      setFormError(message === MsgWeeksUpdateFailed ? message : `${MsgWeeksUpdateFailed}: ${message}`)
    }
  }

  if (weeks.length === 0) return <p className="card p-6 text-slate-600">This campaign has no weeks.</p>

  return (
    <div className="space-y-6">
      <p className="text-sm text-slate-600">
        Select the weeks to move and give each a new range, from a Monday to a Sunday (a new start moves the end with it). All the
        selected weeks of one location must share one range; “Use for all its weeks” copies a location’s first range to its other weeks.
      </p>
      {formError && <Alert>{formError}</Alert>}
      {groups.map((group) => {
        const span = productSpan(group.weeks)
        const first = rowOf(group.weeks[0]!.id)
        const headingId = `product-${group.productId}`
        return (
          <section key={group.productId} aria-labelledby={headingId} className="card overflow-hidden">
            <div className="flex flex-col gap-2 border-b border-slate-100 px-4 py-3 sm:flex-row sm:items-center sm:justify-between">
              <div>
                <h2 id={headingId} className="font-semibold text-slate-900">
                  {group.name}
                </h2>
                <p className="text-sm text-slate-600">
                  {[group.weeks[0]!.product?.city, group.weeks[0]!.product?.market].filter(Boolean).join(', ')}
                  {span ? ` · ${formatDisplayDate(span.start)} – ${formatDisplayDate(span.end)}` : ''} · {group.weeks.length}{' '}
                  {group.weeks.length === 1 ? 'week' : 'weeks'}
                </p>
              </div>
              {group.weeks.length > 1 && (
                <button type="button" className="btn-secondary self-start px-3 py-1.5 text-sm" onClick={() => applyToProduct(group.weeks, first)}>
                  Use for all its weeks
                </button>
              )}
            </div>
            {/* relative: the inputs' visually hidden labels are positioned inside the scrolling box,
                so they never widen the page. */}
            <div className="relative overflow-x-auto">
              <table className="min-w-full text-sm" aria-labelledby={headingId}>
                <thead className="bg-slate-50 text-left text-slate-600">
                  <tr>
                    <th scope="col" className="px-3 py-2">
                      <span className="sr-only">Move</span>
                    </th>
                    <th scope="col" className="px-3 py-2 whitespace-nowrap">
                      Week
                    </th>
                    <th scope="col" className="px-3 py-2 whitespace-nowrap">
                      New start
                    </th>
                    <th scope="col" className="px-3 py-2 whitespace-nowrap">
                      New end
                    </th>
                    <th scope="col" className="px-3 py-2 whitespace-nowrap">
                      Status
                    </th>
                    <th scope="col" className="px-3 py-2 whitespace-nowrap">
                      Impressions
                    </th>
                    <th scope="col" className="px-3 py-2 whitespace-nowrap">
                      Delivery
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {group.weeks.map((w) => {
                    const row = rowOf(w.id)
                    const label = `week of ${formatDisplayDate(w.start_at)} at ${group.name}`
                    const proofs = (w.creatives ?? []).filter((c) => c.creative_type === CreativeTypeProof).length
                    return (
                      <tr key={w.id} className={`border-t border-slate-100 align-top ${row.selected ? 'shadow-[inset_4px_0_0_0_var(--color-brand-600)]' : ''}`} aria-selected={row.selected}>
                        <td className="px-3 py-3">
                          <input
                            type="checkbox"
                            className="h-4 w-4 accent-brand-700"
                            aria-label={`Move the ${label}`}
                            checked={row.selected}
                            onChange={(e) => change(w.id, { selected: e.target.checked })}
                          />
                        </td>
                        <td className="px-3 py-3 whitespace-nowrap tabular-nums">
                          {formatDisplayDate(w.start_at)} – {formatDisplayDate(w.end_at)}
                        </td>
                        <td className={DATE_CELL}>
                          <DateInput
                            id={`start-${w.id}`}
                            label={`New start of the ${label}`}
                            value={row.startAt}
                            onChange={(v) => change(w.id, { ...withNewStart(row, v), selected: true })}
                            disabledWeekdays={ALL_BUT_MONDAY}
                            min={addYears(today, -2)}
                            today={today}
                            disabled={!row.selected}
                            error={row.selected ? rowErrors[w.id] || null : null}
                          />
                        </td>
                        <td className={DATE_CELL}>
                          <DateInput
                            id={`end-${w.id}`}
                            label={`New end of the ${label}`}
                            value={row.endAt}
                            onChange={(v) => change(w.id, { endAt: v, selected: true })}
                            disabledWeekdays={ALL_BUT_SUNDAY}
                            min={addYears(today, -2)}
                            today={today}
                            disabled={!row.selected}
                          />
                        </td>
                        <td className="px-3 py-3 capitalize">{w.status_week}</td>
                        <td className="px-3 py-3 tabular-nums whitespace-nowrap">
                          {w.act_imp != null ? formatCount(w.act_imp) : '—'}
                          <span className="block text-xs text-slate-500">min {formatCount(w.product_ooh)}</span>
                        </td>
                        <td className="px-3 py-3">
                          {weekHasStarted(w, today) ? (
                            <button type="button" className="btn-secondary px-3 py-1.5 text-sm whitespace-nowrap" onClick={() => setDeliveryWeekId(w.id)} aria-label={`Record delivery of the ${label}`}>
                              Record delivery
                            </button>
                          ) : (
                            <span className="text-sm whitespace-nowrap text-slate-600">Not started</span>
                          )}
                          <span className="mt-1 block text-xs text-slate-500">
                            {proofs} {proofs === 1 ? 'proof' : 'proofs'}
                          </span>
                        </td>
                      </tr>
                    )
                  })}
                </tbody>
              </table>
            </div>
          </section>
        )
      })}
      <div className="sticky bottom-0 flex flex-wrap items-center justify-end gap-2 border-t border-slate-200 bg-white/95 py-3">
        <span className="mr-auto text-sm text-slate-600" aria-live="polite">
          {selectedCount} {selectedCount === 1 ? 'week' : 'weeks'} selected
        </span>
        <Link to="/admin/campaigns" className="btn-secondary">
          Cancel
        </Link>
        <button type="button" className="btn-primary" onClick={onSave} disabled={updating.isLoading}>
          Update selected weeks
        </button>
      </div>
      <Confirm
        open={confirming}
        title="Update weeks"
        message={ConfirmWeeks}
        confirmText="Update weeks"
        busy={updating.isLoading}
        onConfirm={onConfirm}
        onCancel={() => setConfirming(false)}
      />
      <DeliveryModal week={deliveryWeek} onClose={() => setDeliveryWeekId(null)} />
    </div>
  )
}

function addYears(date: Date, years: number): Date {
  return new Date(date.getFullYear() + years, date.getMonth(), date.getDate())
}
