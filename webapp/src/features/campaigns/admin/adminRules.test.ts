import { describe, expect, it } from 'vitest'
import {
  MsgAdminLocationReq,
  MsgDurationTooLong,
  MsgEndBeforeStart,
  MsgEndNotSunday,
  MsgNameRequired,
  MsgStartNotMonday,
  MsgWeeksInconsistent,
  type Campaign,
  type Week,
} from '../../../platform/api-types/campaigns'
import { formatApiDate, parseApiDate } from '../../../platform/dates'
import {
  durationWeeks,
  groupByProduct,
  minEndDate,
  oneTimeEndDate,
  parseImpressions,
  toCampaignForm,
  toWeekMoves,
  validateAdminEdit,
  validateWeekRows,
  weekHasStarted,
  withNewStart,
  type AdminEditValues,
  type WeekRow,
} from './adminRules'
import { makeWeek } from './testData'

const d = (s: string) => parseApiDate(s)!

const valid: AdminEditValues = { name: 'Winter sale', startDate: '12/07/2026', endDate: '12/20/2026', frequency: 'weekly', locations: ['f1'] }

describe('B §5 admin date rules', () => {
  it('ends a one-time campaign 6 days after its start; otherwise the end is at least start + 7', () => {
    expect(formatApiDate(oneTimeEndDate(d('2026-12-07')))).toBe('2026-12-13')
    expect(formatApiDate(minEndDate(d('2026-12-07'), 'one-time'))).toBe('2026-12-13')
    expect(formatApiDate(minEndDate(d('2026-12-07'), 'weekly'))).toBe('2026-12-14')
    expect(formatApiDate(minEndDate(d('2026-12-07'), 'ongoing'))).toBe('2026-12-14')
  })

  it('counts whole weeks plus one, at least 1; one-time and ongoing run 1 week', () => {
    expect(durationWeeks(d('2026-12-07'), d('2026-12-20'), 'weekly')).toBe(2)
    expect(durationWeeks(d('2026-12-07'), d('2026-12-13'), 'weekly')).toBe(1)
    expect(durationWeeks(d('2026-12-07'), d('2027-12-05'), 'weekly')).toBe(52)
    expect(durationWeeks(d('2026-12-07'), d('2027-03-07'), 'one-time')).toBe(1)
    expect(durationWeeks(d('2026-12-07'), null, 'ongoing')).toBe(1)
  })

  it('accepts a valid edit', () => {
    expect(validateAdminEdit(valid)).toEqual({})
    expect(validateAdminEdit({ ...valid, frequency: 'one-time', endDate: '' })).toEqual({})
  })

  it("refuses no locations with 'Please select at least one location!'", () => {
    expect(validateAdminEdit({ ...valid, locations: [] }).locations).toBe(MsgAdminLocationReq)
    expect(MsgAdminLocationReq).toBe('Please select at least one location!')
  })

  it('allows Mondays only for the start, and a later Sunday for the end', () => {
    expect(validateAdminEdit({ ...valid, startDate: '12/08/2026' }).startDate).toBe(MsgStartNotMonday)
    expect(validateAdminEdit({ ...valid, endDate: '12/13/2026' }).endDate).toBe(MsgEndBeforeStart)
    expect(validateAdminEdit({ ...valid, endDate: '12/19/2026' }).endDate).toBe(MsgEndNotSunday)
    expect(validateAdminEdit({ ...valid, endDate: '12/12/2027' }).endDate).toBe(MsgDurationTooLong)
    expect(validateAdminEdit({ ...valid, name: '  ' }).name).toBe(MsgNameRequired)
  })
})

describe('toCampaignForm', () => {
  const campaign = {
    id: 'k1', mb_campaign: false, strategy: 1, market: ['Denver'], cities: [], place_id: '', radiusCheckValue: 0,
    creative_id: 'cr1', weekly_budget: 1250, max_budget: 0, impression_count: 259311, promo_code: '',
  } as unknown as Campaign

  it('keeps the campaign and sends the admin’s name, dates, duration and locations without prices', () => {
    const form = toCampaignForm(campaign, { ...valid, locations: ['f1', 'f2'] })
    expect(form).toMatchObject({
      name: 'Winter sale', typeCampaign: 1, strategySelected: 1, marketsSelected: ['Denver'],
      places_checked: [{ id: 'f1' }, { id: 'f2' }], startDate: '2026-12-07', endDate: '2026-12-20',
      frequencySelected: 'weekly', duration: 2, creative_id: 'cr1', weekly_budget: '1250',
    })
    expect(form).not.toHaveProperty('citiesSelected')
    expect(form).not.toHaveProperty('use_default_creative')
  })

  it('asks for the company’s default creative when the campaign has none of its own', () => {
    const form = toCampaignForm({ ...campaign, creative_id: '' }, valid)
    expect(form.use_default_creative).toBe(true)
    expect(form).not.toHaveProperty('creative_id')
  })

  it('sends start + 6 as the end of a one-time campaign', () => {
    const form = toCampaignForm(campaign, { ...valid, frequency: 'one-time', endDate: '03/01/2027' })
    expect(form.endDate).toBe('2026-12-13')
    expect(form.duration).toBe(1)
  })
})

