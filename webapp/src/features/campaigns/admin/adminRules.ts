// The rules of the admin campaign screens (B §5), pure so they are tested on their own. The server
// checks them again (DESIGN §1.9); the messages are the server's, generated from service.go.

import {
  FrequencyIndefinitely,
  FrequencyOneTime,
  FrequencyOngoing,
  MaxDurationWeeks,
  MsgAdminLocationReq,
  MsgDurationTooLong,
  MsgEndBeforeStart,
  MsgEndNotSunday,
  MsgNameRequired,
  MsgNameTooLong,
  MsgStartNotMonday,
  MsgStartRequired,
  MsgWeeksInconsistent,
  TypeMaximumBudget,
  TypePremium,
  type Campaign,
  type CampaignForm,
  type Week,
  type WeekMove,
} from '../../../platform/api-types/campaigns'
import { addDays, compareDays, formatApiDate, formatInputDate, parseApiDate, parseInputDate } from '../../../platform/dates'

/** Weekday numbers (0 = Sunday): B §5 "Admin date picker allows Mondays only". */
export const ALL_BUT_MONDAY = [0, 2, 3, 4, 5, 6] as const
/** Ends are Sundays (DESIGN §1.5). */
export const ALL_BUT_SUNDAY = [1, 2, 3, 4, 5, 6] as const
/** B §2 admin lists: 50, 75, 100 and All (0). */
export const ADMIN_PAGE_SIZES = [50, 75, 100, 0]
/** the admin grid sorts by start date, newest first. */
export const ADMIN_DEFAULT_SORT = '-start_date'
export const NAME_MAX = 100

const DAY_MS = 24 * 60 * 60 * 1000

export function isOneTime(frequency: string): boolean {
  return frequency === FrequencyOneTime
}

export function isOngoing(frequency: string): boolean {
  return frequency === FrequencyOngoing || frequency === FrequencyIndefinitely
}

/**
 * B §5: for a one-time campaign the end date is the start plus 6 days; otherwise the earliest end
 * date is the start plus 7 days.
 */
export function minEndDate(start: Date, frequency: string): Date {
  return addDays(start, isOneTime(frequency) ? 6 : 7)
}

/** B §5: the end date a one-time campaign gets (start + 6). */
export function oneTimeEndDate(start: Date): Date {
  return addDays(start, 6)
}

/** B §4: whole weeks between start and end, plus 1, at least 1; one-time and ongoing run 1. */
export function durationWeeks(start: Date, end: Date | null, frequency: string): number {
  if (isOneTime(frequency) || isOngoing(frequency) || !end) return 1
  const days = Math.round((end.getTime() - start.getTime()) / DAY_MS)
  return Math.max(1, Math.floor(days / 7) + 1)
}

export interface AdminEditValues {
  name: string
  /** mm/dd/yyyy */
  startDate: string
  /** mm/dd/yyyy; ignored for one-time (start + 6) and ongoing. */
  endDate: string
  frequency: string
  /** The chosen face ids. */
  locations: string[]
}

export type AdminEditField = 'name' | 'startDate' | 'endDate' | 'locations'
export type AdminEditErrors = Partial<Record<AdminEditField, string>>

/** The first rule each field breaks (B §5 admin rules); empty when the form can be sent. */
export function validateAdminEdit(values: AdminEditValues): AdminEditErrors {
  const errors: AdminEditErrors = {}
  const name = values.name.trim()
  if (!name) errors.name = MsgNameRequired
  else if ([...name].length > NAME_MAX) errors.name = MsgNameTooLong

  const start = parseInputDate(values.startDate)
  if (!values.startDate.trim() || !start) errors.startDate = MsgStartRequired
  else if (start.getDay() !== 1) errors.startDate = MsgStartNotMonday

  if (start && !isOneTime(values.frequency) && !isOngoing(values.frequency)) {
    const end = parseInputDate(values.endDate)
    if (!end) errors.endDate = MsgEndBeforeStart
    else if (compareDays(end, minEndDate(start, values.frequency)) < 0) errors.endDate = MsgEndBeforeStart
    else if (end.getDay() !== 0) errors.endDate = MsgEndNotSunday
    else if (durationWeeks(start, end, values.frequency) > MaxDurationWeeks) errors.endDate = MsgDurationTooLong
  }

  if (values.locations.length === 0) errors.locations = MsgAdminLocationReq
  return errors
}

/**
 * The PUT /api/campaigns/{id} body: the campaign as it is, with the admin's name, dates and
 * locations. Prices are left to the server (it prices the faces itself, DESIGN §1.9).
 */
export function toCampaignForm(campaign: Campaign, values: AdminEditValues): CampaignForm {
  const start = parseInputDate(values.startDate)!
  const end = isOneTime(values.frequency) || isOngoing(values.frequency) ? oneTimeEndDate(start) : parseInputDate(values.endDate)!
  const form: CampaignForm = {
    name: values.name.trim(),
    typeCampaign: campaign.mb_campaign ? TypeMaximumBudget : TypePremium,
    strategySelected: campaign.strategy,
    marketsSelected: campaign.market ?? [],
    places_checked: values.locations.map((id) => ({ id })),
    startDate: formatApiDate(start),
    endDate: formatApiDate(end),
    frequencySelected: values.frequency,
    duration: durationWeeks(start, end, values.frequency),
    weekly_budget: String(campaign.weekly_budget),
    impression_count: campaign.impression_count,
  }
  // B §4: an empty cities list is removed before saving.
  if (campaign.cities?.length) form.citiesSelected = campaign.cities
  if (campaign.place_id) form.place_id = campaign.place_id
  if (campaign.radiusCheckValue) form.radiusCheckValue = campaign.radiusCheckValue
  // A campaign without a creative of its own shows the company's default (B §5).
  if (campaign.creative_id) form.creative_id = campaign.creative_id
  else form.use_default_creative = true
  if (campaign.mb_campaign) form.maxBudget = String(campaign.max_budget)
  if (campaign.promo_code) form.promo_code = { value: campaign.promo_code }
  return form
}

