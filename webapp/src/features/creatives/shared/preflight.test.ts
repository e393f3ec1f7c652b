import { describe, expect, it } from 'vitest'
import { designOf } from '../builder/builderPreflight'
import { newTextItem } from '../builder/items'
import { contrastRatio, countWords, evaluate, fromDesign, preflightDesign, scoreOf, type Design } from './preflight'
import { PREFLIGHT_RULES } from './preflightRules.gen'

const levels = (d: Design) => Object.fromEntries(preflightDesign(d).checks.map((c) => [c.id, c.level]))

describe('preflight', () => {
  it('measures contrast with the WCAG 2 formula', () => {
    expect(contrastRatio('#000000', '#ffffff')).toBeCloseTo(21, 5)
    expect(contrastRatio('#777777', '#ffffff')).toBeCloseTo(4.48, 2)
    expect(contrastRatio('#fff', '#ffffff')).toBe(1)
  })

  it('counts words that hold a letter or a digit', () => {
    expect(countWords('  Exit 12 &  coffee -  ')).toBe(3)
    expect(countWords('')).toBe(0)
  })

  it('reads the builder’s items: each text with its font size and colour, each image as an element', () => {
    const text = { ...newTextItem(0), text: 'Big sale today', fontSize: 120, fontColor: '#ffffff', x: 100, y: 100, width: 900, height: 140 }
    const input = fromDesign(designOf([text, { id: 'i', type: 'image', path: 'blob:x', name: 'logo.png', x: 1100, y: 100, width: 150, height: 150 }], '#102040'))
    expect(input.elements).toBe(2)
    expect(input.texts[0]!.letterHeightPx).toBeCloseTo(120 * 0.7, 5)
    expect(levels(designOf([text], '#102040'))).toMatchObject({ words: 'pass', contrast: 'pass', letter_height: 'pass' })
    // The default new text (24 px black) on the default white background: a little small, and glaring.
    expect(levels(designOf([newTextItem(0)], '#ffffff'))).toMatchObject({ letter_height: 'warning', night_brightness: 'fail' })
  })

  it('leaves skipped checks out of the score (an image without OCR)', () => {
    const report = evaluate({ width: 1400, height: 400, texts: [], textSkipped: 'OCR is not installed', meanLuminance: 0.1, elements: 1 })
    expect(report.checks.filter((c) => c.level === 'skipped').map((c) => c.id)).toEqual(['words', 'letter_height', 'contrast', 'safe_area'])
    expect(report.checks.find((c) => c.id === 'words')!.message).toContain('OCR is not installed')
    expect(report.score).toBe(scoreOf(report.checks.filter((c) => c.level !== 'skipped')))
    expect(report.score).toBe(100)
  })

  it('takes every threshold from the generated rules', () => {
    const words = PREFLIGHT_RULES.find((r) => r.id === 'words')!
    const copy = (n: number) => Array.from({ length: n }, (_, i) => `w${i}`).join(' ')
    const text = (n: number): Design => ({ width: 1400, height: 400, background: '#000000', elements: [{ kind: 'text', x: 200, y: 100, width: 1000, height: 150, text: copy(n), font_size: 150, fill: '#ffffff' }] })
    expect(levels(text(words.pass)).words).toBe('pass')
    expect(levels(text(words.pass + 1)).words).toBe('warning')
    expect(levels(text(words.warn + 1)).words).toBe('fail')
  })

  it('runs well within a frame per keystroke (reports the time; no timing assert)', () => {
    const items = Array.from({ length: 20 }, (_, i) => ({ ...newTextItem(i), text: `headline number ${i} with some words` }))
    const design = designOf(items, '#ffffff')
    const faces = [1, 2, 3].map((i) => ({ id: `f${i}`, width_ft: 48, height_ft: 14, pixel_width: 1400 * i, pixel_height: 400 * i, distance_class: 'arterial', viewing_distance_ft: 250 }))
    const runs = 2000
    const start = performance.now()
    for (let i = 0; i < runs; i++) preflightDesign(design, faces)
    const perRun = (performance.now() - start) / runs
    console.info(`preflightDesign: ${(perRun * 1000).toFixed(1)} µs per keystroke (20 texts on 3 faces; budget 16 ms)`)
    expect(perRun).toBeGreaterThan(0)
  })
})
