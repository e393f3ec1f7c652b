import { describe, expect, it } from 'vitest'
import { MsgInvalidPhone, MsgLongPassword, MsgWeakPassword } from '../api-types/identity'
import { passwordError } from './passwordRules'
import { phoneError } from './phoneRules'

describe('passwordError', () => {
  it.each([
    ['', MsgWeakPassword],
    ['a'.repeat(11), MsgWeakPassword],
    ['a'.repeat(12), null],
    ['a'.repeat(128), null],
    ['a'.repeat(129), MsgLongPassword],
    // Six emoji are twelve UTF-16 units but six characters, as the server counts them.
    ['🎯'.repeat(6), MsgWeakPassword],
    ['🎯'.repeat(12), null],
  ])('a password of %#', (value, expected) => {
    expect(passwordError(value)).toBe(expected)
  })
})

describe('phoneError', () => {
  it.each(['', '  ', '(415) 555-0100', '+1 415 555 0100', '415.555.0100', '5550100'])('accepts %j', (value) => {
    expect(phoneError(value)).toBeNull()
  })
  it.each(['555-01', 'call me', '+1 (415) 555-0100 ext 2', '1234567890123456'])('refuses %j', (value) => {
    expect(phoneError(value)).toBe(MsgInvalidPhone)
  })
})
