import { ResolveOwnDates, ResolveSuggestedDates, WeekActive, WeekReserved, type ConflictResponse, type Week } from '../../../platform/api-types/campaigns'
import Alert from '../../../platform/Alert'
import { formatDisplayDate } from '../../../platform/dates'
import Modal from '../../../platform/Modal'

export type Resolution = typeof ResolveOwnDates | typeof ResolveSuggestedDates

export interface ConflictDialogProps {
  conflict: ConflictResponse | null
  busy: boolean
  error: string | null
  onResolve: (choice: Resolution) => void
  onClose: () => void
}

/** Weeks grouped by face: the location's name and its weeks in date order. */
export function groupWeeks(weeks: readonly Week[], status: string): { name: string; weeks: Week[] }[] {
  const byFace = new Map<string, { name: string; weeks: Week[] }>()
  for (const week of weeks) {
    if (week.status_week !== status) continue
    const entry = byFace.get(week.product_id) ?? { name: week.product?.location_name || week.product_id, weeks: [] }
    entry.weeks.push(week)
    byFace.set(week.product_id, entry)
  }
  return [...byFace.values()].map((e) => ({ ...e, weeks: e.weeks.sort((a, b) => a.start_at.localeCompare(b.start_at)) })).sort((a, b) => a.name.localeCompare(b.name))
}

function WeekList({ title, groups, empty }: { title: string; groups: { name: string; weeks: Week[] }[]; empty: string }) {
  return (
    <section aria-label={title} className="space-y-2">
      <h3 className="text-sm font-semibold text-slate-900">{title}</h3>
      {groups.length === 0 ? (
        <p className="text-sm text-slate-500">{empty}</p>
      ) : (
        <ul tabIndex={0} aria-label={title} className="max-h-48 space-y-2 overflow-auto text-sm">
          {groups.map((g) => (
            <li key={g.name} className="rounded-lg bg-slate-50 px-3 py-2">
              <p className="font-medium text-slate-800">{g.name}</p>
              <p className="text-slate-600">{g.weeks.map((w) => `${formatDisplayDate(w.start_at)} – ${formatDisplayDate(w.end_at)}`).join(' · ')}</p>
            </li>
          ))}
        </ul>
      )}
    </section>
  )
}

/**
 * The conflict resolution dialog (B §2, §4): the weeks that could be booked on the chosen dates
 * (active) and the nearest later free weeks (reserved), and the two paths: keep my own dates, or
 * use the suggested dates. The form behind it is disabled while it is open.
 */
export default function ConflictDialog({ conflict, busy, error, onResolve, onClose }: ConflictDialogProps) {
  const weeks = conflict?.campaign.weeks ?? []
  const own = groupWeeks(weeks, WeekActive)
  const suggested = groupWeeks(weeks, WeekReserved)
  return (
    <Modal
      open={conflict !== null}
      title="Some locations are taken"
      onClose={() => !busy && onClose()}
      size="lg"
      closeOnBackdrop={false}
      description={conflict?.message}
      footer={
        <>
          <button type="button" className="btn-secondary" disabled={busy} onClick={() => onResolve(ResolveOwnDates)}>
            Keep my own dates
          </button>
          <button type="button" className="btn-primary" disabled={busy} onClick={() => onResolve(ResolveSuggestedDates)}>
            Use suggested dates
          </button>
        </>
      }
    >
      <div className="space-y-4">
        {error && <Alert tone="danger">{error}</Alert>}
        <WeekList title="Your dates (available)" groups={own} empty="None of the chosen weeks is free: keeping your own dates creates no campaign." />
        <WeekList title="Suggested dates" groups={suggested} empty="No later week is free for the taken locations." />
        {conflict?.campaign.expires_at && (
          <p className="text-xs text-slate-500">These weeks are held for you until {new Date(conflict.campaign.expires_at).toLocaleTimeString()}.</p>
        )}
      </div>
    </Modal>
  )
}
