import { compareDays, formatDisplayDate, parseInputDate, startOfDay, WEEKDAY_NAMES } from '../dates'

// A §5: date inputs are mm/dd/yyyy; the earliest date is today unless a minimum is given; some
// weekdays can be disabled; an empty date is invalid.
export const MSG_DATE_REQUIRED = '* Please enter a date'
export const MSG_DATE_FORMAT = '* Please use the format mm/dd/yyyy'

export interface DateRules {
  /** Today, from the caller's clock. */
  today: Date
  /** The earliest allowed day; today when absent. */
  min?: Date
  max?: Date
  /** Weekday numbers (0 = Sunday … 6 = Saturday) that cannot be chosen. */
  disabledWeekdays?: readonly number[]
}

export function earliestDate(rules: DateRules): Date {
  return startOfDay(rules.min ?? rules.today)
}

/** Whether a day can be picked under the rules (range and weekday). */
export function isSelectable(date: Date, rules: DateRules): boolean {
  if (compareDays(date, earliestDate(rules)) < 0) return false
  if (rules.max && compareDays(date, rules.max) > 0) return false
  return !(rules.disabledWeekdays ?? []).includes(date.getDay())
}

function weekdayMessage(disabled: readonly number[]): string {
  const enabled = [0, 1, 2, 3, 4, 5, 6].filter((d) => !disabled.includes(d))
  if (enabled.length === 1) return `* Please choose a ${WEEKDAY_NAMES[enabled[0]!]}`
  return `* Please choose one of: ${enabled.map((d) => WEEKDAY_NAMES[d]).join(', ')}`
}

/** The first rule a typed date breaks, or null when it is a valid, allowed day. */
export function validateDate(text: string, rules: DateRules): string | null {
  if (text.trim() === '') return MSG_DATE_REQUIRED
  const date = parseInputDate(text)
  if (!date) return MSG_DATE_FORMAT
  const earliest = earliestDate(rules)
  if (compareDays(date, earliest) < 0) return `* The earliest date is ${formatDisplayDate(earliest)}`
  if (rules.max && compareDays(date, rules.max) > 0) return `* The latest date is ${formatDisplayDate(rules.max)}`
  const disabled = rules.disabledWeekdays ?? []
  if (disabled.includes(date.getDay())) return weekdayMessage(disabled)
  return null
}

/**
 * Inserts the slashes of mm/dd/yyyy while digits are typed ('0105' → '01/05') and pads a pasted
 * short form ('1/5/2026' → '01/05/2026').
 */
export function maskDateInput(text: string): string {
  const loose = /^\s*(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})\s*$/.exec(text)
  if (loose) return `${loose[1]!.padStart(2, '0')}/${loose[2]!.padStart(2, '0')}/${loose[3]}`
  const digits = text.replace(/\D/g, '').slice(0, 8)
  if (digits.length <= 2) return digits
  if (digits.length <= 4) return `${digits.slice(0, 2)}/${digits.slice(2)}`
  return `${digits.slice(0, 2)}/${digits.slice(2, 4)}/${digits.slice(4)}`
}
