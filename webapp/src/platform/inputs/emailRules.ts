// A §5: email inputs.
export const MSG_INVALID_EMAIL = '* Invalid email address'

// One '@', something before it, a dotted domain after it, no spaces; at most 254 characters.
const EMAIL = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/

export function isEmail(value: string): boolean {
  const v = value.trim()
  return v.length <= 254 && EMAIL.test(v)
}

/** '* Invalid email address' for a filled but malformed address, else null. */
export function emailError(value: string): string | null {
  if (value.trim() === '') return null
  return isEmail(value) ? null : MSG_INVALID_EMAIL
}
