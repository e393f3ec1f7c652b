// The builder's live pre-flight (issue 29, DESIGN §1.16): the same checks the server runs on a
// creative, computed in the browser from the design's known text, fonts and colours. Every
// threshold, weight and message comes from preflightRules.gen.ts, which the server generates from
// its own rules, so the two cannot disagree; this file holds arithmetic only.
import * as R from './preflightRules.gen'

export type PreflightLevel = 'pass' | 'warning' | 'fail' | 'skipped'

/** One check of the report, as POST /api/creatives/preflight answers it. */
export interface PreflightCheck {
  id: string
  level: PreflightLevel
  message: string
  hint: string
  value: number
  threshold: number
}

export interface PreflightReport {
  score: number
  checks: PreflightCheck[]
}

export interface DesignBox {
  x: number
  y: number
  width: number
  height: number
}

export interface DesignText extends DesignBox {
  text: string
  fontSize: number
  /** #rrggbb */
  color: string
}

/** What the builder knows of an ad: its size, background and items, in ad pixels. */
export interface Design {
  width: number
  height: number
  background: string
  texts: DesignText[]
  images: DesignBox[]
}

/** A face's physical size, its resolution and how far away it is read. */
export interface FaceGeometry {
  width_ft: number
  height_ft: number
  width_px: number
  height_px: number
  viewing_class: string
}

export function viewingClass(id: string): R.ViewingClass {
  return R.ViewingClasses.find((c) => c.id === id) ?? R.ViewingClasses[0]!
}

/** sRGB channel 0..255 to linear light (WCAG 2 relative luminance). */
function linear(channel: number): number {
  const c = channel / 255
  return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4
}

