import {
  CodeIncorrectNumber,
  CodeInvalidNumber,
  GatewayMsgIncorrectNumber,
  MsgCardAdded,
  MsgConfirmCardNumber,
  MsgConfirmCardOther,
} from '../../../platform/api-types/billing'

// B §7 "Cards" and B §8: the card form's rules and messages. The server and the gateway decide;
// these only answer quickly.

export const MSG_CARD_NUMBER = MsgConfirmCardNumber
export const MSG_CARD_OTHER = MsgConfirmCardOther
export const MSG_CARD_ADDED = MsgCardAdded
/** B §8: after a card is added inside the campaign flow. */
export const MSG_CARD_ADDED_IN_FLOW = 'Your ad was successfully uploaded'

/** B §3 mask: 'xxxx-xxxx-xxxx-' and the last four digits. */
export const CARD_MASK_PREFIX = 'xxxx-xxxx-xxxx-'

export const CARD_NUMBER_MIN_DIGITS = 12
export const CARD_NUMBER_MAX_DIGITS = 19

/** The digits of a typed card number, at most 19. */
export function cardDigits(text: string): string {
  return text.replace(/\D/g, '').slice(0, CARD_NUMBER_MAX_DIGITS)
}

/** Digits in groups of four: '4242424242424242' → '4242 4242 4242 4242'. */
export function formatCardNumber(text: string): string {
  return cardDigits(text).replace(/(\d{4})(?=\d)/g, '$1 ')
}

/** The Luhn checksum every card number carries. */
export function luhnValid(digits: string): boolean {
  if (!/^\d+$/.test(digits)) return false
  let sum = 0
  for (let i = 0; i < digits.length; i += 1) {
    let d = Number(digits[digits.length - 1 - i])
    if (i % 2 === 1) {
      d *= 2
      if (d > 9) d -= 9
    }
    sum += d
  }
  return sum % 10 === 0
}

/** B §7: months 1 to 12. */
export const EXPIRY_MONTHS: readonly number[] = Array.from({ length: 12 }, (_, i) => i + 1)

/** B §7: the current year and the next 9. */
export function expiryYears(today: Date): number[] {
  const first = today.getFullYear()
  return Array.from({ length: 10 }, (_, i) => first + i)
}

/** 'xxxx-xxxx-xxxx-1234'. */
export function maskCard(last4: string): string {
  return `${CARD_MASK_PREFIX}${last4}`
}

/** '04/2031'. */
export function formatExpiry(month: number, year: number): string {
  return `${String(month).padStart(2, '0')}/${year}`
}

export interface CardForm {
  number: string
  expMonth: number | null
  expYear: number | null
  cvc: string
}

export type CardFormErrors = Partial<Record<keyof CardForm, string>>

/** The card-number message unless the typed number can be a card (length and Luhn), else null. */
export function cardNumberError(text: string): string | null {
  const digits = cardDigits(text)
  return digits.length < CARD_NUMBER_MIN_DIGITS || !luhnValid(digits) ? MSG_CARD_NUMBER : null
}

/**
 * The errors of a typed card, with the spec's two messages: a number that cannot be a card gets
 * the card-number message, anything else the month/year/CVC one. An expiry month already past
 * counts as a month/year error.
 */
export function validateCard(form: CardForm, today: Date): CardFormErrors {
  const errors: CardFormErrors = {}
  const numberError = cardNumberError(form.number)
  if (numberError) errors.number = numberError
  if (form.expMonth === null || form.expMonth < 1 || form.expMonth > 12) errors.expMonth = MSG_CARD_OTHER
  if (form.expYear === null || !expiryYears(today).includes(form.expYear)) errors.expYear = MSG_CARD_OTHER
  if (
    !errors.expMonth &&
    !errors.expYear &&
    form.expYear === today.getFullYear() &&
    (form.expMonth ?? 0) < today.getMonth() + 1
  ) {
    errors.expMonth = MSG_CARD_OTHER
  }
  if (!/^\d{3,4}$/.test(form.cvc)) errors.cvc = MSG_CARD_OTHER
  return errors
}

/** A card failure as the gateway or the server reports it. */
export interface CardFailure {
  message?: string
  code?: string
  /** Field name → message or code, as the server's error envelope carries them. */
  errors?: Record<string, string>
}

/** True when the failure is about the card number (B §8 'Your card number is incorrect.'). */
export function isCardNumberFailure(failure: CardFailure): boolean {
  const codes = [failure.code, ...Object.values(failure.errors ?? {}), ...Object.keys(failure.errors ?? {})]
  return (
    failure.message === GatewayMsgIncorrectNumber ||
    codes.includes(CodeIncorrectNumber) ||
    codes.includes(CodeInvalidNumber) ||
    codes.includes(GatewayMsgIncorrectNumber)
  )
}

/** B §8: the message shown for a card the gateway or the server refused. */
export function cardFailureMessage(failure: CardFailure): string {
  return isCardNumberFailure(failure) ? MSG_CARD_NUMBER : MSG_CARD_OTHER
}
