import { FrequencyOneTime, FrequencyOngoing } from '../../../platform/api-types/campaigns'
import { formatDisplayDate } from '../../../platform/dates'
import Modal from '../../../platform/Modal'
import { formatCount, formatDollars } from '../../../platform/money'
import { toDollars, type BudgetSummary } from './budget'

export interface ReviewData {
  name: string
  area: string
  faces: { id: string; name: string; price: number }[]
  start: Date
  end: Date
  frequency: string
  duration: number
  budget: BudgetSummary
  creativeName: string
  card: string
  /** The promo code redeemed in this flow (B §3 promo_code). */
  promoCode?: string
  /** The daily budget of the maximum-budget type, in cents. */
  dailyBudget?: number | null
}

const frequencyLabel = (f: string) => (f === FrequencyOneTime ? 'One week' : f === FrequencyOngoing ? 'Ongoing' : 'Specified end date')

/** The review and confirm step (B §2): everything the campaign will be, before it is sent. */
export default function ReviewModal({ data, open, busy, onConfirm, onClose, confirmText }: { data: ReviewData | null; open: boolean; busy: boolean; onConfirm: () => void; onClose: () => void; confirmText: string }) {
  return (
    <Modal
      open={open && data !== null}
      title="Review and confirm"
      onClose={() => !busy && onClose()}
      size="lg"
      footer={
        <>
          <button type="button" className="btn-secondary" onClick={onClose} disabled={busy}>
            Back to the form
          </button>
          <button type="button" className="btn-primary" onClick={onConfirm} disabled={busy}>
            {busy ? 'Sending…' : confirmText}
          </button>
        </>
      }
    >
      {data && (
        <dl className="grid grid-cols-1 gap-x-6 gap-y-3 text-sm sm:grid-cols-2">
          <Item label="Campaign name" value={data.name} />
          <Item label="Where" value={data.area} />
          <Item label="Start" value={formatDisplayDate(data.start)} />
          <Item label="End" value={data.frequency === FrequencyOngoing ? `${formatDisplayDate(data.end)}, then week after week` : formatDisplayDate(data.end)} />
          <Item label="Frequency" value={frequencyLabel(data.frequency)} />
          <Item label="Duration" value={`${data.duration} ${data.duration === 1 ? 'week' : 'weeks'}`} />
          {data.dailyBudget != null && <Item label="Daily budget" value={formatDollars(toDollars(data.dailyBudget))} />}
          <Item label="Weekly budget" value={formatDollars(toDollars(data.budget.weeklyBudget))} />
          <Item label="Spendable budget" value={formatDollars(toDollars(data.budget.spendable))} />
          <Item label="Total" value={formatDollars(toDollars(data.budget.total))} />
          <Item label="Estimated impressions" value={`${formatCount(data.budget.weeklyImpressions)} a week · ${formatCount(data.budget.totalImpressions)} in all`} />
          <Item label="Creative" value={data.creativeName} />
          {data.promoCode && <Item label="Promo code" value={data.promoCode} />}
          <Item label="Card" value={data.card} />
          <div className="sm:col-span-2">
            <dt className="font-medium text-slate-500">Locations ({data.faces.length})</dt>
            <dd>
              <ul tabIndex={0} aria-label="Chosen locations" className="mt-1 max-h-40 overflow-auto rounded-lg bg-slate-50 px-3 py-2">
                {data.faces.map((f) => (
                  <li key={f.id} className="flex justify-between gap-4 py-0.5">
                    <span className="text-slate-800">{f.name}</span>
                    <span className="text-slate-600">{formatDollars(f.price)}/week</span>
                  </li>
                ))}
              </ul>
            </dd>
          </div>
        </dl>
      )}
    </Modal>
  )
}

function Item({ label, value }: { label: string; value: string }) {
  return (
    <div>
      <dt className="font-medium text-slate-500">{label}</dt>
      <dd className="text-slate-900">{value}</dd>
    </div>
  )
}
