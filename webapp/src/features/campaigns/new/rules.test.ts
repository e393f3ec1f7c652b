import { describe, expect, it } from 'vitest'
import { MsgCardRequired, MsgCreativeRequired, MsgDurationTooLong, MsgInvalidNumber, MsgLocationRequired, TypeMaximumBudget, TypePremium } from '../../../platform/api-types/campaigns'
import { formatApiDate } from '../../../platform/dates'
import {
  canCheck,
  citiesForSave,
  defaultStart,
  durationForFrequency,
  durationFromEnd,
  earliestStart,
  endDateFor,
  keepAvailable,
  newIdempotencyKey,
  parseBudget,
  showOnlyChecked,
  validateCampaign,
  type PriceData,
} from './rules'

const d = (iso: string) => {
  const [y, m, day] = iso.split('-').map(Number)
  return new Date(y!, m! - 1, day!)
}
const iso = (date: Date) => formatApiDate(date)

// Nov 2026: Mon 16, Tue 17, Wed 18, Thu 19, Fri 20, Sat 21, Sun 22, Mon 23, Mon 30.
describe('earliestStart: the Wednesday cut-off (B §9)', () => {
  it.each([
    ['2026-11-16', '2026-11-23'], // Monday → next Monday
    ['2026-11-17', '2026-11-23'],
    ['2026-11-18', '2026-11-23'], // Wednesday is the cut-off day itself
    ['2026-11-19', '2026-11-30'], // Thursday → the Monday after
    ['2026-11-21', '2026-11-30'],
    ['2026-11-22', '2026-11-30'], // Sunday: tomorrow's Monday is past its cut-off
  ])('%s → %s', (today, want) => expect(iso(earliestStart(d(today)))).toBe(want))

  it('is always a Monday at least 5 days ahead, for every day of a year', () => {
    for (let i = 0; i < 366; i++) {
      const today = new Date(2026, 0, 1 + i)
      const start = earliestStart(today)
      expect(start.getDay()).toBe(1)
      const days = Math.round((start.getTime() - today.getTime()) / 86_400_000)
      expect(days).toBeGreaterThanOrEqual(5)
      expect(days).toBeLessThanOrEqual(14)
    }
  })
})

describe('defaultStart (A §5, B §4)', () => {
  it.each([
    ['2026-11-16', '2026-11-23'], // Monday (1 ≤ 3): Monday on or after +7
    ['2026-11-18', '2026-11-30'], // Wednesday: +7 is Wed 25 → Monday 30
    ['2026-11-19', '2026-12-07'], // Thursday: +14 is Thu Dec 3 → Monday Dec 7
    ['2026-11-22', '2026-11-30'], // Sunday (0 ≤ 3): +7 is Sun 29 → Monday 30
  ])('%s → %s', (today, want) => expect(iso(defaultStart(d(today)))).toBe(want))

  it('is never before the earliest start', () => {
    for (let i = 0; i < 366; i++) {
      const today = new Date(2026, 0, 1 + i)
      expect(defaultStart(today).getTime()).toBeGreaterThanOrEqual(earliestStart(today).getTime())
    }
  })
})

describe('ends and durations (B §4)', () => {
  it('ends on the Sunday closing the last week', () => {
    expect(iso(endDateFor(d('2026-11-23'), 1))).toBe('2026-11-29')
    expect(iso(endDateFor(d('2026-11-23'), 2))).toBe('2026-12-06')
    expect(iso(endDateFor(d('2026-11-23'), 52))).toBe('2027-11-21')
  })
  it('counts whole weeks plus one, minimum 1', () => {
    expect(durationFromEnd(d('2026-11-23'), d('2026-11-29'))).toBe(1)
    expect(durationFromEnd(d('2026-11-23'), d('2026-12-06'))).toBe(2)
    expect(durationFromEnd(d('2026-11-23'), d('2026-11-23'))).toBe(1)
    expect(durationFromEnd(d('2026-11-23'), d('2026-11-01'))).toBe(1)
  })
  it('round-trips end ↔ duration for 1…53 weeks, across daylight-saving changes', () => {
    for (const start of [d('2026-03-02'), d('2026-10-26'), d('2026-11-23')]) {
      for (let weeks = 1; weeks <= 53; weeks++) {
        const end = endDateFor(start, weeks)
        expect(end.getDay()).toBe(0)
        expect(durationFromEnd(start, end)).toBe(weeks)
      }
    }
  })
  it('one-time and ongoing force 1; weekly defaults to 2 and keeps a longer duration', () => {
    expect(durationForFrequency('one-time', 5)).toBe(1)
    expect(durationForFrequency('ongoing', 5)).toBe(1)
    expect(durationForFrequency('weekly')).toBe(2)
    expect(durationForFrequency('weekly', 1)).toBe(2)
    expect(durationForFrequency('weekly', 7)).toBe(7)
  })
})

