import { describe, expect, it } from 'vitest'
import { adDisplayText, priceRange, weeklyTerms } from './format'
import { makeFace, makeSpot } from '../../test/faces'

describe('adDisplayText (A §9)', () => {
  it('says Monday through Sunday, the spot duration in seconds and the rotation frequency', () => {
    expect(adDisplayText({ ad_spot_duration: 8, ad_rotation_frequency: 6 })).toBe(
      'Your ad shows Monday through Sunday, for 8 seconds at a rotation frequency of 1 in 6.',
    )
  })

  it('says one second in the singular', () => {
    expect(adDisplayText({ ad_spot_duration: 1, ad_rotation_frequency: 10 })).toContain('for 1 second at')
  })
})

describe('weeklyTerms', () => {
  it("uses the week's spot price and impressions when known", () => {
    const face = makeFace({ value: 1000, ooh: 5000 })
    expect(weeklyTerms(face, makeSpot(face, { min_value: 1090, ooh: 5200 }))).toEqual({ price: 1090, impressions: 5200 })
  })

  it("falls back to the face's base values", () => {
    expect(weeklyTerms(makeFace({ value: 1000, ooh: 5000 }), undefined)).toEqual({ price: 1000, impressions: 5000 })
  })
})

describe('priceRange', () => {
  it.each([
    [[], ''],
    [[500], '$500'],
    [[500, 500], '$500'],
    [[1250, 500, 800], '$500 – $1,250'],
  ])('%j → %s', (prices, text) => {
    expect(priceRange(prices)).toBe(text)
  })
})
