// B §7 "Other forms": a promo code has no whitespace and is required.

export const MSG_PROMO_REQUIRED = 'Please enter a promo code'
export const MSG_PROMO_NO_WHITESPACE = 'No whitespace allowed'

/** The typed text without any whitespace: typing or pasting a space leaves no trace. */
export function withoutWhitespace(text: string): string {
  return text.replace(/\s+/g, '')
}

/** The rule the code breaks, or null. */
export function promoCodeError(code: string): string | null {
  if (code === '') return MSG_PROMO_REQUIRED
  if (/\s/.test(code)) return MSG_PROMO_NO_WHITESPACE
  return null
}

/** B §8: a redeem failure shows 'Sorry! ' plus the server message. */
export function redeemFailure(message: string): string {
  return `Sorry! ${message}`
}

/** The admin grid shows amounts as currency: 1234.5 → '$1,234.50'. */
export function currency(amount: number): string {
  return amount.toLocaleString('en-US', { style: 'currency', currency: 'USD' })
}