/** WCAG 2 relative luminance (0..1) of a #rgb or #rrggbb colour; an unreadable colour is black. */
export function relativeLuminance(color: string): number {
  const hex = color.trim().replace(/^#/, '')
  const full = hex.length === 3 ? hex.replace(/./g, (c) => c + c) : hex
  if (!/^[0-9a-f]{6}$/i.test(full)) return 0
  const n = parseInt(full, 16)
  return 0.2126 * linear((n >> 16) & 255) + 0.7152 * linear((n >> 8) & 255) + 0.0722 * linear(n & 255)
}

/** WCAG 2 contrast ratio between two colours, 1..21. */
export function contrastRatio(a: string, b: string): number {
  const la = relativeLuminance(a)
  const lb = relativeLuminance(b)
  return (Math.max(la, lb) + 0.05) / (Math.min(la, lb) + 0.05)
}

export function countWords(text: string): number {
  const trimmed = text.trim()
  return trimmed ? trimmed.split(/\s+/).length : 0
}

const round = (n: number, places: number) => {
  const f = 10 ** places
  return Math.round(n * f) / f
}

function fill(template: string, value: number, threshold: number): string {
  return template.replaceAll('{value}', String(value)).replaceAll('{threshold}', String(threshold))
}

function check(id: string, level: Exclude<PreflightLevel, 'skipped'>, value: number, threshold: number, shown?: { value?: string; threshold?: string }): PreflightCheck {
  const texts = R.Messages[id]!
  const v = shown?.value ?? String(value)
  const t = shown?.threshold ?? String(threshold)
  const fillShown = (s: string) => s.replaceAll('{value}', v).replaceAll('{threshold}', t)
  return { id, level, message: fillShown(texts[level]!), hint: level === 'pass' ? '' : fillShown(texts.hint!), value, threshold }
}

/** Lower is better: above warnAbove a warning, above failAbove a fail. */
function levelAbove(value: number, warnAbove: number, failAbove: number): Exclude<PreflightLevel, 'skipped'> {
  return value > failAbove ? 'fail' : value > warnAbove ? 'warning' : 'pass'
}

/** The score out of 100: each check's weight times its level's credit, over the checks that ran. */
export function scoreOf(checks: readonly PreflightCheck[]): number {
  let earned = 0
  let possible = 0
  for (const c of checks) {
    if (c.level === 'skipped') continue
    const weight = R.CheckWeights[c.id] ?? 0
    possible += weight
    earned += weight * (R.LevelCredit[c.level] ?? 0)
  }
  return possible === 0 ? 0 : Math.round((earned / possible) * 100)
}

function sizeCheck(d: Design, face: FaceGeometry): PreflightCheck {
  const shown = { value: `${d.width}x${d.height}`, threshold: `${face.width_px}x${face.height_px}` }
  const ad = d.width / d.height
  const screen = face.width_px / face.height_px
  const off = Math.abs(ad - screen) / screen
  const level = off > R.AspectFailAbove ? 'fail' : off > R.AspectTolerance ? 'warning' : 'pass'
  return check(R.CheckSize, level, round(off, 3), R.AspectTolerance, shown)
}

/** How many face pixels one ad pixel becomes (scaled to fit, letterboxed when the shapes differ). */
function fitScale(d: Design, face: FaceGeometry): number {
  return Math.min(face.width_px / d.width, face.height_px / d.height)
}

function letterCheck(d: Design, face: FaceGeometry): PreflightCheck {
  const distance = viewingClass(face.viewing_class).distance_ft
  const needed = round(distance / R.LegibilityFeetPerInch, 1)
  if (d.texts.length === 0) return check(R.CheckLetterHeight, 'pass', 0, needed)
  const inchesPerFacePixel = (face.height_ft * 12) / face.height_px
  const smallest = Math.min(...d.texts.map((t) => t.fontSize))
  const inches = round(smallest * R.CapHeightRatio * fitScale(d, face) * inchesPerFacePixel, 1)
  const legibleFt = inches * R.LegibilityFeetPerInch
  const level = legibleFt >= distance ? 'pass' : legibleFt >= distance * R.LetterWarnShare ? 'warning' : 'fail'
  return check(R.CheckLetterHeight, level, inches, needed)
}

function contrastCheck(d: Design): PreflightCheck {
  if (d.texts.length === 0) return check(R.CheckContrast, 'pass', 21, R.ContrastWarnBelow)
  const worst = round(Math.min(...d.texts.map((t) => contrastRatio(t.color, d.background))), 2)
  const level = worst < R.ContrastFailBelow ? 'fail' : worst < R.ContrastWarnBelow ? 'warning' : 'pass'
  return check(R.CheckContrast, level, worst, R.ContrastWarnBelow)
}

function nightCheck(d: Design): PreflightCheck {
  // The background covers most of a builder ad; images are not read (the server measures the
  // exported PNG's pixels).
  const mean = round(relativeLuminance(d.background), 2)
  return check(R.CheckNightBrightness, levelAbove(mean, R.NightWarnAbove, R.NightFailAbove), mean, R.NightWarnAbove)
}

function safeAreaCheck(d: Design): PreflightCheck {
  const mx = d.width * R.SafeMarginShare
  const my = d.height * R.SafeMarginShare
  let outside = 0
  let cut = 0
  for (const t of d.texts) {
    if (t.x < 0 || t.y < 0 || t.x + t.width > d.width || t.y + t.height > d.height) cut++
    else if (t.x < mx || t.y < my || t.x + t.width > d.width - mx || t.y + t.height > d.height - my) outside++
  }
  const margin = `${Math.round(R.SafeMarginShare * 100)}%`
  if (cut > 0) return check(R.CheckSafeArea, 'fail', cut, 0, { threshold: margin })
  return check(R.CheckSafeArea, outside > 0 ? 'warning' : 'pass', outside, 0, { threshold: margin })
}

/**
 * The live report of a builder design on a face: the seven checks and the score. Pure and
 * allocation-light, so it runs on every keystroke well inside a frame (preflight.test.ts reports
 * the time).
 */
export function preflightDesign(d: Design, face: FaceGeometry = R.DefaultFace): PreflightReport {
  const words = d.texts.reduce((n, t) => n + countWords(t.text), 0)
  const elements = d.texts.filter((t) => t.text.trim()).length + d.images.length
  const checks = [
    sizeCheck(d, face),
    check(R.CheckWords, levelAbove(words, R.WordsWarnAbove, R.WordsFailAbove), words, R.WordsWarnAbove),
    letterCheck(d, face),
    contrastCheck(d),
    nightCheck(d),
    safeAreaCheck(d),
    check(R.CheckClutter, levelAbove(elements, R.ClutterWarnAbove, R.ClutterFailAbove), elements, R.ClutterWarnAbove),
  ]
  return { score: scoreOf(checks), checks }
}

/** The check ids' names as the report shows them. */
export const CHECK_NAMES: Record<string, string> = {
  [R.CheckSize]: 'Size',
  [R.CheckWords]: 'Words',
  [R.CheckLetterHeight]: 'Letter height',
  [R.CheckContrast]: 'Contrast',
  [R.CheckNightBrightness]: 'Night brightness',
  [R.CheckSafeArea]: 'Safe area',
  [R.CheckClutter]: 'Clutter',
}

export { fill as fillMessage }
