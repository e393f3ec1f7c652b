import { MsgInvalidPhone } from '../api-types/identity'

/** An optional phone number: empty, or 7 to 15 digits with the usual separators. */
export function phoneError(value: string): string | null {
  const v = value.trim()
  if (v === '') return null
  if (!/^\+?[\d\s().-]+$/.test(v)) return MsgInvalidPhone
  const digits = v.replace(/\D/g, '').length
  return digits >= 7 && digits <= 15 ? null : MsgInvalidPhone
}
