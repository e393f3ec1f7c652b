import { describe, expect, it } from 'vitest'
import { isSelectable, maskDateInput, MSG_DATE_FORMAT, MSG_DATE_REQUIRED, validateDate } from './dateRules'

// Wednesday 14 January 2026.
const today = new Date(2026, 0, 14)
const allButMonday = [0, 2, 3, 4, 5, 6]

describe('validateDate (A §5)', () => {
  it('refuses an empty date', () => {
    expect(validateDate('', { today })).toBe(MSG_DATE_REQUIRED)
    expect(validateDate('   ', { today })).toBe(MSG_DATE_REQUIRED)
  })

  it.each(['1/14/2026', '2026-01-14', '14/01/2026', '02/30/2026', '13/01/2026', '01/32/2026', 'soon'])('refuses %j as not mm/dd/yyyy', (text) => {
    expect(validateDate(text, { today })).toBe(MSG_DATE_FORMAT)
  })

  it('accepts today and later by default, refuses earlier days', () => {
    expect(validateDate('01/14/2026', { today })).toBeNull()
    expect(validateDate('12/31/2026', { today })).toBeNull()
    expect(validateDate('01/13/2026', { today })).toBe('* The earliest date is Jan 14, 2026')
  })

  it('uses the given minimum instead of today', () => {
    const min = new Date(2026, 0, 19)
    expect(validateDate('01/16/2026', { today, min })).toBe('* The earliest date is Jan 19, 2026')
    expect(validateDate('01/19/2026', { today, min })).toBeNull()
    // A minimum in the past allows past days.
    expect(validateDate('01/02/2026', { today, min: new Date(2026, 0, 1) })).toBeNull()
  })

  it('refuses a disabled weekday', () => {
    expect(validateDate('01/20/2026', { today, disabledWeekdays: allButMonday })).toBe('* Please choose a Monday')
    expect(validateDate('01/19/2026', { today, disabledWeekdays: allButMonday })).toBeNull()
    expect(validateDate('01/17/2026', { today, disabledWeekdays: [0, 6] })).toBe(
      '* Please choose one of: Monday, Tuesday, Wednesday, Thursday, Friday',
    )
  })

  it('respects a maximum', () => {
    expect(validateDate('02/01/2026', { today, max: new Date(2026, 0, 31) })).toBe('* The latest date is Jan 31, 2026')
  })

  it('accepts a leap day only in a leap year', () => {
    expect(validateDate('02/29/2028', { today })).toBeNull()
    expect(validateDate('02/29/2027', { today })).toBe(MSG_DATE_FORMAT)
  })
})

describe('isSelectable', () => {
  it('follows the minimum and the weekdays', () => {
    expect(isSelectable(new Date(2026, 0, 13), { today })).toBe(false)
    expect(isSelectable(new Date(2026, 0, 14, 23, 59), { today: new Date(2026, 0, 14, 8) })).toBe(true)
    expect(isSelectable(new Date(2026, 0, 19), { today, disabledWeekdays: allButMonday })).toBe(true)
    expect(isSelectable(new Date(2026, 0, 20), { today, disabledWeekdays: allButMonday })).toBe(false)
  })
})

describe('maskDateInput', () => {
  it.each([
    ['', ''],
    ['0', '0'],
    ['01', '01'],
    ['011', '01/1'],
    ['0114', '01/14'],
    ['01142026', '01/14/2026'],
    ['01/14/2026', '01/14/2026'],
    ['011420261', '01/14/2026'],
    ['1/5/2026', '01/05/2026'],
    ['1-5-2026', '01/05/2026'],
    ['ab01cd14', '01/14'],
  ])('%j → %j', (typed, shown) => {
    expect(maskDateInput(typed)).toBe(shown)
  })
})
