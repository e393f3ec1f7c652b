import { describe, expect, it } from 'vitest'
import { formatMoney, MONEY_MAX_DIGITS, moneyDigits, parseMoney } from './moneyRules'

describe('money input rule (A §5)', () => {
  it.each([
    ['', null],
    ['0', null],
    ['000', null],
    ['007', 7],
    ['1500', 1500],
    ['$1,500', 1500],
    ['1,500.75', 150075],
    ['abc', null],
    ['-250', 250],
    [' 12 34 ', 1234],
    ['$0500', 500],
  ])('%j → %j', (typed, value) => {
    expect(parseMoney(typed)).toBe(value)
  })

  it('strips every non-digit and the leading zeros', () => {
    expect(moneyDigits('$ 0,012a3')).toBe('123')
  })

  it('keeps at most MONEY_MAX_DIGITS digits, so values stay exact', () => {
    const value = parseMoney('9'.repeat(20))
    expect(String(value)).toHaveLength(MONEY_MAX_DIGITS)
    expect(Number.isSafeInteger(value)).toBe(true)
  })

  it.each([
    [null, ''],
    [0, ''],
    [7, '7'],
    [1500, '1,500'],
    [1234567, '1,234,567'],
  ])('formats %j as %j', (value, text) => {
    expect(formatMoney(value)).toBe(text)
  })

  it('reads back what it shows', () => {
    for (const value of [1, 10, 999, 1000, 25000, 123456789]) expect(parseMoney(formatMoney(value))).toBe(value)
  })
})
