import { describe, expect, it } from 'vitest'
import {
  clampSize,
  exportPixelRatio,
  fitImage,
  isLightBackground,
  limitResize,
  moveLayer,
  perceivedBrightness,
  stageScale,
  textsCutOff,
} from './builderRules'

describe('perceived brightness and the light-background warning (A §5)', () => {
  it.each([
    ['#ffffff', 255, true],
    ['#fff', 255, true],
    ['#f5f5f5', 245, true],
    // 240 exactly is not above 240.
    ['#f0f0f0', 240, false],
    ['#000000', 0, false],
    ['#ff0000', 76.245, false],
    ['#ffff00', 225.93, false],
    ['#ffffcc', 249.186, true],
    ['not a colour', null, false],
  ])('%s → %s, light %s', (color, brightness, light) => {
    const value = perceivedBrightness(color)
    if (brightness === null) expect(value).toBeNull()
    else expect(value).toBeCloseTo(brightness, 2)
    expect(isLightBackground(color)).toBe(light)
  })
})

describe('minimum item size 100x50 (A §5)', () => {
  const old = { x: 0, y: 0, width: 200, height: 100 }
  it.each([
    [{ x: 0, y: 0, width: 150, height: 60 }, { x: 0, y: 0, width: 150, height: 60 }],
    [{ x: 0, y: 0, width: 100, height: 50 }, { x: 0, y: 0, width: 100, height: 50 }],
    [{ x: 0, y: 0, width: 99, height: 60 }, old],
    [{ x: 0, y: 0, width: 150, height: 49 }, old],
    [{ x: 0, y: 0, width: -20, height: 60 }, old],
  ])('resize to %o gives %o', (next, expected) => {
    expect(limitResize(old, next)).toEqual(expected)
  })

  it('reads the minimum in screen pixels on a shrunk stage', () => {
    const half = { x: 0, y: 0, width: 50, height: 25 }
    expect(limitResize(old, half, 0.5)).toEqual(half)
    expect(limitResize(old, { ...half, width: 49 }, 0.5)).toEqual(old)
  })

  it.each([
    [10, 10, { width: 100, height: 50 }],
    [300, 20, { width: 300, height: 50 }],
    [300.4, 80.6, { width: 300, height: 81 }],
  ])('clampSize(%d, %d) → %o', (w, h, expected) => {
    expect(clampSize(w, h)).toEqual(expected)
  })

  it('fits a big image into the canvas and keeps a tiny one at the minimum', () => {
    expect(fitImage(2800, 800)).toEqual({ width: 840, height: 240 })
    expect(fitImage(20, 20)).toEqual({ width: 100, height: 50 })
  })
})

describe('stage scale and export ratio', () => {
  it.each([
    [1400, 1, 1],
    [2000, 1, 1],
    [700, 0.5, 2],
    [350, 0.25, 4],
  ])('width %d → scale %d, pixel ratio %d', (width, scale, ratio) => {
    expect(stageScale(width)).toBe(scale)
    expect(exportPixelRatio(stageScale(width))).toBe(ratio)
    // The exported image is always 1400 wide.
    expect(1400 * stageScale(width) * exportPixelRatio(stageScale(width))).toBeCloseTo(1400)
  })
})

describe('moveLayer', () => {
  const items = [{ id: 'a' }, { id: 'b' }, { id: 'c' }]
  it.each([
    ['a', 1, ['b', 'a', 'c']],
    ['c', 1, ['a', 'b', 'c']],
    ['c', -1, ['a', 'c', 'b']],
    ['a', 'front', ['b', 'c', 'a']],
    ['c', 'back', ['c', 'a', 'b']],
    ['x', 1, ['a', 'b', 'c']],
  ] as const)('%s by %s', (id, step, expected) => {
    expect(moveLayer(items, id, step).map((i) => i.id)).toEqual(expected)
  })
})

describe('text that the 1400x400 export would cut off (issue 12 item 21)', () => {
  const text = (x: number, y: number, width: number, height: number) => ({ type: 'text', x, y, width, height })
  it('finds a text box reaching past an edge, and nothing else', () => {
    const inside = text(60, 60, 320, 288)
    const below = text(60, 60, 320, 400)
    const right = text(1200, 10, 320, 60)
    const above = text(10, -5, 320, 60)
    const image = { type: 'image', x: 1300, y: 300, width: 300, height: 300 }
    expect(textsCutOff([inside, below, right, above, image])).toEqual([below, right, above])
    expect(textsCutOff([text(0, 0, 1400, 400)])).toEqual([])
  })
})
