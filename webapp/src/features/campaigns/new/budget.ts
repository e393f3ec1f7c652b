import { estimateWeeklyImpressions } from '../../../platform/impressions'

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

export interface BudgetSummary {
  /** What the first week costs after its credit portion: the form's weekly budget. */
  weeklyBudget: Cents
  /** The sum of the chosen locations' prices: the minimum weekly budget. */
  minimum: Cents
  creditPortion: Cents
  promoCredit: Cents
  /** Weekly budget plus promo credit. */
  spendable: Cents
  total: Cents
  weeklyImpressions: number
  totalImpressions: number
}

/**
 * What the form shows as the person works (B §9): the weekly budget, the totals over the duration
 * and the estimated impressions. Fixed-rate impressions are the chosen faces' weekly estimates; a
 * maximum budget uses the budget table. A budget below the minimum gives 0 impressions (B §4).
 */
export function summarizeBudget(input: {
  prices: readonly Cents[]
  weeklyImpressions: readonly number[]
  accountCredit: Cents
  promoCredit: Cents
  weeks: number
  maxBudget?: Cents | null
}): BudgetSummary {
  const weeks = Math.max(1, input.weeks)
  const quote = quoteCampaign(input.prices, input.accountCredit, weeks)
  const first = quote.weeks[0] ?? { gross: 0, credit: 0, net: 0 }
  const minimum = quote.weekly
  const weeklyBudget = input.maxBudget ?? first.net
  const spendable = spendableBudget(weeklyBudget, input.promoCredit)
  // The budget is compared before credit: credit pays part of the price, it does not lower it.
  const compared = input.maxBudget ?? first.net + first.credit
  let weekly = input.maxBudget != null ? estimateWeeklyImpressions(toDollars(input.maxBudget)) : input.weeklyImpressions.reduce((s, n) => s + n, 0)
  if (input.prices.length === 0 || compared < minimum) weekly = 0
  return {
    weeklyBudget,
    minimum,
    creditPortion: first.credit,
    promoCredit: Math.max(input.promoCredit, 0),
    spendable,
    total: input.maxBudget != null ? campaignTotal(input.maxBudget, weeks) : quote.total,
    weeklyImpressions: weekly,
    totalImpressions: weekly * weeks,
  }
}
