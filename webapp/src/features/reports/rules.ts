import type { ReportWeek } from '../../platform/api-types/reports'
import { formatDisplayDate } from '../../platform/dates'

/** B §9: the report list's page sizes; 0 is All (default 10). */
export const REPORT_PAGE_SIZES = [10, 20, 50, 0]
/** B §9: the admin lists' page sizes. */
export const ADMIN_REPORT_PAGE_SIZES = [50, 75, 100, 0]

/** A week of the picker as the form shows it: 'Sep 21, 2026 – Sep 27, 2026'. */
export function weekLabel(w: Pick<ReportWeek, 'start_at' | 'end_at'>): string {
  return `${formatDisplayDate(w.start_at)} – ${formatDisplayDate(w.end_at)}`
}

/** The campaign week ids of the chosen calendar weeks (a week is every face of it). */
export function chosenWeekIds(weeks: readonly ReportWeek[], chosen: ReadonlySet<string>): string[] {
  return weeks.filter((w) => chosen.has(w.start_at)).flatMap((w) => w.week_ids)
}

/** Delivery as the PDF shows it: one decimal and %, '—' when nothing was planned. */
export function formatPct(pct: number, planned: number): string {
  return planned > 0 ? `${pct.toFixed(1)}%` : '—'
}

/** A difference with its sign. */
export function formatDiff(n: number): string {
  const s = new Intl.NumberFormat('en-US').format(Math.abs(n))
  return n > 0 ? `+${s}` : n < 0 ? `-${s}` : '0'
}

/** The tone of a delivery figure, as in the PDF: at or above plan, from 90 %, below. */
export function deliveryTone(pct: number, planned: number): string {
  if (planned <= 0) return 'text-slate-500'
  if (pct >= 100) return 'text-emerald-700'
  if (pct >= 90) return 'text-amber-700'
  return 'text-red-700'
}