// --- Edit weeks (B §2 /admin/campaigns/edit/week/{id}, B §5) ---

/** One row of the weeks screen: a week, whether it is selected, and the range typed for it. */
export interface WeekRow {
  week: Week
  selected: boolean
  /** mm/dd/yyyy */
  startAt: string
  /** mm/dd/yyyy */
  endAt: string
}

/** The weeks of each product in order of their first week, each product's weeks by date. */
export function groupByProduct(weeks: Week[]): { productId: string; name: string; weeks: Week[] }[] {
  const groups = new Map<string, Week[]>()
  const sorted = [...weeks].sort((a, b) => a.start_at.localeCompare(b.start_at) || a.product_id.localeCompare(b.product_id))
  for (const week of sorted) {
    const list = groups.get(week.product_id)
    if (list) list.push(week)
    else groups.set(week.product_id, [week])
  }
  return [...groups.entries()].map(([productId, list]) => ({
    productId,
    name: productLabel(list[0]!),
    weeks: list,
  }))
}

export function productLabel(week: Week): string {
  const p = week.product
  const name = p?.location_name || week.product_id
  return p?.face ? `${name} (${p.face})` : name
}

export type WeekRowErrors = Record<string, string>

/**
 * Checks the selected rows: each range starts on a Monday and ends on a later Sunday; then, B §5,
 * every selected week of one product carries the same range. Returns the message for the whole
 * form (the inconsistency) and per-row messages.
 */
export function validateWeekRows(rows: WeekRow[]): { form: string | null; rows: WeekRowErrors } {
  const rowErrors: WeekRowErrors = {}
  const ranges = new Map<string, string>()
  let inconsistent = false
  for (const row of rows) {
    if (!row.selected) continue
    const start = parseInputDate(row.startAt)
    const end = parseInputDate(row.endAt)
    if (!start) rowErrors[row.week.id] = MsgStartRequired
    else if (start.getDay() !== 1) rowErrors[row.week.id] = MsgStartNotMonday
    else if (!end || compareDays(end, start) <= 0) rowErrors[row.week.id] = MsgEndBeforeStart
    else if (end.getDay() !== 0) rowErrors[row.week.id] = MsgEndNotSunday
    const range = `${row.startAt}|${row.endAt}`
    const seen = ranges.get(row.week.product_id)
    if (seen === undefined) ranges.set(row.week.product_id, range)
    else if (seen !== range) inconsistent = true
  }
  return { form: inconsistent ? MsgWeeksInconsistent : null, rows: rowErrors }
}

/**
 * A new start typed for a row moves its end with it, keeping the range's length (a week when the
 * old range is unreadable), so moving a week is one date to type.
 */
export function withNewStart(row: WeekRow, startAt: string): WeekRow {
  const start = parseInputDate(startAt)
  if (!start) return { ...row, startAt }
  const oldStart = parseInputDate(row.startAt)
  const oldEnd = parseInputDate(row.endAt)
  const days = oldStart && oldEnd && oldEnd > oldStart ? Math.round((oldEnd.getTime() - oldStart.getTime()) / DAY_MS) : 6
  return { ...row, startAt, endAt: formatInputDate(addDays(start, days)) }
}

/** The PUT /api/admin/campaigns/weeks/{id} records of the selected rows (dates as YYYY-MM-DD). */
export function toWeekMoves(rows: WeekRow[]): WeekMove[] {
  return rows
    .filter((r) => r.selected)
    .map((r) => ({
      id: r.week.id,
      product_id: r.week.product_id,
      start_at: formatApiDate(parseInputDate(r.startAt)!),
      end_at: formatApiDate(parseInputDate(r.endAt)!),
    }))
}

/** The whole span of a product's weeks: the first Monday to the last Sunday. */
export function productSpan(weeks: Week[]): { start: Date; end: Date } | null {
  const starts = weeks.map((w) => parseApiDate(w.start_at)).filter((d): d is Date => !!d)
  const ends = weeks.map((w) => parseApiDate(w.end_at)).filter((d): d is Date => !!d)
  if (!starts.length || !ends.length) return null
  return {
    start: starts.reduce((a, b) => (a < b ? a : b)),
    end: ends.reduce((a, b) => (a > b ? a : b)),
  }
}

// --- Delivery ---

/** The server's bound on one week's actual impressions (MsgActImpInvalid). */
export const MAX_ACT_IMP = 1_000_000_000

/** Reads typed impressions ('12,500' → 12500); null unless a whole number from 0 to MAX_ACT_IMP. */
export function parseImpressions(text: string): number | null {
  const cleaned = text.replace(/[,\s]/g, '')
  if (!/^\d+$/.test(cleaned)) return null
  const n = Number(cleaned)
  return n <= MAX_ACT_IMP ? n : null
}

/** Whether a week has started: only then has it a delivery (impressions and proofs) to record. */
export function weekHasStarted(week: Week, today: Date): boolean {
  const start = parseApiDate(week.start_at)
  return !!start && compareDays(start, today) <= 0
}
