import { describe, expect, it } from 'vitest'
import { campaignTotal, creditPortions, quoteCampaign, spendableBudget, summarizeBudget, toCents, weeklyTotal } from './budget'

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
  it('gives 0 impressions with nothing chosen, or a maximum budget below the minimum', () => {
    expect(summarizeBudget({ prices: [], weeklyImpressions: [], accountCredit: 0, promoCredit: 0, weeks: 1 }).weeklyImpressions).toBe(0)
    const low = summarizeBudget({ prices: [toCents(800)], weeklyImpressions: [50_000], accountCredit: 0, promoCredit: 0, weeks: 1, maxBudget: toCents(600) })
    expect(low.weeklyImpressions).toBe(0)
    const high = summarizeBudget({ prices: [toCents(800)], weeklyImpressions: [50_000], accountCredit: 0, promoCredit: 0, weeks: 3, maxBudget: toCents(1000) })
    expect(high.weeklyImpressions).toBe(198_899)
    expect(high.total).toBe(300_000)
  })
})
