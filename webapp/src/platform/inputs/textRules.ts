// A §5: text inputs.
export const MSG_REDUCE = '* Please reduce your description'
export const MSG_NO_SPECIAL = '* No special characters allowed'

// Letters (any alphabet), digits, dot, underscore and space.
const TEXT_ONLY = /^[\p{L}\p{Nd}._ ]*$/u

/** '* Please reduce your description' when the text is longer than max, else null. */
export function lengthError(value: string, max: number): string | null {
  return [...value].length > max ? MSG_REDUCE : null
}

/** '* No special characters allowed' unless the text holds only letters, digits, '.', '_' and ' '. */
export function textOnlyError(value: string): string | null {
  return TEXT_ONLY.test(value) ? null : MSG_NO_SPECIAL
}

export interface TextRules {
  maxLength?: number
  textOnly?: boolean
}

/** The first rule the text breaks, or null. */
export function validateText(value: string, rules: TextRules): string | null {
  if (rules.textOnly) {
    const error = textOnlyError(value)
    if (error) return error
  }
  if (rules.maxLength !== undefined) return lengthError(value, rules.maxLength)
  return null
}

/** The counter of A §5: 'length/max'. */
export function counterText(value: string, max: number): string {
  return `${[...value].length}/${max}`
}
