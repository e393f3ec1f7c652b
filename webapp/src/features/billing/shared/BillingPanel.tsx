import { useState } from 'react'
import { useDispatch } from 'react-redux'
import Alert from '../../../platform/Alert'
import Confirm from '../../../platform/Confirm'
import { flashShown } from '../../../platform/flash/flash'
import { errorMessage } from '../../../platform/http'
import Spinner from '../../../platform/Spinner'
import { useAccountCreditQuery, useMyCardQuery, useRemoveCardMutation } from './api'
import CardModal from './CardModal'
import { formatExpiry, maskCard } from './cardRules'
import PromoRedeemModal from './PromoRedeemModal'
import { formatDollars } from '../../../platform/money'

/** B §2 /settings: the saved card, masked, with remove and add. */
export function CardOnFile() {
  const card = useMyCardQuery()
  const [remove, removing] = useRemoveCardMutation()
  const [adding, setAdding] = useState(false)
  const [confirming, setConfirming] = useState(false)
  const dispatch = useDispatch()

  const onRemove = async () => {
    try {
      const answer = await remove().unwrap()
      dispatch(flashShown(answer.message, 'success'))
    } catch (error) {
      dispatch(flashShown(`Sorry! ${errorMessage(error)}`, 'danger'))
    } finally {
      setConfirming(false)
    }
  }

  return (
    <section aria-labelledby="card-on-file" className="space-y-3">
      <h2 id="card-on-file" className="font-semibold text-slate-900">
        Payment card
      </h2>
      {card.isLoading ? (
        <Spinner label="Loading your card" />
      ) : card.isError ? (
        <Alert>{errorMessage(card.error)}</Alert>
      ) : card.data ? (
        <div className="flex flex-col gap-3 rounded-xl border border-slate-200 p-4 sm:flex-row sm:items-center sm:justify-between">
          <div>
            <p className="font-mono text-lg tracking-wide text-slate-900" data-testid="masked-card">
              {card.data.masked || maskCard(card.data.last4)}
            </p>
            <p className="text-sm text-slate-600">
              <span className="capitalize">{card.data.brand}</span> · expires {formatExpiry(card.data.exp_month, card.data.exp_year)}
            </p>
          </div>
          <div className="flex gap-2">
            <button type="button" className="btn-secondary" onClick={() => setAdding(true)}>
              Replace card
            </button>
            <button type="button" className="btn-danger" onClick={() => setConfirming(true)}>
              Remove card
            </button>
          </div>
        </div>
      ) : (
        <div className="flex flex-col gap-3 rounded-xl border border-dashed border-slate-300 p-4 sm:flex-row sm:items-center sm:justify-between">
          <p className="text-slate-600">No card on file yet. Add one to pay for your campaigns.</p>
          <button type="button" className="btn-primary" onClick={() => setAdding(true)}>
            Add card
          </button>
        </div>
      )}
      <CardModal open={adding} onClose={() => setAdding(false)} />
      <Confirm
        open={confirming}
        title="Remove card"
        message="Are you sure you want to remove this card?"
        confirmText="Remove card"
        tone="danger"
        busy={removing.isLoading}
        onConfirm={onRemove}
        onCancel={() => setConfirming(false)}
      />
    </section>
  )
}

/** B §2 /settings: the company's account credit (no cents, B §9) and the promo redeem modal. */
export function AccountCredit() {
  const credit = useAccountCreditQuery()
  const [redeeming, setRedeeming] = useState(false)
  return (
    <section aria-labelledby="account-credit" className="space-y-3">
      <h2 id="account-credit" className="font-semibold text-slate-900">
        Account credit
      </h2>
      <div className="flex flex-col gap-3 rounded-xl border border-slate-200 p-4 sm:flex-row sm:items-center sm:justify-between">
        {credit.isLoading ? (
          <Spinner label="Loading your account credit" />
        ) : credit.isError ? (
          <Alert>{errorMessage(credit.error)}</Alert>
        ) : (
          <p>
            <span className="text-2xl font-semibold text-slate-900 tabular-nums" data-testid="account-credit">
              {formatDollars(credit.data ?? 0)}
            </span>
            <span className="ml-2 text-sm text-slate-600">spent first on your next campaigns</span>
          </p>
        )}
        <button type="button" className="btn-secondary" onClick={() => setRedeeming(true)}>
          Redeem a promo code
        </button>
      </div>
      <PromoRedeemModal open={redeeming} onClose={() => setRedeeming(false)} />
    </section>
  )
}

/** The card and credit panel of /settings. */
export default function BillingPanel() {
  return (
    <div className="space-y-8">
      <CardOnFile />
      <AccountCredit />
    </div>
  )
}
