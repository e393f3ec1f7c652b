import { describe, expect, it } from 'vitest'
import { emailError, isEmail, MSG_INVALID_EMAIL } from './emailRules'

describe('email rule (A §5)', () => {
  it.each(['ann@example.com', 'first.last+tag@sub.example.co', ' ann@example.com ', 'o\'neil@example.ie'])('accepts %j', (value) => {
    expect(isEmail(value)).toBe(true)
    expect(emailError(value)).toBeNull()
  })

  it.each(['ann', 'ann@', '@example.com', 'ann@example', 'ann@@example.com', 'ann @example.com', 'ann@example..com', 'ann@.example.com'])(
    'refuses %j with the spec message',
    (value) => {
      expect(isEmail(value)).toBe(false)
      expect(emailError(value)).toBe('* Invalid email address')
    },
  )

  it('leaves an empty field to the required check', () => {
    expect(emailError('')).toBeNull()
    expect(emailError('   ')).toBeNull()
  })

  it('refuses addresses longer than 254 characters', () => {
    expect(isEmail(`${'a'.repeat(250)}@example.com`)).toBe(false)
  })

  it('keeps the spec wording', () => {
    expect(MSG_INVALID_EMAIL).toBe('* Invalid email address')
  })
})
