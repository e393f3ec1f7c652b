// A §5: the money input keeps digits only, without leading zeros.

/** Digits kept at most: whole dollars below a trillion stay exact numbers. */
export const MONEY_MAX_DIGITS = 12

/** Keeps the digits of a typed text and drops leading zeros: '$1,050' → '1050', '007' → '7', '0' → ''. */
export function moneyDigits(text: string): string {
  return text.replace(/\D/g, '').replace(/^0+/, '').slice(0, MONEY_MAX_DIGITS)
}

/** The typed text as a number of dollars; null when there are no digits left (shown as $0). */
export function parseMoney(text: string): number | null {
  const digits = moneyDigits(text)
  return digits === '' ? null : Number(digits)
}

/** A number of dollars as the input shows it: '1,050'; '' for null or 0. */
export function formatMoney(value: number | null): string {
  if (value === null || !Number.isFinite(value) || value <= 0) return ''
  return Math.trunc(value).toLocaleString('en-US')
}
