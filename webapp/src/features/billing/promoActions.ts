import {
  MaxPromoCodeSize,
  MaxPromoCount,
  MaxPromoDollars,
  MsgPromoFormat,
  MsgPromoMaxCount,
  MsgPromoRequired,
  MsgPromoValue,
  MsgPromoWhitespace,
} from '../../platform/api-types/billing'

// B §8: the promo grid's confirm text and messages.

export type PromoAction = 'cancel' | 'enable'

/** 'Are you sure you want to {cancel or enable} the promo?' */
export function promoConfirmText(action: PromoAction): string {
  return `Are you sure you want to ${action} the promo?`
}

/** A cancelled promo can be enabled; any other can be cancelled. */
export function promoActionFor(status: string): PromoAction {
  return status === 'cancelled' ? 'enable' : 'cancel'
}

/** B §4: the server returns the new status, shown when success is true. */
export function promoStatusMessage(status: string): string {
  return `The promo is now ${status}.`
}

export const MSG_PROMO_CREATE_UNEXPECTED = 'we suffer a unexpected error.'

/** B §8: 'Sorry: ' plus the server message, or 'we suffer a unexpected error.'. */
export function promoCreateFailure(message: string | null): string {
  return message ? `Sorry: ${message}` : MSG_PROMO_CREATE_UNEXPECTED
}

const PROMO_CODE = new RegExp(`^[A-Za-z0-9_-]{1,${MaxPromoCodeSize}}$`)

export interface PromoForm {
  code: string
  value: number | null
  maxCount: string
}

export type PromoFormErrors = Partial<Record<keyof PromoForm, string>>

/** The new-promo form's errors, in the server's words (modules/billing/service.go). */
export function validatePromo(form: PromoForm): PromoFormErrors {
  const errors: PromoFormErrors = {}
  if (form.code === '') errors.code = MsgPromoRequired
  else if (/\s/.test(form.code)) errors.code = MsgPromoWhitespace
  else if (!PROMO_CODE.test(form.code)) errors.code = MsgPromoFormat
  if (form.value === null || form.value <= 0 || form.value > MaxPromoDollars) errors.value = MsgPromoValue
  const count = Number(form.maxCount)
  if (!/^\d+$/.test(form.maxCount) || count < 1 || count > MaxPromoCount) errors.maxCount = MsgPromoMaxCount
  return errors
}
