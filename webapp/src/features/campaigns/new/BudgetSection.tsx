import { formatCount, formatDollars } from '../../../platform/money'
import { toDollars, type BudgetSummary } from './budget'

/** The live weekly budget, spendable budget, total and impressions (B §9), and the account credit. */
export default function BudgetSection({
  budget,
  weeks,
  credit,
  promo,
  onRedeem,
}: {
  budget: BudgetSummary
  weeks: number
  /** The account credit, in dollars. */
  credit: number
  promo: { code: string; amount: number } | null
  onRedeem: () => void
}) {
  return (
    <section className="card space-y-4 p-4 sm:p-6" aria-labelledby="budget-title">
      <h2 id="budget-title" className="text-lg font-semibold text-slate-900">
        Budget
      </h2>
      <dl className="grid gap-4 sm:grid-cols-2 lg:grid-cols-5">
        <div data-tour="budgets" className="rounded-xl bg-brand-50 p-4">
          <dt className="text-xs font-medium uppercase tracking-wide text-brand-800">Weekly budget</dt>
          <dd className="mt-1 text-2xl font-semibold text-slate-900" data-testid="weekly-budget">
            {formatDollars(toDollars(budget.weeklyBudget))}
          </dd>
          {budget.creditPortion > 0 && <dd className="text-xs text-slate-600">after {formatDollars(toDollars(budget.creditPortion))} of account credit a week</dd>}
        </div>
        <div className="rounded-xl bg-slate-50 p-4">
          <dt className="text-xs font-medium uppercase tracking-wide text-slate-600">Spendable budget</dt>
          <dd className="mt-1 text-2xl font-semibold text-slate-900" data-testid="spendable-budget">
            {formatDollars(toDollars(budget.spendable))}
          </dd>
          <dd className="text-xs text-slate-600">{budget.promoCredit > 0 ? `weekly budget + ${formatDollars(toDollars(budget.promoCredit))} of promo credit` : 'weekly budget + promo credit'}</dd>
        </div>
        <div className="rounded-xl bg-slate-50 p-4">
          <dt className="text-xs font-medium uppercase tracking-wide text-slate-600">Total for {weeks} {weeks === 1 ? 'week' : 'weeks'}</dt>
          <dd className="mt-1 text-2xl font-semibold text-slate-900" data-testid="total-budget">
            {formatDollars(toDollars(budget.total))}
          </dd>
        </div>
        <div data-tour="impressions" className="rounded-xl bg-slate-50 p-4">
          <dt className="text-xs font-medium uppercase tracking-wide text-slate-600">Estimated impressions</dt>
          <dd className="mt-1 text-2xl font-semibold text-slate-900" data-testid="impressions">
            {formatCount(budget.weeklyImpressions)}
          </dd>
          <dd className="text-xs text-slate-600">a week · {formatCount(budget.totalImpressions)} in all</dd>
        </div>
        <div className="rounded-xl bg-slate-50 p-4">
          <dt className="text-xs font-medium uppercase tracking-wide text-slate-600">Account credit</dt>
          <dd className="mt-1 text-2xl font-semibold text-slate-900" data-testid="account-credit">
            {formatDollars(credit)}
          </dd>
          <dd>
            <button type="button" className="text-xs font-medium text-brand-700 underline" onClick={onRedeem}>
              Redeem a promo code
            </button>
          </dd>
          {promo && <dd className="text-xs text-emerald-700">Promo {promo.code} of {formatDollars(promo.amount)} added to your credit</dd>}
        </div>
      </dl>
    </section>
  )
}
