import { describe, expect, it } from 'vitest'
import { clampPoint, defaultCorners, validCorners } from './cornerRules'

describe('corner rules', () => {
  it('starts with a valid quad and keeps points inside the photo', () => {
    expect(validCorners(defaultCorners(960, 600), 960, 600)).toBe(true)
    expect(clampPoint({ x: -5, y: 700.4 }, 960, 600)).toEqual({ x: 0, y: 600 })
  })

  it('refuses a crossed, anticlockwise, outside or mis-started quad', () => {
    const ok = [{ x: 100, y: 100 }, { x: 500, y: 120 }, { x: 480, y: 300 }, { x: 110, y: 280 }]
    expect(validCorners(ok, 960, 600)).toBe(true)
    expect(validCorners([ok[0]!, ok[2]!, ok[1]!, ok[3]!], 960, 600)).toBe(false)
    expect(validCorners([...ok].reverse(), 960, 600)).toBe(false)
    expect(validCorners([ok[1]!, ok[2]!, ok[3]!, ok[0]!], 960, 600)).toBe(false)
    expect(validCorners(ok.map((p) => ({ ...p, x: p.x + 500 })), 960, 600)).toBe(false)
  })
})
