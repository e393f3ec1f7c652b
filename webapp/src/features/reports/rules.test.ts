import { describe, expect, it } from 'vitest'
import { chosenWeekIds, deliveryTone, formatDiff, formatPct, weekLabel } from './rules'

const weeks = [
  { start_at: '2026-09-21', end_at: '2026-09-27', week_ids: ['a', 'b'], faces: 2, planned: 10, delivered: 9 },
  { start_at: '2026-09-28', end_at: '2026-10-04', week_ids: ['c', 'd'], faces: 2, planned: 10, delivered: 11 },
]

describe('report rules', () => {
  it('sends every face of the chosen weeks', () => {
    expect(chosenWeekIds(weeks, new Set(['2026-09-28']))).toEqual(['c', 'd'])
    expect(chosenWeekIds(weeks, new Set())).toEqual([])
  })
  it('labels a week with its dates', () => {
    expect(weekLabel(weeks[0]!)).toBe('Sep 21, 2026 – Sep 27, 2026')
  })
  it('formats delivery like the PDF', () => {
    expect(formatPct(106.24, 100)).toBe('106.2%')
    expect(formatPct(0, 0)).toBe('—')
    expect(formatDiff(1234)).toBe('+1,234')
    expect(formatDiff(-5)).toBe('-5')
    expect(deliveryTone(100, 1)).toContain('emerald')
    expect(deliveryTone(95, 1)).toContain('amber')
    expect(deliveryTone(50, 1)).toContain('red')
  })
})
