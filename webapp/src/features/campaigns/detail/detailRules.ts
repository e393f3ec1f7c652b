import {
  ConfirmPause,
  ConfirmResume,
  ConfirmStop,
  FrequencyIndefinitely,
  FrequencyOngoing,
  MsgNotEditable,
  MsgPaused,
  MsgResumed,
  MsgStopped,
  PollIntervalMs,
  StatusActive,
  StatusCanceled,
  StatusCompleted,
  StatusPaused,
  StatusPending,
  type CampaignDetail,
  type CampaignLocation,
  type ChartSeries,
  type MakeGood,
  type Week,
} from '../../../platform/api-types/campaigns'
import type { LineChartData, LineSeries } from '../../../platform/chart/chartRules'
import { compareDays, formatDisplayDate, parseApiDate } from '../../../platform/dates'
import { displayStatus } from '../list/listRules'

/** B §9: the detail's week table offers 10, 50, 75, 100 and All (0), 10 by default. */
export const WEEK_PAGE_SIZES = [10, 50, 75, 100, 0]

export type CampaignAction = 'pause' | 'resume' | 'stop'

/** B §8: the confirm text of each action, word for word. */
export const ACTION_CONFIRMS: Record<CampaignAction, { title: string; message: string; button: string; tone: 'primary' | 'danger' }> = {
  pause: { title: 'Pause campaign', message: ConfirmPause, button: 'Pause campaign', tone: 'primary' },
  resume: { title: 'Resume campaign', message: ConfirmResume, button: 'Resume campaign', tone: 'primary' },
  stop: { title: 'Mark campaign complete', message: ConfirmStop, button: 'Mark complete', tone: 'danger' },
}

/** What each action leads to when the server answers no message of its own. */
export const ACTION_DONE: Record<CampaignAction, string> = {
  pause: MsgPaused,
  resume: MsgResumed,
  stop: MsgStopped,
}

/**
 * The actions the status allows (B §4): pause unless paused, completed or canceled; resume only a
 * paused campaign; stop an active or paused one. The server's flags win when it sends them.
 */
export function allowedActions(c: Pick<CampaignDetail, 'status' | 'can_pause' | 'can_resume' | 'can_stop'>): Record<CampaignAction, boolean> {
  const status = displayStatus(c.status)
  return {
    pause: c.can_pause ?? ![StatusPaused, StatusCompleted, StatusCanceled].includes(status),
    resume: c.can_resume ?? status === StatusPaused,
    stop: c.can_stop ?? (status === StatusActive || status === StatusPaused),
  }
}

/** A §4: a pending campaign is read again every 5000 ms until it is active; 0 stops polling. */
export function pollInterval(status: string | undefined): number {
  return status !== undefined && displayStatus(status) === StatusPending ? PollIntervalMs : 0
}

export function isOngoing(frequency: string): boolean {
  return frequency === FrequencyOngoing || frequency === FrequencyIndefinitely
}

/** B §9: the "imminent end" notice of a finite campaign ending within 12 days (the server decides). */
export function imminentEndNotice(c: Pick<CampaignDetail, 'imminent_end' | 'end_date' | 'frequency'>): string | null {
  if (!c.imminent_end || isOngoing(c.frequency)) return null
  return `This campaign ends on ${formatDisplayDate(c.end_date)}. To keep your ads on screen, create a new campaign before then.`
}

/** A failed first payment (decision 5): the gateway's message, and the transaction to retry. */
export function failedPayment(c: Pick<CampaignDetail, 'payment_status' | 'payment_message' | 'transaction' | 'status'>): { message: string; transaction: string } | null {
  if (c.payment_status !== 'failed' || displayStatus(c.status) !== StatusPending) return null
  return { message: c.payment_message || 'Your payment could not be processed.', transaction: c.transaction }
}

/** A §9: the chart's two lines, 'Minimum Impressions' and 'Actual Impressions'. */
export function impressionsChart(chart: ChartSeries | undefined): LineChartData {
  // No campaign-level make-good line: make-goods are earned per face and week, so a
  // line of the whole campaign's plan could never explain one. The week table marks them.
  const series: LineSeries[] = [
    { name: 'Minimum Impressions', data: chart?.minimum ?? [], color: '#6366f1' },
    { name: 'Actual Impressions', data: chart?.actual ?? [], color: '#059669' },
  ]
  return { labels: chart?.labels ?? [], series }
}

/**
 * Like with like for the header: the estimated and the actual impressions of the same
 * points, those with actual impressions recorded. `points` counts them.
 */
export function impressionsToDate(chart: ChartSeries | undefined): { estimated: number; actual: number; points: number } {
  const out = { estimated: 0, actual: 0, points: 0 }
  chart?.actual.forEach((a, i) => {
    if (a == null) return
    out.estimated += chart.minimum[i] ?? 0
    out.actual += a
    out.points++
  })
  return out
}

/**
 * The chart's points whose actual impressions count only some of the week's faces:
 * 'Week 3: 2 of 3 faces reported'. A point with no actual yet, or every face reported, is
 * not listed.
 */
export function partialReports(chart: ChartSeries | undefined): string[] {
  if (!chart) return []
  const out: string[] = []
  chart.labels.forEach((label, i) => {
    const reported = chart.reported?.[i] ?? 0
    const faces = chart.faces?.[i] ?? 0
    if (chart.actual[i] != null && reported < faces) out.push(`${label}: ${reported} of ${faces} faces reported`)
  })
  return out
}

/** A week's creative can still change until its week has ended. */
export function weekCreativeChangeable(week: Pick<Week, 'end_at'>, today: Date = new Date()): boolean {
  const end = parseApiDate(week.end_at)
  return !!end && compareDays(end, today) >= 0
}

/** 'Jan 05, 2026 – Jan 11, 2026'. */
export function weekRange(week: Pick<Week, 'start_at' | 'end_at'>): string {
  return `${formatDisplayDate(week.start_at)} – ${formatDisplayDate(week.end_at)}`
}

/** Why the edit is not offered (B §9: 5 or fewer days before the start; a started one neither). */
export function notEditableReason(startDate: string, today: Date = new Date()): string {
  const start = parseApiDate(startDate)
  if (start && compareDays(start, today) <= 0) return 'This campaign has started and can no longer be edited.'
  return MsgNotEditable
}

/**
 * Where the browser loads a campaign's creative. The API's creativeUrl holds the creative's storage
 * key (as the creation stores it); images are read through /creative/image?image= (B §7). A value
 * that is already a path or a URL is used as it is.
 */
export function creativeImageUrl(value: string | undefined): string {
  if (!value) return ''
  if (value.startsWith('/') || /^https?:\/\//.test(value) || value.startsWith('data:')) return value
  return `/creative/image?image=${encodeURIComponent(value)}`
}

/**
 * The make-goods a face earned (shown on its row), matched by location name and face as
 * the make-goods name them; waived ones are not counted, their credit was taken back.
 */
export function faceMakeGoods(makeGoods: readonly MakeGood[], loc: Pick<CampaignLocation, 'location_name' | 'face'>): { count: number; credit: number } {
  const earned = makeGoods.filter((m) => m.status !== 'waived' && m.location_name === loc.location_name && m.face === loc.face)
  return { count: earned.length, credit: Math.round(earned.reduce((sum, m) => sum + m.credit * 100, 0)) / 100 }
}
