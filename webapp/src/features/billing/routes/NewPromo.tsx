import { useState, type FormEvent } from 'react'
import { useDispatch } from 'react-redux'
import { Link, useNavigate } from 'react-router'
import { MsgPromoCreated } from '../../../platform/api-types/billing'
import { withoutWhitespace } from '../shared/promoRules'
import { flash, flashShown } from '../../../platform/flash/flash'
import { useFocusFirstInvalid } from '../../../platform/forms'
import { isApiError } from '../../../platform/http'
import Field, { describedBy } from '../../../platform/inputs/Field'
import MoneyInput from '../../../platform/inputs/MoneyInput'
import TextInput from '../../../platform/inputs/TextInput'
import { useCreatePromoMutation } from '../api'
import { promoCreateFailure, validatePromo, type PromoFormErrors } from '../promoActions'

/** B §2 /admin/promos/new (super admin): creates a promo code, then returns to /admin/promos. */
export default function NewPromo() {
  const [code, setCode] = useState('')
  const [value, setValue] = useState<number | null>(null)
  const [maxCount, setMaxCount] = useState('')
  const [errors, setErrors] = useState<PromoFormErrors>({})
  const [create, { isLoading }] = useCreatePromoMutation()
  const dispatch = useDispatch()
  const navigate = useNavigate()
  const { ref, focusInvalid } = useFocusFirstInvalid()

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault()
    if (isLoading) return
    const found = validatePromo({ code, value, maxCount })
    setErrors(found)
    if (Object.keys(found).length > 0) {
      focusInvalid()
      return
    }
    try {
      const answer = await create({ code, value: value!, max_count: Number(maxCount) }).unwrap()
      dispatch(flash(answer.message || MsgPromoCreated, 'success', { nextPage: true }))
      navigate('/admin/promos')
    } catch (error) {
      // B §8: 'Sorry: ' plus the server's message; without one, 'we suffer a unexpected error.'.
      const known = isApiError(error) && error.status > 0 && error.status < 500
      dispatch(flashShown(promoCreateFailure(known ? error.message : null), 'danger'))
      if (known) {
        setErrors({ code: error.errors.code, value: error.errors.value, maxCount: error.errors.max_count })
        focusInvalid()
      }
    }
  }

  return (
    <div className="mx-auto max-w-xl space-y-6">
      <div>
        <Link to="/admin/promos" className="text-sm font-medium text-brand-700 hover:underline">
          ← Promos
        </Link>
        <h1 className="mt-2 text-2xl font-semibold text-slate-900 sm:text-3xl">New promo</h1>
        <p className="mt-1 text-slate-600">A promo code adds its amount to the account credit of each company that redeems it.</p>
      </div>
      <form ref={ref} noValidate onSubmit={onSubmit} className="card space-y-5 px-5 py-6 sm:px-6">
        <TextInput
          id="promo-code"
          label="Code"
          value={code}
          onChange={(text) => setCode(withoutWhitespace(text))}
          error={errors.code}
          hint="Letters, digits, dashes and underscores; no spaces."
          autoComplete="off"
          required
        />
        <MoneyInput id="promo-value" label="Amount" value={value} onChange={setValue} error={errors.value} hint="Whole dollars, up to $10,000." />
        <Field id="promo-max-count" label="Maximum redemptions" error={errors.maxCount} hint="How many companies can redeem it.">
          <input
            id="promo-max-count"
            name="promo-max-count"
            type="text"
            inputMode="numeric"
            autoComplete="off"
            className="field-input tabular-nums"
            value={maxCount}
            aria-invalid={errors.maxCount ? true : undefined}
            aria-describedby={describedBy('promo-max-count', 'hint', errors.maxCount)}
            onChange={(e) => setMaxCount(e.target.value.replace(/\D/g, '').slice(0, 6))}
          />
        </Field>
        <div className="flex flex-wrap justify-end gap-2 pt-2">
          <Link to="/admin/promos" className="btn-secondary">
            Cancel
          </Link>
          <button type="submit" className="btn-primary" disabled={isLoading}>
            {isLoading ? 'Creating…' : 'Create promo'}
          </button>
        </div>
      </form>
    </div>
  )
}
