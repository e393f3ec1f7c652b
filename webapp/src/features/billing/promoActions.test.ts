import { describe, expect, it } from 'vitest'
import { MsgPromoFormat, MsgPromoMaxCount, MsgPromoRequired, MsgPromoValue, MsgPromoWhitespace } from '../../platform/api-types/billing'
import { promoActionFor, promoConfirmText, promoCreateFailure, validatePromo } from './promoActions'

describe('promo actions (B §8)', () => {
  it("asks 'Are you sure you want to {cancel or enable} the promo?'", () => {
    expect(promoConfirmText('cancel')).toBe('Are you sure you want to cancel the promo?')
    expect(promoConfirmText('enable')).toBe('Are you sure you want to enable the promo?')
  })

  it('offers enable for a cancelled promo and cancel otherwise', () => {
    expect(promoActionFor('cancelled')).toBe('enable')
    expect(promoActionFor('active')).toBe('cancel')
    expect(promoActionFor('exhausted')).toBe('cancel')
  })

  it("reports a creation failure with 'Sorry: ' or 'we suffer a unexpected error.'", () => {
    expect(promoCreateFailure('A promo with this code already exists.')).toBe('Sorry: A promo with this code already exists.')
    expect(promoCreateFailure(null)).toBe('we suffer a unexpected error.')
  })
})

describe('validatePromo', () => {
  const good = { code: 'SPRING-25', value: 50, maxCount: '10' }

  it('accepts a good promo', () => {
    expect(validatePromo(good)).toEqual({})
  })

  it("gives the server's messages for each rule", () => {
    expect(validatePromo({ ...good, code: '' }).code).toBe(MsgPromoRequired)
    expect(validatePromo({ ...good, code: 'SPR ING' }).code).toBe(MsgPromoWhitespace)
    expect(validatePromo({ ...good, code: 'SPRING!' }).code).toBe(MsgPromoFormat)
    expect(validatePromo({ ...good, code: 'X'.repeat(33) }).code).toBe(MsgPromoFormat)
    expect(validatePromo({ ...good, value: null }).value).toBe(MsgPromoValue)
    expect(validatePromo({ ...good, value: 10001 }).value).toBe(MsgPromoValue)
    expect(validatePromo({ ...good, value: 10000 }).value).toBeUndefined()
    expect(validatePromo({ ...good, maxCount: '0' }).maxCount).toBe(MsgPromoMaxCount)
    expect(validatePromo({ ...good, maxCount: '' }).maxCount).toBe(MsgPromoMaxCount)
    expect(validatePromo({ ...good, maxCount: '100001' }).maxCount).toBe(MsgPromoMaxCount)
  })
})
