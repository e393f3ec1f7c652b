import { describe, expect, it } from 'vitest'
import { CodeCardDeclined, CodeIncorrectNumber, GatewayMsgDeclined, GatewayMsgIncorrectNumber } from '../../../platform/api-types/billing'
import {
  cardDigits,
  cardFailureMessage,
  cardNumberError,
  EXPIRY_MONTHS,
  expiryYears,
  formatCardNumber,
  formatExpiry,
  luhnValid,
  maskCard,
  MSG_CARD_NUMBER,
  MSG_CARD_OTHER,
  validateCard,
} from './cardRules'

const today = new Date(2026, 10, 22) // 22 Nov 2026

describe('card number (B §7)', () => {
  it('keeps digits only, at most 19, in groups of four', () => {
    expect(cardDigits('4242-4242 abc 4242')).toBe('424242424242')
    expect(formatCardNumber('4242424242424242')).toBe('4242 4242 4242 4242')
    expect(formatCardNumber('4242 42')).toBe('4242 42')
    expect(cardDigits('1'.repeat(25))).toHaveLength(19)
  })

  it('checks the Luhn sum', () => {
    expect(luhnValid('4242424242424242')).toBe(true)
    expect(luhnValid('4000000000000002')).toBe(true)
    expect(luhnValid('378282246310005')).toBe(true)
    expect(luhnValid('4242424242424241')).toBe(false)
    expect(luhnValid('')).toBe(false)
  })

  it('gives the card-number message for a short or wrong number', () => {
    expect(cardNumberError('4242 4242 4242 4242')).toBeNull()
    expect(cardNumberError('4242 4242 4242 4241')).toBe('Please confirm the Card Number is accurate and try again')
    expect(cardNumberError('4242')).toBe(MSG_CARD_NUMBER)
  })
})

describe('expiry (B §7)', () => {
  it('offers months 1 to 12 and the current year and the next 9', () => {
    expect(EXPIRY_MONTHS).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12])
    expect(expiryYears(today)).toEqual([2026, 2027, 2028, 2029, 2030, 2031, 2032, 2033, 2034, 2035])
    expect(expiryYears(new Date(2031, 0, 1))[0]).toBe(2031)
  })

  it('formats the expiry as MM/YYYY', () => {
    expect(formatExpiry(4, 2031)).toBe('04/2031')
  })
})

describe('validateCard', () => {
  const good = { number: '4242 4242 4242 4242', expMonth: 12, expYear: 2027, cvc: '123' }

  it('accepts a good card', () => {
    expect(validateCard(good, today)).toEqual({})
  })

  it('gives the month/year/CVC message for a missing expiry, a past month or a bad code', () => {
    expect(validateCard({ ...good, expMonth: null }, today)).toEqual({ expMonth: MSG_CARD_OTHER })
    expect(validateCard({ ...good, expYear: 2025 }, today)).toEqual({ expYear: MSG_CARD_OTHER })
    expect(validateCard({ ...good, expMonth: 10, expYear: 2026 }, today)).toEqual({ expMonth: MSG_CARD_OTHER })
    expect(validateCard({ ...good, expMonth: 11, expYear: 2026 }, today)).toEqual({})
    expect(validateCard({ ...good, cvc: '12' }, today)).toEqual({ cvc: MSG_CARD_OTHER })
    expect(validateCard({ ...good, cvc: '1234' }, today)).toEqual({})
  })

  it('names every broken field at once', () => {
    expect(Object.keys(validateCard({ number: '1', expMonth: null, expYear: null, cvc: '' }, today))).toEqual(['number', 'expMonth', 'expYear', 'cvc'])
  })
})

describe('gateway failures (B §8)', () => {
  it("maps 'Your card number is incorrect.' and its code to the card-number message", () => {
    expect(cardFailureMessage({ message: GatewayMsgIncorrectNumber })).toBe(MSG_CARD_NUMBER)
    expect(cardFailureMessage({ message: 'whatever', code: CodeIncorrectNumber })).toBe(MSG_CARD_NUMBER)
    expect(cardFailureMessage({ message: 'x', errors: { code: CodeIncorrectNumber } })).toBe(MSG_CARD_NUMBER)
  })

  it('maps any other card error to the month/year/CVC message', () => {
    expect(cardFailureMessage({ message: GatewayMsgDeclined, code: CodeCardDeclined })).toBe(MSG_CARD_OTHER)
    expect(cardFailureMessage({ message: "Your card's security code is incorrect." })).toBe(MSG_CARD_OTHER)
    expect(cardFailureMessage({})).toBe(MSG_CARD_OTHER)
  })
})

describe('mask (B §2)', () => {
  it('shows xxxx-xxxx-xxxx- and the last four digits', () => {
    expect(maskCard('1234')).toBe('xxxx-xxxx-xxxx-1234')
  })
})
