import {
  DefaultWeeklyDuration,
  FrequencyOneTime,
  FrequencyOngoing,
  FrequencyWeekly,
  MaxDurationWeeks,
  MsgCardRequired,
  MsgCreativeRequired,
  MsgDurationTooLong,
  MsgInvalidNumber,
  MsgLocationRequired,
  TypeMaximumBudget,
} from '../../../platform/api-types/campaigns'
import { addDays, compareDays, defaultStartDate, startOfDay } from '../../../platform/dates'
import { suggestedDailyBudget } from './budget'

// The date, duration, check and validation rules of the new-campaign form (B §4, §5, §9), as
// plain functions. The server holds the same rules (modules/campaigns/rules.go) and has the last
// word; GET /api/campaigns/defaults gives the server's today so both agree.

export type Frequency = typeof FrequencyOneTime | typeof FrequencyWeekly | typeof FrequencyOngoing

const DAY_MS = 24 * 60 * 60 * 1000

/** Whole days from a to b (calendar days, immune to daylight-saving shifts). */
export function daysBetween(a: Date, b: Date): number {
  return Math.round(compareDays(b, a) / DAY_MS)
}

/** The first Monday strictly after `day`. */
export function nextMonday(day: Date): Date {
  const d = startOfDay(day)
  const ahead = (8 - d.getDay()) % 7 || 7
  return addDays(d, ahead)
}

/**
 * The Wednesday cut-off of B §9: the earliest start is the next Monday while today is Monday to
 * Wednesday, else the Monday after.
 */
export function earliestStart(today: Date): Date {
  const day = today.getDay()
  const monday = nextMonday(today)
  return day >= 1 && day <= 3 ? monday : addDays(monday, 7)
}

/** A §5 / B §4: the first Monday on or after today + 7 (weekday ≤ 3) or today + 14. */
export function defaultStart(today: Date): Date {
  return defaultStartDate(today, [1])
}

export const isMonday = (d: Date) => d.getDay() === 1
export const isSunday = (d: Date) => d.getDay() === 0

/** B §4: the end is the Sunday closing the last week: start + 7·duration − 1. */
export function endDateFor(start: Date, duration: number): Date {
  return addDays(start, 7 * Math.max(1, duration) - 1)
}

/** B §4: whole weeks between start and end, plus 1, minimum 1. */
export function durationFromEnd(start: Date, end: Date): number {
  return Math.max(1, Math.floor(daysBetween(start, end) / 7) + 1)
}

/** B §4: one-time and ongoing force 1 week; a specified end date (weekly) starts at 2. */
export function durationForFrequency(frequency: Frequency, current?: number): number {
  if (frequency !== FrequencyWeekly) return 1
  return current && current > 1 ? current : DefaultWeeklyDuration
}

/** The end date to show for a frequency: one week for one-time and ongoing (B §4). */
export function endForFrequency(frequency: Frequency, start: Date, duration: number): Date {
  return endDateFor(start, frequency === FrequencyWeekly ? duration : 1)
}

/** A face's price data for the chosen week (B §3 "Price data per face"). */
export interface PriceData {
  loaded: boolean
  price: number
  available: boolean
  impressionsEst: number
}

export interface CheckableFace {
  id: string
  exclude_maximize_budget?: boolean
}

/**
 * B §4: a face can be checked only when its price has loaded, it is available (not sold out) and
 * it is allowed under the campaign type (maximum budget excludes some faces).
 */
export function canCheck(face: CheckableFace, price: PriceData | undefined, typeCampaign: number): boolean {
  if (!price || !price.loaded || !price.available) return false
  return !(typeCampaign === TypeMaximumBudget && face.exclude_maximize_budget)
}

/** B §4: after a start-date change, a check stays only if the face is still available. */
export function keepAvailable(checked: readonly string[], prices: ReadonlyMap<string, PriceData>, keep: ReadonlySet<string> = new Set()): string[] {
  return checked.filter((id) => keep.has(id) || prices.get(id)?.available === true)
}

/** B §4: show-only-checked turns itself off when nothing is chosen. */
export function showOnlyChecked(wanted: boolean, checkedCount: number): boolean {
  return wanted && checkedCount > 0
}

/**
 * B §5: '$' and ',' are stripped from a typed budget; what is left must be a number. Returns the
 * dollars, or null with the message.
 */
export function parseBudget(text: string | number): { value: number; error: null } | { value: null; error: string } {
  if (typeof text === 'number') return Number.isFinite(text) && text >= 0 ? { value: text, error: null } : { value: null, error: MsgInvalidNumber }
  const cleaned = text.replace(/[$,]/g, '').trim()
  if (cleaned === '' || !/^\d+(\.\d{1,2})?$/.test(cleaned)) return { value: null, error: MsgInvalidNumber }
  return { value: Number(cleaned), error: null }
}

/** B §3: an empty cities list is removed before saving. */
export function citiesForSave(cities: readonly string[]): string[] | undefined {
  const kept = cities.map((c) => c.trim()).filter(Boolean)
  return kept.length > 0 ? kept : undefined
}

export type FormField = 'name' | 'locations' | 'startDate' | 'endDate' | 'duration' | 'creative' | 'card' | 'budget'

export interface ValidationInput {
  name: string
  checkedCount: number
  duration: number
  hasCreative: boolean
  useDefaultCreative: boolean
  hasDefaultCreative: boolean
  hasCard: boolean
  /** B §5: a card is required only when the weekly budget is above 0 (true when absent). */
  cardRequired?: boolean
  /** The typed maximum budget, when the maximum-budget type is used. */
  budgetText?: string | null
  startError?: string | null
  endError?: string | null
  nameError?: string | null
}

/**
 * Every rule of B §5 "Campaign creation" with its message, in the order the form shows them
 * (top to bottom). The card rule is last: its message is a flash of 600000 ms (B §8).
 */
export function validateCampaign(input: ValidationInput): Partial<Record<FormField, string>> {
  const errors: Partial<Record<FormField, string>> = {}
  if (input.nameError) errors.name = input.nameError
  if (input.checkedCount < 1) errors.locations = MsgLocationRequired
  if (input.startError) errors.startDate = input.startError
  if (input.endError) errors.endDate = input.endError
  if (input.duration > MaxDurationWeeks) errors.duration = MsgDurationTooLong
  if (input.budgetText != null) {
    const parsed = parseBudget(input.budgetText)
    if (parsed.error) errors.budget = parsed.error
  }
  if (!input.hasCreative && !(input.useDefaultCreative && input.hasDefaultCreative)) errors.creative = MsgCreativeRequired
  if (!input.hasCard && input.cardRequired !== false) errors.card = MsgCardRequired
  return errors
}

/**
 * B §5: in maximum-budget mode the daily budget must not be below the suggested one
 * (ceil(selected / 10) × 20, B §9); this blocks the form silently.
 */
export function dailyBelowSuggested(dailyCents: number | null, selected: number): boolean {
  return dailyCents === null || dailyCents < suggestedDailyBudget(selected)
}

/** A fresh Idempotency-Key for one form session (decision 8). */
export function newIdempotencyKey(): string {
  const c = globalThis.crypto
  if (c && typeof c.randomUUID === 'function') return c.randomUUID()
  return `k-${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`
}
