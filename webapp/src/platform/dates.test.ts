import { describe, expect, it } from 'vitest'
import {
  addDays,
  apiToInputDate,
  defaultStartDate,
  todayInZone,
  enabledWeekdays,
  formatApiDate,
  formatDisplayDate,
  formatInputDate,
  inputToApiDate,
  parseApiDate,
  parseInputDate,
} from './dates'

const MONDAY = [1]
const day = (y: number, m: number, d: number) => new Date(y, m - 1, d)

describe('defaultStartDate (A §5, B §4)', () => {
  // January 2026: Sun 11, Mon 12, Tue 13, Wed 14, Thu 15, Fri 16, Sat 17.
  it.each([
    // weekday ≤ 3 → today + 7, then the first enabled day on or after it
    ['Sunday (0)', day(2026, 1, 11), MONDAY, day(2026, 1, 19)],
    ['Monday (1)', day(2026, 1, 12), MONDAY, day(2026, 1, 19)],
    ['Tuesday (2)', day(2026, 1, 13), MONDAY, day(2026, 1, 26)],
    ['Wednesday (3)', day(2026, 1, 14), MONDAY, day(2026, 1, 26)],
    // weekday > 3 → today + 14
    ['Thursday (4)', day(2026, 1, 15), MONDAY, day(2026, 2, 2)],
    ['Friday (5)', day(2026, 1, 16), MONDAY, day(2026, 2, 2)],
    ['Saturday (6)', day(2026, 1, 17), MONDAY, day(2026, 2, 2)],
    // every day enabled: exactly +7 or +14
    ['Wednesday, all days', day(2026, 1, 14), [0, 1, 2, 3, 4, 5, 6], day(2026, 1, 21)],
    ['Thursday, all days', day(2026, 1, 15), [0, 1, 2, 3, 4, 5, 6], day(2026, 1, 29)],
    // the target day itself counts when enabled
    ['Monday, Mondays and Fridays', day(2026, 1, 12), [1, 5], day(2026, 1, 19)],
    ['Tuesday, Mondays and Fridays', day(2026, 1, 13), [1, 5], day(2026, 1, 23)],
    ['Friday, weekdays only', day(2026, 1, 16), [1, 2, 3, 4, 5], day(2026, 1, 30)],
    ['Saturday, weekdays only', day(2026, 1, 17), [1, 2, 3, 4, 5], day(2026, 2, 2)],
    // month, year and leap-day boundaries
    ['Wednesday 24 Dec 2025', day(2025, 12, 24), MONDAY, day(2026, 1, 5)],
    ['Thursday 25 Dec 2025', day(2025, 12, 25), MONDAY, day(2026, 1, 12)],
    ['Sunday 20 Feb 2028 (leap year)', day(2028, 2, 20), [2], day(2028, 2, 29)],
  ])('%s', (_, today, enabled, expected) => {
    expect(formatApiDate(defaultStartDate(today, enabled))).toBe(formatApiDate(expected))
  })

  it('ignores the time of day', () => {
    expect(formatApiDate(defaultStartDate(new Date(2026, 0, 14, 23, 59, 59), MONDAY))).toBe('2026-01-26')
  })

  it('is always at least 7 days ahead and on an enabled weekday', () => {
    for (let offset = 0; offset < 60; offset += 1) {
      const today = addDays(day(2026, 3, 1), offset)
      for (const enabled of [[1], [0], [6], [1, 3], [0, 1, 2, 3, 4, 5, 6]]) {
        const start = defaultStartDate(today, enabled)
        const ahead = Math.round((start.getTime() - today.getTime()) / 86400000)
        expect(enabled).toContain(start.getDay())
        expect(ahead).toBeGreaterThanOrEqual(today.getDay() <= 3 ? 7 : 14)
        expect(ahead).toBeLessThan((today.getDay() <= 3 ? 7 : 14) + 7)
      }
    }
  })

  it('defaults to every weekday and refuses none', () => {
    expect(formatApiDate(defaultStartDate(day(2026, 1, 14)))).toBe('2026-01-21')
    expect(() => defaultStartDate(day(2026, 1, 14), [])).toThrow(RangeError)
  })

  it('works with the disabled weekdays of a date input', () => {
    expect(enabledWeekdays([0, 2, 3, 4, 5, 6])).toEqual([1])
    expect(formatApiDate(defaultStartDate(day(2026, 1, 12), enabledWeekdays([0, 2, 3, 4, 5, 6])))).toBe('2026-01-19')
  })
})

describe('date formats (DESIGN §1.5)', () => {
  it('reads and writes mm/dd/yyyy', () => {
    expect(parseInputDate('01/05/2026')?.getTime()).toBe(day(2026, 1, 5).getTime())
    expect(parseInputDate('1/5/2026')).toBeNull()
    expect(parseInputDate('02/29/2026')).toBeNull()
    expect(formatInputDate(day(2026, 1, 5))).toBe('01/05/2026')
  })

  it("shows 'MMM DD, YYYY'", () => {
    expect(formatDisplayDate(day(2026, 1, 5))).toBe('Jan 05, 2026')
    expect(formatDisplayDate('2026-12-31')).toBe('Dec 31, 2026')
    expect(formatDisplayDate('')).toBe('')
    expect(formatDisplayDate('not a date')).toBe('')
  })

  it('converts between the API and the input', () => {
    expect(inputToApiDate('03/09/2026')).toBe('2026-03-09')
    expect(inputToApiDate('3/9/2026')).toBeNull()
    expect(apiToInputDate('2026-03-09')).toBe('03/09/2026')
    expect(parseApiDate('2026-02-30')).toBeNull()
  })
})

// The campaign form's today is the business zone's date, not the browser's nor UTC.
describe('todayInZone', () => {
  it('reads the calendar day in the named zone at the midnight boundary', () => {
    const beforeMidnightNY = new Date('2026-11-19T04:59:59Z') // Wed 23:59:59 in New York, Thu in UTC
    const afterMidnightNY = new Date('2026-11-19T05:00:00Z') // Thu 00:00 in New York, Wed 21:00 in Los Angeles
    expect(formatApiDate(todayInZone('America/New_York', beforeMidnightNY))).toBe('2026-11-18')
    expect(formatApiDate(todayInZone('UTC', beforeMidnightNY))).toBe('2026-11-19')
    expect(formatApiDate(todayInZone('America/New_York', afterMidnightNY))).toBe('2026-11-19')
    expect(formatApiDate(todayInZone('America/Los_Angeles', afterMidnightNY))).toBe('2026-11-18')
    // Daylight saving ends on Nov 1 2026: New York is UTC-4 until 06:00Z.
    expect(formatApiDate(todayInZone('America/New_York', new Date('2026-10-31T03:59:00Z')))).toBe('2026-10-30')
    expect(formatApiDate(todayInZone('America/New_York', new Date('2026-10-31T04:00:00Z')))).toBe('2026-10-31')
  })
  it('gives a local midnight, and the browser’s day for no or an unknown zone', () => {
    const d = todayInZone('America/New_York', new Date('2026-11-19T12:00:00Z'))
    expect([d.getHours(), d.getMinutes()]).toEqual([0, 0])
    const now = new Date()
    expect(formatApiDate(todayInZone(undefined, now))).toBe(formatApiDate(now))
    expect(formatApiDate(todayInZone('Mars/Olympus_Mons', now))).toBe(formatApiDate(now))
  })
})
