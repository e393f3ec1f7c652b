import { MaxPasswordLength, MinPasswordLength, MsgLongPassword, MsgWeakPassword } from '../api-types/identity'

/** The server's password bounds, checked before sending. */
export function passwordError(value: string): string | null {
  if (value.length < MinPasswordLength) return MsgWeakPassword
  if (value.length > MaxPasswordLength) return MsgLongPassword
  return null
}
