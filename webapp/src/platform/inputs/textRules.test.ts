import { describe, expect, it } from 'vitest'
import { counterText, lengthError, MSG_NO_SPECIAL, MSG_REDUCE, textOnlyError, validateText } from './textRules'

describe('lengthError (A §5)', () => {
  it.each([
    ['', 5, null],
    ['abcde', 5, null],
    ['abcdef', 5, MSG_REDUCE],
    ['ñandú', 5, null],
  ])('%j with max %i', (value, max, expected) => {
    expect(lengthError(value, max)).toBe(expected)
  })

  it('says it word for word', () => {
    expect(MSG_REDUCE).toBe('* Please reduce your description')
  })
})

describe('textOnlyError (A §5)', () => {
  it.each(['', 'Summer sale', 'file_name.v2', 'ACME 2026', 'Café Zoë'])('accepts %j', (value) => {
    expect(textOnlyError(value)).toBeNull()
  })

  it.each(['50% off', 'a-b', 'Tom & Jerry', 'hi!', 'x,y', 'new\nline', '<script>', 'a/b', "it's"])('refuses %j', (value) => {
    expect(textOnlyError(value)).toBe('* No special characters allowed')
  })

  it('keeps the spec wording', () => {
    expect(MSG_NO_SPECIAL).toBe('* No special characters allowed')
  })
})

describe('validateText', () => {
  it('reports the character rule before the length rule', () => {
    expect(validateText('a!'.repeat(10), { maxLength: 5, textOnly: true })).toBe(MSG_NO_SPECIAL)
  })
  it('applies only the rules asked for', () => {
    expect(validateText('50% off', {})).toBeNull()
    expect(validateText('too long', { maxLength: 3 })).toBe(MSG_REDUCE)
  })
})

describe('counterText', () => {
  it('shows length/max', () => {
    expect(counterText('', 100)).toBe('0/100')
    expect(counterText('hello', 10)).toBe('5/10')
    expect(counterText('hello world', 10)).toBe('11/10')
  })
})
