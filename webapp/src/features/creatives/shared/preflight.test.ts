import { describe, expect, it } from 'vitest'
import { contrastRatio, countWords, preflightDesign, scoreOf, type Design, type FaceGeometry } from './preflight'
import * as R from './preflightRules.gen'

const face: FaceGeometry = { ...R.DefaultFace }

function design(over: Partial<Design> = {}): Design {
  return {
    width: 1400,
    height: 400,
    background: '#000000',
    texts: [{ text: 'Fresh bread daily', fontSize: 160, color: '#ffffff', x: 200, y: 100, width: 1000, height: 180 }],
    images: [],
    ...over,
  }
}

const levels = (d: Design, f: FaceGeometry = face) => Object.fromEntries(preflightDesign(d, f).checks.map((c) => [c.id, c.level]))

describe('preflightDesign', () => {
  it('passes a clean ad on every check with a full score', () => {
    const report = preflightDesign(design(), face)
    expect(report.checks.map((c) => c.id)).toEqual([R.CheckSize, R.CheckWords, R.CheckLetterHeight, R.CheckContrast, R.CheckNightBrightness, R.CheckSafeArea, R.CheckClutter])
    expect(report.checks.every((c) => c.level === 'pass')).toBe(true)
    expect(report.score).toBe(100)
  })

  it('counts words across the text items against the rules file', () => {
    const many = Array.from({ length: R.WordsWarnAbove + 1 }, (_, i) => `w${i}`).join(' ')
    expect(levels(design({ texts: [{ ...design().texts[0]!, text: many }] }))[R.CheckWords]).toBe('warning')
    const tooMany = Array.from({ length: R.WordsFailAbove + 1 }, (_, i) => `w${i}`).join(' ')
    expect(levels(design({ texts: [{ ...design().texts[0]!, text: tooMany }] }))[R.CheckWords]).toBe('fail')
    expect(countWords('  one\ttwo \n three ')).toBe(3)
  })

  it('judges the smallest letter by the face’s viewing distance', () => {
    const small = design({ texts: [{ ...design().texts[0]!, fontSize: 24 }] })
    expect(levels(small)[R.CheckLetterHeight]).toBe('fail')
    // The same text passes on a street face, read from closer.
    const street = levels(design({ texts: [{ ...design().texts[0]!, fontSize: 60 }] }), { ...face, viewing_class: 'street' })
    expect(street[R.CheckLetterHeight]).toBe('pass')
    const check = preflightDesign(small, face).checks.find((c) => c.id === R.CheckLetterHeight)!
    expect(check.threshold).toBe(10) // 300 ft / 30 ft per inch
    expect(check.hint).not.toBe('')
  })

  it('measures text contrast with the WCAG formula', () => {
    expect(contrastRatio('#000000', '#ffffff')).toBeCloseTo(21, 5)
    expect(contrastRatio('#777777', '#ffffff')).toBeCloseTo(4.48, 2)
    const grey = design({ background: '#555555', texts: [{ ...design().texts[0]!, color: '#777777' }] })
    expect(levels(grey)[R.CheckContrast]).toBe('fail')
  })

  it('flags a glaring white ad at night, and text near or past the edge', () => {
    const white = design({ background: '#ffffff', texts: [{ ...design().texts[0]!, color: '#000000' }] })
    expect(levels(white)[R.CheckNightBrightness]).toBe('fail')
    const near = design({ texts: [{ ...design().texts[0]!, x: 10 }] })
    expect(levels(near)[R.CheckSafeArea]).toBe('warning')
    const cut = design({ texts: [{ ...design().texts[0]!, x: 1300 }] })
    expect(levels(cut)[R.CheckSafeArea]).toBe('fail')
  })

  it('counts elements for clutter and compares the shape with the face', () => {
    const box = { x: 100, y: 100, width: 100, height: 50 }
    expect(levels(design({ images: Array(R.ClutterFailAbove).fill(box) }))[R.CheckClutter]).toBe('fail')
    expect(levels(design(), { ...face, width_px: 1400, height_px: 420 })[R.CheckSize]).toBe('warning')
    expect(levels(design(), { ...face, width_px: 800, height_px: 600 })[R.CheckSize]).toBe('fail')
    expect(levels(design(), { ...face, width_px: 2800, height_px: 800 })[R.CheckSize]).toBe('pass')
  })

  it('scores from the weights and credits of the rules file, without the skipped checks', () => {
    const checks = preflightDesign(design(), face).checks
    const wordsWeight = R.CheckWeights[R.CheckWords]!
    const withWarning = checks.map((c) => (c.id === R.CheckWords ? { ...c, level: 'warning' as const } : c))
    expect(scoreOf(withWarning)).toBe(Math.round(100 - wordsWeight * (1 - R.LevelCredit.warning!)))
    expect(scoreOf(checks.map((c) => (c.id === R.CheckWords ? { ...c, level: 'skipped' as const } : c)))).toBe(100)
  })

  it('runs within a frame per keystroke (reports the time; no timing assert)', () => {
    const texts = Array.from({ length: 20 }, (_, i) => ({ ...design().texts[0]!, text: `headline number ${i} with some words`, y: i * 10 }))
    const busy = design({ texts, images: Array(10).fill({ x: 0, y: 0, width: 100, height: 50 }) })
    const runs = 2000
    const start = performance.now()
    for (let i = 0; i < runs; i++) preflightDesign(busy, face)
    const perRun = (performance.now() - start) / runs
    console.info(`preflightDesign: ${(perRun * 1000).toFixed(1)} µs per run (20 texts, 10 images; budget 16 ms)`)
    expect(perRun).toBeGreaterThan(0)
  })
})
