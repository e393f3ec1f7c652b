import { describe, expect, it } from 'vitest'
import { BUDGET_IMPRESSIONS, estimateWeeklyImpressions } from './impressions'

describe('BUDGET_IMPRESSIONS', () => {
  it('matches the B §9 table', () => {
    expect(BUDGET_IMPRESSIONS.map((t) => [t.minWeeklyBudget, t.weeklyImpressions])).toEqual([
      [0, 0],
      [500, 75659],
      [750, 121321],
      [1000, 198899],
      [1250, 259311],
      [1500, 302677],
      [1750, 372677],
      [2000, 431890],
      [2250, 489113],
      [2500, 505911],
      [2750, 597780],
      [3000, 687525],
    ])
  })

  it('is sorted ascending by minimum budget', () => {
    const minimums = BUDGET_IMPRESSIONS.map((t) => t.minWeeklyBudget)
    expect(minimums).toEqual([...new Set(minimums)].sort((a, b) => a - b))
  })
})

describe('estimateWeeklyImpressions', () => {
  // Every tier boundary: one dollar (and one cent) below it, at it, and one dollar above it.
  const boundaries: [number, number][] = [
    [0, 0],
    [1, 0],
    [499, 0],
    [499.99, 0],
    [500, 75659],
    [501, 75659],
    [749, 75659],
    [750, 121321],
    [999, 121321],
    [1000, 198899],
    [1249, 198899],
    [1250, 259311],
    [1499, 259311],
    [1500, 302677],
    [1749, 302677],
    [1750, 372677],
    [1999, 372677],
    [2000, 431890],
    [2249, 431890],
    [2250, 489113],
    [2499, 489113],
    [2500, 505911],
    [2749, 505911],
    [2750, 597780],
    [2999, 597780],
    [2999.99, 597780],
    [3000, 687525],
    [3001, 687525],
    [10000, 687525],
    [Number.MAX_SAFE_INTEGER, 687525],
    [Infinity, 687525],
  ]

  it.each(boundaries)('$%s a week gives %s impressions', (budget, expected) => {
    expect(estimateWeeklyImpressions(budget)).toBe(expected)
  })

  it.each([[-1], [-0.01], [-10000], [-Infinity], [NaN]])('%s gives 0', (budget) => {
    expect(estimateWeeklyImpressions(budget)).toBe(0)
  })
})
