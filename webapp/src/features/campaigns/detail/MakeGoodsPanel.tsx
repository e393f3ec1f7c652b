import type { MakeGood } from '../../../platform/api-types/campaigns'
import { formatDisplayDate } from '../../../platform/dates'
import { formatCount } from '../../../platform/money'
import { formatCredit, totalCredit } from './deliveryRules'

export interface MakeGoodsPanelProps {
  makeGoods: MakeGood[] | undefined
  threshold: number
}

/**
 * The campaign's make-goods. A finished week that delivered less than the threshold of
 * its contracted impressions earned account credit in proportion to its shortfall; a correction
 * of its delivery moves that credit, a waiver takes it back.
 */
export default function MakeGoodsPanel({ makeGoods, threshold }: MakeGoodsPanelProps) {
  const items = makeGoods ?? []
  if (items.length === 0) {
    return (
      <p className="text-sm text-slate-600">
        No make-goods: every finished week with recorded delivery reached {threshold}% of its contracted impressions.
      </p>
    )
  }
  const total = totalCredit(items)
  return (
    <div className="space-y-3">
      <p className="text-sm text-slate-600">
        When a finished week delivers less than {threshold}% of its contracted impressions, we add credit to your account in proportion to the
        shortfall of that week’s price. Credit from make-goods on this campaign: <strong className="text-slate-900">{formatCredit(total)}</strong>.
      </p>
      <ul aria-label="Make-goods" className="divide-y divide-slate-200 rounded-md border border-slate-200">
        {items.map((m) => (
          <li key={m.id} className="flex flex-col gap-1 p-3 sm:flex-row sm:items-center sm:justify-between">
            <span>
              <span className="block font-medium text-slate-900">
                {m.location_name}
                {m.face ? ` (${m.face})` : ''} · week of {formatDisplayDate(m.week_start)}
              </span>
              <span className="block text-sm text-slate-600 tabular-nums">
                {formatCount(m.delivered)} of {formatCount(m.planned)} impressions delivered ({m.delivery_pct.toFixed(1)}%)
              </span>
              {m.status === 'waived' && <span className="block text-sm text-slate-600">Waived: {m.waive_reason}</span>}
            </span>
            <span className="text-right tabular-nums">
              <span className="block font-semibold text-slate-900">{m.status === 'waived' ? 'Waived' : `${formatCredit(m.credit)} credit`}</span>
            </span>
          </li>
        ))}
      </ul>
    </div>
  )
}
