import { describe, expect, it } from 'vitest'
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
  })
})