describe('face checks (B §4)', () => {
  const priced: PriceData = { loaded: true, price: 500, available: true, impressionsEst: 1000 }
  it('needs a loaded price, availability and the type', () => {
    expect(canCheck({ id: 'a' }, undefined, TypePremium)).toBe(false)
    expect(canCheck({ id: 'a' }, { ...priced, loaded: false }, TypePremium)).toBe(false)
    expect(canCheck({ id: 'a' }, { ...priced, available: false }, TypePremium)).toBe(false)
    expect(canCheck({ id: 'a' }, priced, TypePremium)).toBe(true)
    expect(canCheck({ id: 'a', exclude_maximize_budget: true }, priced, TypePremium)).toBe(true)
    expect(canCheck({ id: 'a', exclude_maximize_budget: true }, priced, TypeMaximumBudget)).toBe(false)
  })
  it('keeps a check after a start-date change only if the face is still available', () => {
    const prices = new Map<string, PriceData>([
      ['a', priced],
      ['b', { ...priced, available: false }],
    ])
    expect(keepAvailable(['a', 'b', 'c'], prices)).toEqual(['a'])
    expect(keepAvailable(['a', 'b'], prices, new Set(['b']))).toEqual(['a', 'b'])
  })
  it('turns show-only-checked off when nothing is chosen', () => {
    expect(showOnlyChecked(true, 0)).toBe(false)
    expect(showOnlyChecked(true, 2)).toBe(true)
    expect(showOnlyChecked(false, 2)).toBe(false)
  })
})

describe('budget input and saving (B §3, §5)', () => {
  it.each([
    ['$1,250', 1250],
    ['1250', 1250],
    ['99.50', 99.5],
  ])('%s is %s', (text, value) => expect(parseBudget(text)).toEqual({ value, error: null }))
  it.each(['abc', '', '$', '12a', '-5', '1.234'])('%j is not a number', (text) => expect(parseBudget(text)).toEqual({ value: null, error: MsgInvalidNumber }))
  it('removes an empty cities list', () => {
    expect(citiesForSave([])).toBeUndefined()
    expect(citiesForSave([' '])).toBeUndefined()
    expect(citiesForSave(['Oakland'])).toEqual(['Oakland'])
  })
})

describe('validateCampaign: every B §5 message', () => {
  const ok = { name: 'Spring', checkedCount: 1, duration: 2, hasCreative: true, useDefaultCreative: false, hasDefaultCreative: false, hasCard: true }
  it('passes a complete form', () => expect(validateCampaign(ok)).toEqual({}))
  it('names each rule', () => {
    expect(validateCampaign({ ...ok, checkedCount: 0 }).locations).toBe(MsgLocationRequired)
    expect(validateCampaign({ ...ok, duration: 53 }).duration).toBe(MsgDurationTooLong)
    expect(validateCampaign({ ...ok, duration: 52 }).duration).toBeUndefined()
    expect(validateCampaign({ ...ok, hasCreative: false }).creative).toBe(MsgCreativeRequired)
    expect(validateCampaign({ ...ok, hasCreative: false, useDefaultCreative: true, hasDefaultCreative: true }).creative).toBeUndefined()
    expect(validateCampaign({ ...ok, hasCreative: false, useDefaultCreative: true, hasDefaultCreative: false }).creative).toBe(MsgCreativeRequired)
    expect(validateCampaign({ ...ok, hasCard: false }).card).toBe(MsgCardRequired)
    expect(validateCampaign({ ...ok, budgetText: 'abc' }).budget).toBe(MsgInvalidNumber)
  })
})

it('makes a fresh Idempotency-Key each time', () => {
  const a = newIdempotencyKey()
  expect(a.length).toBeGreaterThan(8)
  expect(a.length).toBeLessThanOrEqual(100)
  expect(newIdempotencyKey()).not.toBe(a)
})
