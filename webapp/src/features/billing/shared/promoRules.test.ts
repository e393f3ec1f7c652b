import { describe, expect, it } from 'vitest'
import { currency, MSG_PROMO_NO_WHITESPACE, MSG_PROMO_REQUIRED, promoCodeError, redeemFailure, withoutWhitespace } from './promoRules'

describe('promo code (B §7: no whitespace)', () => {
  it('drops typed or pasted whitespace', () => {
    expect(withoutWhitespace(' SPRING 25\t\n')).toBe('SPRING25')
  })

  it('requires a code without whitespace', () => {
    expect(promoCodeError('')).toBe(MSG_PROMO_REQUIRED)
    expect(promoCodeError('SPR ING')).toBe(MSG_PROMO_NO_WHITESPACE)
    expect(promoCodeError('SPRING25')).toBeNull()
  })

  it("prefixes a failure with 'Sorry! ' (B §8)", () => {
    expect(redeemFailure('This promo code does not exist.')).toBe('Sorry! This promo code does not exist.')
  })
})

describe('amounts', () => {
  it('shows admin amounts as currency', () => {
    expect(currency(1234.5)).toBe('$1,234.50')
    expect(currency(50)).toBe('$50.00')
  })
})
