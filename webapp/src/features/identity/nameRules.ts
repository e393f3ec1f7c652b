import { validateText } from '../../platform/inputs/textRules'

/** A first or last name: required, at most 50 characters (the server's MsgInvalidName limit). */
export const NAME_MAX_LENGTH = 50

export function nameError(value: string, what: string): string | undefined {
  if (value.trim() === '') return `Please enter your ${what}`
  return validateText(value, { maxLength: NAME_MAX_LENGTH }) ?? undefined
}
