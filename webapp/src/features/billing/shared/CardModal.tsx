import { useState, type FormEvent } from 'react'
import { useDispatch } from 'react-redux'
import Alert from '../../../platform/Alert'
import { flashShown } from '../../../platform/flash/flash'
import { useFocusFirstInvalid } from '../../../platform/forms'
import { errorMessage, isApiError } from '../../../platform/http'
import Field, { describedBy } from '../../../platform/inputs/Field'
import Modal from '../../../platform/Modal'
import Spinner from '../../../platform/Spinner'
import { useAddCardMutation, useBillingConfigQuery } from './api'
import {
  cardDigits,
  cardFailureMessage,
  cardNumberError,
  EXPIRY_MONTHS,
  expiryYears,
  formatCardNumber,
  isCardNumberFailure,
  MSG_CARD_ADDED,
  MSG_CARD_ADDED_IN_FLOW,
  validateCard,
  type CardFailure,
  type CardForm,
  type CardFormErrors,
} from './cardRules'
import type { Card } from '../../../platform/api-types/billing'
import StripeCardFields, { type StripeTokenizer } from './StripeCardFields'
import { tokenizeWithSandbox, type TokenizeResult } from './tokenize'

export interface CardModalProps {
  open: boolean
  onClose: () => void
  /** B §2: opened from /campaigns/new, the modal hands the card back to the campaign form. */
  inCampaignFlow?: boolean
  onCardAdded?: (card: Card) => void
  /** "Today", for the expiry years; the app clock by default. */
  today?: Date
}

/**
 * The credit card modal of B §2: number, expiry month and year, security code. The card is
 * tokenised by the gateway's client code and only the token goes to POST /api/cards.
 */
export default function CardModal({ open, onClose, inCampaignFlow = false, onCardAdded, today }: CardModalProps) {
  return open ? <OpenCardModal onClose={onClose} inCampaignFlow={inCampaignFlow} onCardAdded={onCardAdded} today={today ?? new Date()} /> : null
}

