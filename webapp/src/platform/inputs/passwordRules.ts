import { MaxPasswordLength, MinPasswordLength, MsgLongPassword, MsgWeakPassword } from '../api-types/identity'

/** The server's password bounds, checked before sending. Counts characters as the server does
 * (code points), not UTF-16 units, so an emoji counts once on both sides. */
export function passwordError(value: string): string | null {
  const length = [...value].length
  if (length < MinPasswordLength) return MsgWeakPassword
  if (length > MaxPasswordLength) return MsgLongPassword
  return null
}
