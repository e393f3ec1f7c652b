/** One row of the budget table: a weekly budget of at least `minWeeklyBudget` dollars buys about `weeklyImpressions`. */
export interface BudgetTier {
  minWeeklyBudget: number
  weeklyImpressions: number
}

// B §9 "Impressions by minimum weekly budget", ascending by minimum.
export const BUDGET_IMPRESSIONS: readonly BudgetTier[] = [
  { minWeeklyBudget: 0, weeklyImpressions: 0 },
  { minWeeklyBudget: 500, weeklyImpressions: 75_659 },
  { minWeeklyBudget: 750, weeklyImpressions: 121_321 },
  { minWeeklyBudget: 1000, weeklyImpressions: 198_899 },
  { minWeeklyBudget: 1250, weeklyImpressions: 259_311 },
  { minWeeklyBudget: 1500, weeklyImpressions: 302_677 },
  { minWeeklyBudget: 1750, weeklyImpressions: 372_677 },
  { minWeeklyBudget: 2000, weeklyImpressions: 431_890 },
  { minWeeklyBudget: 2250, weeklyImpressions: 489_113 },
  { minWeeklyBudget: 2500, weeklyImpressions: 505_911 },
  { minWeeklyBudget: 2750, weeklyImpressions: 597_780 },
  { minWeeklyBudget: 3000, weeklyImpressions: 687_525 },
]

/**
 * Estimated weekly impressions for a weekly budget in dollars: the impressions of the highest tier
 * whose minimum is at or below the budget. A negative or NaN budget gives 0.
 */
export function estimateWeeklyImpressions(weeklyBudgetDollars: number): number {
  if (Number.isNaN(weeklyBudgetDollars) || weeklyBudgetDollars < 0) return 0
  let impressions = 0
  for (const tier of BUDGET_IMPRESSIONS) {
    if (tier.minWeeklyBudget > weeklyBudgetDollars) break
    impressions = tier.weeklyImpressions
  }
  return impressions
}
