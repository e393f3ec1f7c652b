// Calendar dates for the screens (DESIGN §1.5): inputs are mm/dd/yyyy, displays 'MMM DD, YYYY',
// the API speaks YYYY-MM-DD. A calendar date is held as a local Date at midnight.

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec']
export const WEEKDAY_NAMES = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday']

const pad = (n: number, width = 2) => String(n).padStart(width, '0')

/** Midnight of the same calendar day. */
export function startOfDay(date: Date): Date {
  return new Date(date.getFullYear(), date.getMonth(), date.getDate())
}

export function addDays(date: Date, days: number): Date {
  return new Date(date.getFullYear(), date.getMonth(), date.getDate() + days)
}

export function sameDay(a: Date, b: Date): boolean {
  return a.getFullYear() === b.getFullYear() && a.getMonth() === b.getMonth() && a.getDate() === b.getDate()
}

/** Compares calendar days only: negative, zero or positive. */
export function compareDays(a: Date, b: Date): number {
  return startOfDay(a).getTime() - startOfDay(b).getTime()
}

function calendarDate(year: number, month: number, day: number): Date | null {
  const date = new Date(year, month - 1, day)
  if (date.getFullYear() !== year || date.getMonth() !== month - 1 || date.getDate() !== day) return null
  return date
}

/** 'mm/dd/yyyy' → Date, or null when it is not that format or not a real day. */
export function parseInputDate(text: string): Date | null {
  const match = /^(\d{2})\/(\d{2})\/(\d{4})$/.exec(text.trim())
  if (!match) return null
  return calendarDate(Number(match[3]), Number(match[1]), Number(match[2]))
}

/** Date → 'mm/dd/yyyy'. */
export function formatInputDate(date: Date): string {
  return `${pad(date.getMonth() + 1)}/${pad(date.getDate())}/${pad(date.getFullYear(), 4)}`
}

/** 'YYYY-MM-DD' (or an RFC 3339 timestamp, read in local time) → Date, or null. */
export function parseApiDate(text: string): Date | null {
  const day = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text)
  if (day) return calendarDate(Number(day[1]), Number(day[2]), Number(day[3]))
  const stamp = new Date(text)
  return Number.isNaN(stamp.getTime()) ? null : stamp
}

/** Date → 'YYYY-MM-DD'. */
export function formatApiDate(date: Date): string {
  return `${pad(date.getFullYear(), 4)}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`
}

/** Date (or an API date string) → 'MMM DD, YYYY', e.g. 'Jan 05, 2026'. Empty when unreadable. */
export function formatDisplayDate(value: Date | string | null | undefined): string {
  if (!value) return ''
  const date = typeof value === 'string' ? parseApiDate(value) : value
  if (!date) return ''
  return `${MONTHS[date.getMonth()]} ${pad(date.getDate())}, ${date.getFullYear()}`
}

/** 'mm/dd/yyyy' → 'YYYY-MM-DD', or null. */
export function inputToApiDate(text: string): string | null {
  const date = parseInputDate(text)
  return date ? formatApiDate(date) : null
}

/** 'YYYY-MM-DD' → 'mm/dd/yyyy', or '' when unreadable. */
export function apiToInputDate(text: string): string {
  const date = parseApiDate(text)
  return date ? formatInputDate(date) : ''
}

const ALL_WEEKDAYS = [0, 1, 2, 3, 4, 5, 6] as const

/**
 * A §5 / B §4: the default start date is the next enabled weekday, 7 days ahead when today's
 * weekday number (0 = Sunday … 6 = Saturday) is 3 or less, otherwise 14. "Next" is read as the
 * first enabled day on or after today + 7 (or + 14): with Mondays only, a Monday gives the Monday
 * a week later, a Thursday the Monday 18 days later.
 */
export function defaultStartDate(today: Date, enabledWeekdays: readonly number[] = ALL_WEEKDAYS): Date {
  const enabled = new Set(enabledWeekdays.filter((d) => Number.isInteger(d) && d >= 0 && d <= 6))
  if (enabled.size === 0) throw new RangeError('defaultStartDate needs at least one enabled weekday')
  let date = addDays(startOfDay(today), today.getDay() <= 3 ? 7 : 14)
  while (!enabled.has(date.getDay())) date = addDays(date, 1)
  return date
}

/** The weekdays not in `disabled`, for defaultStartDate. */
export function enabledWeekdays(disabled: readonly number[] = []): number[] {
  return ALL_WEEKDAYS.filter((d) => !disabled.includes(d))
}

const zoneFormats = new Map<string, Intl.DateTimeFormat>()

/**
 * The calendar day it is in `timeZone` (an IANA name) at the instant `now`, as a local Date at
 * midnight: the campaign form's "today" and Wednesday cut-off follow the
 * business time zone the server names, not the browser's zone nor UTC. An unknown zone falls back
 * to the browser's day.
 */
export function todayInZone(timeZone: string | undefined, now: Date = new Date()): Date {
  if (!timeZone) return startOfDay(now)
  try {
    let format = zoneFormats.get(timeZone)
    if (!format) {
      format = new Intl.DateTimeFormat('en-US', { timeZone, year: 'numeric', month: 'numeric', day: 'numeric' })
      zoneFormats.set(timeZone, format)
    }
    const parts = format.formatToParts(now)
    const part = (type: Intl.DateTimeFormatPartTypes) => Number(parts.find((p) => p.type === type)?.value)
    return calendarDate(part('year'), part('month'), part('day')) ?? startOfDay(now)
  } catch {
    return startOfDay(now)
  }
}