function OpenCardModal({ onClose, inCampaignFlow, onCardAdded, today }: Omit<CardModalProps, 'open' | 'today'> & { today: Date }) {
  const config = useBillingConfigQuery()
  const [number, setNumber] = useState('')
  const [expMonth, setExpMonth] = useState<number | null>(null)
  const [expYear, setExpYear] = useState<number | null>(null)
  const [cvc, setCvc] = useState('')
  const [errors, setErrors] = useState<CardFormErrors>({})
  const [failure, setFailure] = useState<string | null>(null)
  // The fields a gateway refusal is about: marked invalid and described by the failure message.
  const [flagged, setFlagged] = useState<(keyof CardForm)[]>([])
  const [tokenizing, setTokenizing] = useState(false)
  const [stripeTokenizer, setStripeTokenizer] = useState<StripeTokenizer | null>(null)
  const [addCard, adding] = useAddCardMutation()
  const dispatch = useDispatch()
  const { ref, focusInvalid } = useFocusFirstInvalid()
  const busy = tokenizing || adding.isLoading
  const stripeKey = config.data?.gateway === 'stripe' ? config.data.publishable_key : undefined

  const fail = (cause: CardFailure) => {
    const message = cardFailureMessage(cause)
    setFailure(message)
    setErrors({})
    setFlagged(isCardNumberFailure(cause) ? ['number'] : ['expMonth', 'expYear', 'cvc'])
    focusInvalid()
  }

  const tokenize = async (): Promise<TokenizeResult | null> => {
    if (stripeKey) {
      return stripeTokenizer ? stripeTokenizer() : null
    }
    const found = validateCard({ number, expMonth, expYear, cvc }, today)
    setErrors(found)
    if (Object.keys(found).length > 0) {
      focusInvalid()
      return null
    }
    return tokenizeWithSandbox({ number: cardDigits(number), exp_month: expMonth!, exp_year: expYear!, cvc })
  }

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault()
    if (busy) return
    setFailure(null)
    setFlagged([])
    setTokenizing(true)
    let result: TokenizeResult | null
    try {
      result = await tokenize()
    } finally {
      setTokenizing(false)
    }
    if (!result) return
    if (result.failure) {
      fail(result.failure)
      return
    }
    const { token } = result
    try {
      const answer = await addCard({ token: token.id, exp_month: token.card.exp_month, exp_year: token.card.exp_year }).unwrap()
      // B §8: inside the campaign flow the wording is the flow's own.
      dispatch(flashShown(inCampaignFlow ? MSG_CARD_ADDED_IN_FLOW : MSG_CARD_ADDED, 'success'))
      if (answer.card) onCardAdded?.(answer.card)
      onClose()
    } catch (error) {
      if (isApiError(error) && (error.status === 0 || error.status >= 500)) {
        setFailure(errorMessage(error))
        return
      }
      fail(isApiError(error) ? { message: error.message, code: error.code, errors: error.errors } : {})
    }
  }

  const otherError = errors.expMonth ?? errors.expYear ?? errors.cvc
  const otherErrorId = 'card-expiry-cvc-error'
  const failureId = 'card-failure'
  /** The id that explains why a field is invalid, if it is. */
  const reason = (field: keyof CardForm, ownErrorId: string) => (errors[field] ? ownErrorId : flagged.includes(field) ? failureId : undefined)

  return (
    <Modal
      open
      title="Add a payment card"
      description={inCampaignFlow ? 'The card pays for this campaign.' : 'The card pays for your campaigns.'}
      onClose={onClose}
      footer={
        <>
          <button type="button" className="btn-secondary" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" form="card-form" className="btn-primary" disabled={busy || config.isLoading || (!!stripeKey && !stripeTokenizer)}>
            {busy ? 'Adding…' : 'Add card'}
          </button>
        </>
      }
    >
      <form id="card-form" ref={ref} noValidate onSubmit={onSubmit} className="space-y-5" aria-busy={busy || undefined}>
        {failure && (
          <div id={failureId}>
            <Alert>{failure}</Alert>
          </div>
        )}
        {config.isLoading ? (
          <Spinner label="Loading the card form" />
        ) : stripeKey ? (
          <StripeCardFields publishableKey={stripeKey} onReady={(fn) => setStripeTokenizer(() => fn)} />
        ) : (
          <>
            <Field id="card-number" label="Card number" error={errors.number}>
              <input
                id="card-number"
                name="card-number"
                type="text"
                inputMode="numeric"
                autoComplete="cc-number"
                className="field-input tabular-nums"
                placeholder="1234 5678 9012 3456"
                value={number}
                aria-invalid={reason('number', '') !== undefined ? true : undefined}
                aria-describedby={errors.number ? describedBy('card-number', undefined, errors.number) : reason('number', '')}
                onChange={(e) => {
                  setNumber(formatCardNumber(e.target.value))
                  if (errors.number) setErrors((prev) => ({ ...prev, number: undefined }))
                  setFlagged((prev) => prev.filter((f) => f !== 'number'))
                }}
                onBlur={() => {
                  if (number) setErrors((prev) => ({ ...prev, number: cardNumberError(number) ?? undefined }))
                }}
              />
            </Field>
            <fieldset className="space-y-1.5">
              <legend className="text-sm font-medium text-slate-700">Expiry and security code</legend>
              <div className="grid grid-cols-3 gap-3">
                <ExpirySelect
                  id="card-exp-month"
                  label="Month"
                  autoComplete="cc-exp-month"
                  placeholder="MM"
                  options={EXPIRY_MONTHS.map((m) => ({ value: m, text: String(m).padStart(2, '0') }))}
                  value={expMonth}
                  onChange={setExpMonth}
                  errorId={reason('expMonth', otherErrorId)}
                />
                <ExpirySelect
                  id="card-exp-year"
                  label="Year"
                  autoComplete="cc-exp-year"
                  placeholder="YYYY"
                  options={expiryYears(today).map((y) => ({ value: y, text: String(y) }))}
                  value={expYear}
                  onChange={setExpYear}
                  errorId={reason('expYear', otherErrorId)}
                />
                <div className="space-y-1">
                  <label htmlFor="card-cvc" className="block text-xs text-slate-600">
                    Security code
                  </label>
                  <input
                    id="card-cvc"
                    type="text"
                    inputMode="numeric"
                    autoComplete="cc-csc"
                    maxLength={4}
                    className="field-input tabular-nums"
                    placeholder="CVC"
                    value={cvc}
                    aria-invalid={reason('cvc', otherErrorId) ? true : undefined}
                    aria-describedby={reason('cvc', otherErrorId)}
                    onChange={(e) => setCvc(e.target.value.replace(/\D/g, '').slice(0, 4))}
                  />
                </div>
              </div>
              {otherError && (
                <p id={otherErrorId} className="text-sm text-red-600">
                  {otherError}
                </p>
              )}
            </fieldset>
          </>
        )}
      </form>
    </Modal>
  )
}

/** The month or year select; errorId is set while the month/year/CVC message applies to it. */
function ExpirySelect(props: {
  id: string
  label: string
  autoComplete: string
  placeholder: string
  options: { value: number; text: string }[]
  value: number | null
  onChange: (value: number | null) => void
  errorId?: string
}) {
  return (
    <div className="space-y-1">
      <label htmlFor={props.id} className="block text-xs text-slate-600">
        {props.label}
      </label>
      <select
        id={props.id}
        autoComplete={props.autoComplete}
        className="field-input"
        value={props.value ?? ''}
        aria-invalid={props.errorId ? true : undefined}
        aria-describedby={props.errorId}
        onChange={(e) => props.onChange(e.target.value ? Number(e.target.value) : null)}
      >
        <option value="">{props.placeholder}</option>
        {props.options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.text}
          </option>
        ))}
      </select>
    </div>
  )
}
