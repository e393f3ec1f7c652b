import { describe, expect, it } from 'vitest'
import {
  campaignTotal,
  creditPortions,
  dailyAfterSelection,
  maxBudgetImpressions,
  quoteCampaign,
  spendableBudget,
  suggestedDailyBudget,
  summarizeBudget,
  toCents,
  toDollars,
  weeklyTotal,
} from './budget'

// The same cases as modules/billing/pricing_test.go: the TS mirror must agree with the server.
describe('billing rules mirrored (B §9)', () => {
  it('splits credit evenly, larger portions first, summing back exactly', () => {
    expect(creditPortions(1000, 3)).toEqual([334, 333, 333])
    expect(creditPortions(0, 2)).toEqual([0, 0])
    expect(creditPortions(-50, 2)).toEqual([0, 0])
    expect(creditPortions(500, 0)).toEqual([])
    for (const [credit, weeks] of [[1, 52], [99_999, 7], [12_345, 52]] as const) {
      expect(creditPortions(credit, weeks).reduce((a, b) => a + b, 0)).toBe(credit)
    }
  })
  it('never goes below 0', () => {
    expect(weeklyTotal([50_000, 25_000], 10_000)).toBe(65_000)
    expect(weeklyTotal([5_000], 10_000)).toBe(0)
    expect(weeklyTotal([5_000], -100)).toBe(5_000)
  })
  it('adds promo credit and multiplies by the duration', () => {
    expect(spendableBudget(50_000, 5_000)).toBe(55_000)
    expect(spendableBudget(50_000, -5)).toBe(50_000)
    expect(campaignTotal(50_000, 4)).toBe(200_000)
    expect(campaignTotal(50_000, 0)).toBe(0)
  })
  it('quotes a campaign week by week', () => {
    const q = quoteCampaign([50_000, 30_000], 10_000, 4)
    expect(q.weekly).toBe(80_000)
    expect(q.weeks.map((w) => w.net)).toEqual([77_500, 77_500, 77_500, 77_500])
    expect(q.creditUsed).toBe(10_000)
    expect(q.total).toBe(310_000)
    const big = quoteCampaign([1_000], 10_000, 2)
    expect(big.weeks.map((w) => w.net)).toEqual([0, 0])
    expect(big.creditUsed).toBe(2_000)
  })
})

describe('summarizeBudget', () => {
  it('shows the first week after credit, the total and the faces’ impressions', () => {
    const s = summarizeBudget({ prices: [toCents(500), toCents(750)], weeklyImpressions: [40_000, 60_000], accountCredit: toCents(100), promoCredit: 0, weeks: 2 })
    expect(s.minimum).toBe(125_000)
    expect(s.weeklyBudget).toBe(120_000)
    expect(s.creditPortion).toBe(5_000)
    expect(s.total).toBe(240_000)
    expect(s.weeklyImpressions).toBe(100_000)
    expect(s.totalImpressions).toBe(200_000)
  })
  it('gives 0 impressions with nothing chosen', () => {
    expect(summarizeBudget({ prices: [], weeklyImpressions: [], accountCredit: 0, promoCredit: 0, weeks: 1 }).weeklyImpressions).toBe(0)
  })
  it('adds the promo credit redeemed in the flow to the spendable budget (B §9)', () => {
    const s = summarizeBudget({ prices: [toCents(500)], weeklyImpressions: [40_000], accountCredit: 0, promoCredit: toCents(50), weeks: 1 })
    expect(s.spendable).toBe(toCents(550))
    expect(s.promoCredit).toBe(toCents(50))
  })
})

// B §4, B §9: the maximum-budget type, turned on by VITE_MAX_BUDGET_CAMPAIGNS (DESIGN §1.7).
describe('maximum budget', () => {
  it('suggests ceil(selected / 10) × 20 a day', () => {
    expect(suggestedDailyBudget(0)).toBe(0)
    expect([1, 10, 11, 20, 21, 35].map((n) => toDollars(suggestedDailyBudget(n)))).toEqual([20, 20, 40, 40, 60, 80])
  })
  it('raises the daily budget to at least 20 on a selection and blanks it when nothing is chosen', () => {
    expect(dailyAfterSelection(null, 1)).toBe(toCents(20))
    expect(dailyAfterSelection(toCents(5), 3)).toBe(toCents(20))
    expect(dailyAfterSelection(toCents(75), 3)).toBe(toCents(75))
    expect(dailyAfterSelection(toCents(75), 0)).toBeNull()
  })
  it('makes the weekly budget the daily × 7, and the total weekly × duration', () => {
    const s = summarizeBudget({ prices: [toCents(500)], weeklyImpressions: [40_000], accountCredit: 0, promoCredit: 0, weeks: 3, dailyBudget: toCents(20) })
    expect(s.weeklyBudget).toBe(toCents(140))
    expect(s.grossWeekly).toBe(toCents(140))
    expect(s.total).toBe(toCents(420))
    expect(s.minimum).toBe(toCents(140))
  })
  it('scales impressions by the budget ratio, capped at the faces’ total', () => {
    const base = { prices: [toCents(700), toCents(700)], weeklyImpressions: [40_000, 60_000], accountCredit: 0, promoCredit: 0, weeks: 2 }
    const half = summarizeBudget({ ...base, dailyBudget: toCents(100) }) // $700 of $1,400
    expect(half.weeklyImpressions).toBe(50_000)
    expect(half.totalImpressions).toBe(100_000)
    expect(half.likely).toBe(true)
    expect(summarizeBudget({ ...base, dailyBudget: toCents(1000) }).weeklyImpressions).toBe(100_000)
    expect(maxBudgetImpressions({ faceImpressions: 100_000, prices: 0, weeklyBudget: 100, minimum: 0 })).toBe(100_000)
  })
  it('gives 0 impressions and no likely flag below the minimum', () => {
    const prices = Array.from({ length: 11 }, () => toCents(100))
    const low = summarizeBudget({ prices, weeklyImpressions: prices.map(() => 1_000), accountCredit: 0, promoCredit: 0, weeks: 1, dailyBudget: toCents(39) })
    expect(low.minimum).toBe(toCents(280))
    expect(low.weeklyImpressions).toBe(0)
    expect(low.likely).toBe(false)
    const ok = summarizeBudget({ prices, weeklyImpressions: prices.map(() => 1_000), accountCredit: 0, promoCredit: 0, weeks: 1, dailyBudget: toCents(40) })
    expect(ok.weeklyImpressions).toBe(Math.floor((11_000 * 28_000) / 110_000))
    expect(ok.likely).toBe(true)
  })
})
