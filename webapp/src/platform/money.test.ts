import { describe, expect, it, vi } from 'vitest'
import { formatCount, formatDollars } from './money'

describe('formatDollars (B §9: without cents)', () => {
  it.each([
    [1250, '$1,250'],
    [1234.75, '$1,234'],
    [0.99, '$0'],
    [0, '$0'],
    [-5.5, '-$5'],
    [12500000, '$12,500,000'],
  ])('%d → %s', (dollars, text) => {
    expect(formatDollars(dollars)).toBe(text)
  })
})

describe('formatCount', () => {
  it('groups thousands', () => {
    expect(formatCount(198899)).toBe('198,899')
    expect(formatCount(0)).toBe('0')
    expect(formatCount(999)).toBe('999')
    expect(formatCount(1000)).toBe('1,000')
    expect(formatCount(-1234567)).toBe('-1,234,567')
  })

  it('reads as Intl.NumberFormat en-US with no fraction digits did', () => {
    const intl = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 })
    for (const n of [0, 1, 12, 123, 1234, 12345, 123456, 1234567, 9007199254740991, 2.5, 3.49, -2.5, -0.4, -7, -1000.6]) {
      expect(formatCount(n)).toBe(intl.format(n) === '-0' ? '0' : intl.format(n))
    }
  })
})

describe('money on a page\'s first task', () => {
  it('builds no Intl formatter: the first one loads the locale\'s data, a long task on a phone (issue 30)', async () => {
    const made = vi.spyOn(Intl, 'NumberFormat')
    vi.resetModules()
    const fresh = await import('./money')
    expect(fresh.formatDollars(1250)).toBe('$1,250')
    expect(fresh.formatCount(198899)).toBe('198,899')
    expect(made).not.toHaveBeenCalled()
  })
})