describe('edit weeks (B §5)', () => {
  const row = (week: Week, startAt: string, endAt: string, selected = true): WeekRow => ({ week, selected, startAt, endAt })

  it('groups the weeks per product, each in date order', () => {
    const groups = groupByProduct([
      makeWeek(3, { product_id: 'f2', start_at: '2026-12-07', product: { ...makeWeek(0).product, location_name: 'Elm St', face: '' } }),
      makeWeek(2, { start_at: '2026-12-14', end_at: '2026-12-20' }),
      makeWeek(1),
    ])
    expect(groups.map((g) => [g.name, g.weeks.map((w) => w.id)])).toEqual([
      ['Main & 5th (North)', ['w1', 'w2']],
      ['Elm St', ['w3']],
    ])
  })

  it("refuses two ranges for one product with 'There are inconsistencies, …'", () => {
    const a = makeWeek(1)
    const b = makeWeek(2, { start_at: '2026-12-14', end_at: '2026-12-20' })
    const other = makeWeek(3, { product_id: 'f2' })
    expect(validateWeekRows([row(a, '01/04/2027', '01/17/2027'), row(b, '01/04/2027', '01/17/2027'), row(other, '12/14/2026', '12/20/2026')]).form).toBeNull()
    expect(validateWeekRows([row(a, '01/04/2027', '01/17/2027'), row(b, '01/11/2027', '01/17/2027')]).form).toBe(MsgWeeksInconsistent)
    // Unselected weeks are not part of the update.
    expect(validateWeekRows([row(a, '01/04/2027', '01/17/2027'), row(b, '01/11/2027', '01/17/2027', false)]).form).toBeNull()
  })

  it('checks each selected range runs from a Monday to a later Sunday', () => {
    const a = makeWeek(1)
    expect(validateWeekRows([row(a, '01/05/2027', '01/17/2027')]).rows).toEqual({ w1: MsgStartNotMonday })
    expect(validateWeekRows([row(a, '01/04/2027', '01/16/2027')]).rows).toEqual({ w1: MsgEndNotSunday })
    expect(validateWeekRows([row(a, '01/04/2027', '01/03/2027')]).rows).toEqual({ w1: MsgEndBeforeStart })
  })

  it('moves the end with a new start, keeping the range’s length', () => {
    const a = makeWeek(1)
    expect(withNewStart(row(a, '12/07/2026', '12/13/2026'), '01/04/2027')).toMatchObject({ startAt: '01/04/2027', endAt: '01/10/2027' })
    expect(withNewStart(row(a, '12/07/2026', '12/20/2026'), '01/04/2027')).toMatchObject({ endAt: '01/17/2027' })
    expect(withNewStart(row(a, '12/07/2026', ''), '01/04/2027')).toMatchObject({ endAt: '01/10/2027' })
    // While the date is being typed, the end stays.
    expect(withNewStart(row(a, '12/07/2026', '12/13/2026'), '01/0')).toMatchObject({ startAt: '01/0', endAt: '12/13/2026' })
  })

  it('sends the selected weeks with their product and range as YYYY-MM-DD', () => {
    const a = makeWeek(1)
    const b = makeWeek(2)
    expect(toWeekMoves([row(a, '01/04/2027', '01/10/2027'), row(b, '01/04/2027', '01/10/2027', false)])).toEqual([
      { id: 'w1', product_id: 'f1', start_at: '2027-01-04', end_at: '2027-01-10' },
    ])
  })
})

describe('delivery', () => {
  it('is recorded for weeks that have started', () => {
    const week = makeWeek(1, { start_at: '2026-12-07', end_at: '2026-12-13' })
    expect(weekHasStarted(week, d('2026-12-06'))).toBe(false)
    expect(weekHasStarted(week, d('2026-12-07'))).toBe(true)
    expect(weekHasStarted(week, d('2027-01-01'))).toBe(true)
  })

  it('reads actual impressions as a whole number of 0 or more', () => {
    expect(parseImpressions('12,500')).toBe(12500)
    expect(parseImpressions(' 0 ')).toBe(0)
    expect(parseImpressions('')).toBeNull()
    expect(parseImpressions('-3')).toBeNull()
    expect(parseImpressions('1.5')).toBeNull()
    expect(parseImpressions('abc')).toBeNull()
    expect(parseImpressions('1,000,000,000')).toBe(1_000_000_000)
    expect(parseImpressions('1000000001')).toBeNull()
  })
})
