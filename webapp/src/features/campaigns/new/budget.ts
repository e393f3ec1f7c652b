import { MinDailyMaxBudget } from '../../../platform/api-types/campaigns'

// The money rules of B §9, mirrored from modules/billing/pricing.go (SumPrices, CreditPortions,
// WeeklyTotal, SpendableBudget, CampaignTotal, QuoteCampaign): the one TS copy of them. Amounts
// are whole cents, as on the server, so splitting credit never loses or creates a cent; the API
// speaks dollars (DESIGN §1.4), converted at the edges with toCents / toDollars.

export type Cents = number

export const toCents = (dollars: number): Cents => Math.round(dollars * 100)
export const toDollars = (cents: Cents): number => cents / 100

export function sumPrices(prices: readonly Cents[]): Cents {
  return prices.reduce((sum, p) => sum + p, 0)
}

/**
 * Account credit split evenly across the duration weeks (B §9): the portions differ by at most a
 * cent and add up to the credit exactly, the larger ones first (money.Cents.SplitEven).
 */
export function creditPortions(credit: Cents, weeks: number): Cents[] {
  if (weeks < 1) return []
  const total = Math.max(credit, 0)
  const base = Math.floor(total / weeks)
  const rest = total - base * weeks
  return Array.from({ length: weeks }, (_, i) => base + (i < rest ? 1 : 0))
}

/** The chosen locations' prices minus the week's credit portion, never below 0 (B §9). */
export function weeklyTotal(prices: readonly Cents[], creditPortion: Cents): Cents {
  return Math.max(sumPrices(prices) - Math.max(creditPortion, 0), 0)
}

/** Promo credit adds to what a campaign may spend (B §9). */
export function spendableBudget(weeklyBudget: Cents, promoCredit: Cents): Cents {
  return weeklyBudget + Math.max(promoCredit, 0)
}

/** The weekly total times the duration in weeks (B §9). */
export function campaignTotal(weekly: Cents, weeks: number): Cents {
  return weeks < 1 ? 0 : weekly * weeks
}

export interface WeekQuote {
  gross: Cents
  credit: Cents
  net: Cents
}

export interface CampaignQuote {
  /** The sum of the chosen locations' weekly prices. */
  weekly: Cents
  weeks: WeekQuote[]
  creditUsed: Cents
  total: Cents
}

/** billing.QuoteCampaign: every week's charge after its share of account credit, and the totals. */
export function quoteCampaign(prices: readonly Cents[], accountCredit: Cents, weeks: number): CampaignQuote {
  const quote: CampaignQuote = { weekly: sumPrices(prices), weeks: [], creditUsed: 0, total: 0 }
  for (const portion of creditPortions(accountCredit, weeks)) {
    const net = weeklyTotal(prices, portion)
    const used = quote.weekly - net
    quote.weeks.push({ gross: quote.weekly, credit: used, net })
    quote.creditUsed += used
    quote.total += net
  }
  return quote
}

/** B §9: the smallest daily budget of the maximum-budget type. */
export const MIN_DAILY_BUDGET: Cents = toCents(MinDailyMaxBudget)

/** B §9: the suggested daily budget is the number of chosen locations / 10, rounded up, × 20. */
export function suggestedDailyBudget(selected: number): Cents {
  return selected > 0 ? Math.ceil(selected / 10) * MIN_DAILY_BUDGET : 0
}

/** B §9: in maximum-budget mode the weekly budget is the daily budget × 7. */
export const weeklyFromDaily = (daily: Cents): Cents => daily * 7

/**
 * B §4: selecting any location raises the daily budget to at least 20; clearing every selection
 * blanks it (null). The typed value is kept otherwise.
 */
export function dailyAfterSelection(daily: Cents | null, selected: number): Cents | null {
  if (selected === 0) return null
  return Math.max(daily ?? 0, MIN_DAILY_BUDGET)
}

/**
 * B §9: maximum-budget impressions are the chosen faces' weekly estimates scaled by the budget
 * ratio (the weekly budget over the faces' weekly prices), capped at the total; B §4: a budget
 * below the computed minimum (the suggested daily budget × 7) gives 0.
 */
export function maxBudgetImpressions(input: { faceImpressions: number; prices: Cents; weeklyBudget: Cents; minimum: Cents }): number {
  if (input.faceImpressions <= 0 || input.weeklyBudget <= 0 || input.weeklyBudget < input.minimum) return 0
  if (input.prices <= 0 || input.weeklyBudget >= input.prices) return input.faceImpressions
  return Math.floor((input.faceImpressions * input.weeklyBudget) / input.prices)
}

export interface BudgetSummary {
  /** What the first week costs after its credit portion: the form's weekly budget. */
  weeklyBudget: Cents
  /** The budget the person sets before credit: the prices' sum, or the daily budget × 7. */
  grossWeekly: Cents
  /** The least weekly budget that buys impressions: the prices' sum, or the suggested daily × 7. */
  minimum: Cents
  creditPortion: Cents
  promoCredit: Cents
  /** Weekly budget plus promo credit (B §9). */
  spendable: Cents
  total: Cents
  weeklyImpressions: number
  totalImpressions: number
  /** B §4: false when the budget is below the minimum, which clears the faces' likely flags. */
  likely: boolean
}

/**
 * What the form shows as the person works (B §9): the weekly budget, the totals over the duration
 * and the estimated impressions. Fixed-rate impressions are the chosen faces' weekly estimates; a
 * maximum budget (a daily budget, × 7 a week) scales them by the budget ratio. A budget below the
 * minimum gives 0 impressions (B §4).
 */
export function summarizeBudget(input: {
  prices: readonly Cents[]
  weeklyImpressions: readonly number[]
  accountCredit: Cents
  promoCredit: Cents
  weeks: number
  /** The daily budget of the maximum-budget type; absent for the fixed rate. */
  dailyBudget?: Cents | null
}): BudgetSummary {
  const weeks = Math.max(1, input.weeks)
  const maximum = input.dailyBudget !== undefined
  const prices = sumPrices(input.prices)
  const faceImpressions = input.weeklyImpressions.reduce((s, n) => s + n, 0)
  const grossWeekly = maximum ? weeklyFromDaily(input.dailyBudget ?? 0) : prices
  // The budget is compared before credit: credit pays part of the price, it does not lower it.
  const quote = quoteCampaign(maximum ? [grossWeekly] : input.prices, input.accountCredit, weeks)
  const first = quote.weeks[0] ?? { gross: 0, credit: 0, net: 0 }
  const minimum = maximum ? weeklyFromDaily(suggestedDailyBudget(input.prices.length)) : prices
  let weekly = maximum ? maxBudgetImpressions({ faceImpressions, prices, weeklyBudget: grossWeekly, minimum }) : faceImpressions
  const likely = input.prices.length > 0 && grossWeekly >= minimum
  if (!likely) weekly = 0
  const promoCredit = Math.max(input.promoCredit, 0)
  return {
    weeklyBudget: first.net,
    grossWeekly,
    minimum,
    creditPortion: first.credit,
    promoCredit,
    spendable: spendableBudget(first.net, promoCredit),
    total: quote.total,
    weeklyImpressions: weekly,
    totalImpressions: weekly * weeks,
    likely,
  }
}
