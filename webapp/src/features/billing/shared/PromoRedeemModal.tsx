import { useState, type FormEvent } from 'react'
import Alert from '../../../platform/Alert'
import { useFocusFirstInvalid } from '../../../platform/forms'
import { errorMessage } from '../../../platform/http'
import Field, { describedBy } from '../../../platform/inputs/Field'
import Modal from '../../../platform/Modal'
import { useRedeemPromoMutation } from './api'
import type { RedeemPromoResponse } from '../../../platform/api-types/billing'
import { formatDollars } from '../../../platform/money'
import { promoCodeError, redeemFailure, withoutWhitespace } from './promoRules'

export interface PromoRedeemModalProps {
  open: boolean
  onClose: () => void
  /** Called with the server's answer and the code (as redeemed) once the amount is on the company's credit. */
  onRedeemed?: (answer: RedeemPromoResponse, code: string) => void
}

/**
 * The promo redeem modal of B §2: a code without whitespace (B §7); the button is disabled during
 * the call; the answer's message and amount are shown, and a failure stays as 'Sorry! ' plus the
 * server message (B §8).
 */
export default function PromoRedeemModal({ open, onClose, onRedeemed }: PromoRedeemModalProps) {
  return open ? <OpenPromoRedeemModal onClose={onClose} onRedeemed={onRedeemed} /> : null
}

function OpenPromoRedeemModal({ onClose, onRedeemed }: Omit<PromoRedeemModalProps, 'open'>) {
  const [code, setCode] = useState('')
  const [error, setError] = useState<string | null>(null)
  const [failure, setFailure] = useState<string | null>(null)
  const [redeemed, setRedeemed] = useState<RedeemPromoResponse | null>(null)
  const [redeem, { isLoading }] = useRedeemPromoMutation()
  const { ref, focusInvalid } = useFocusFirstInvalid()

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault()
    if (isLoading) return
    const found = promoCodeError(code)
    setError(found)
    if (found) {
      focusInvalid()
      return
    }
    setFailure(null)
    try {
      const answer = await redeem({ code }).unwrap()
      setRedeemed(answer)
      onRedeemed?.(answer, withoutWhitespace(code).toUpperCase())
    } catch (cause) {
      setFailure(redeemFailure(errorMessage(cause)))
    }
  }

  return (
    <Modal
      open
      title="Redeem a promo code"
      onClose={onClose}
      size="sm"
      footer={
        redeemed ? (
          <button type="button" className="btn-primary" onClick={onClose}>
            Done
          </button>
        ) : (
          <>
            <button type="button" className="btn-secondary" onClick={onClose}>
              Cancel
            </button>
            <button type="submit" form="promo-redeem-form" className="btn-primary" disabled={isLoading}>
              {isLoading ? 'Redeeming…' : 'Redeem'}
            </button>
          </>
        )
      }
    >
      {redeemed ? (
        <Alert tone="success">
          <p>{redeemed.message}</p>
          <p className="mt-1 font-semibold">{formatDollars(redeemed.amount)} added to your account credit.</p>
        </Alert>
      ) : (
        <form id="promo-redeem-form" ref={ref} noValidate onSubmit={onSubmit} className="space-y-4">
          {failure && <Alert>{failure}</Alert>}
          <Field id="promo-code" label="Promo code" error={error} hint="Letters and digits, no spaces.">
            <input
              id="promo-code"
              name="promo-code"
              type="text"
              autoComplete="off"
              autoCapitalize="characters"
              spellCheck={false}
              className="field-input"
              value={code}
              disabled={isLoading}
              aria-invalid={error ? true : undefined}
              aria-describedby={describedBy('promo-code', 'hint', error)}
              onKeyDown={(e) => {
                // B §7: whitespace is not allowed, so a typed space does nothing.
                if (/^\s$/.test(e.key)) e.preventDefault()
              }}
              onChange={(e) => {
                setCode(withoutWhitespace(e.target.value))
                setError(null)
              }}
            />
          </Field>
        </form>
      )}
    </Modal>
  )
}
