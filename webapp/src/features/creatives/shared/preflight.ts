// The builder's live pre-flight (issue 29, DESIGN §1.16): the checks the server runs on a
// creative, computed in the browser from the design's known text, fonts and colours. Every
// threshold, weight, constant and message comes from preflightRules.gen.ts, which the server
// generates from modules/creatives/internal/preflight, so the two cannot disagree; this file holds
// the same arithmetic as that package (preflight.go, design.go, colour.go), and
// preflight.golden.test.ts runs the server's golden cases against it.
import {
  PREFLIGHT_CONSTANTS as K,
  PREFLIGHT_FIT as FIT,
  PREFLIGHT_LEVEL_CREDIT,
  PREFLIGHT_LEVELS as L,
  PREFLIGHT_REFERENCE_FACE,
  PREFLIGHT_RULES,
} from './preflightRules.gen'

export type PreflightLevel = (typeof L)[keyof typeof L]
type CheckId = (typeof PREFLIGHT_RULES)[number]['id']
type Rule = (typeof PREFLIGHT_RULES)[number]

/** One check of a report, as POST /api/creatives/preflight answers it. */
export interface PreflightCheck {
  id: string
  level: PreflightLevel | string
  message: string
  hint: string
  value: number
  threshold: number
  unit?: string
  fit?: string
}

export interface PreflightFaceReport {
  face_id: string
  score: number
  checks: PreflightCheck[]
}

/** A creative's pre-flight: overall (the worst of each check), and per face. */
export interface PreflightReport {
  score: number
  checks: PreflightCheck[]
  faces?: PreflightFaceReport[]
}

/** A face as the checks need it: physical size, pixels and viewing distance. */
export interface PreflightFace {
  id: string
  width_ft: number
  height_ft: number
  pixel_width: number
  pixel_height: number
  distance_class: string
  viewing_distance_ft: number
}

export const REFERENCE_FACE: PreflightFace = { ...PREFLIGHT_REFERENCE_FACE }

/** One element of a builder design, in drawing order (later on top). */
export interface DesignElement {
  kind: 'text' | 'shape' | 'image'
  x: number
  y: number
  width: number
  height: number
  text?: string
  font_size?: number
  font_family?: string
  /** The text's colour or the shape's fill, #rrggbb. */
  fill?: string
}

/** What the Ad Design Tool knows of an ad (the same JSON the server reads). */
export interface Design {
  width: number
  height: number
  background: string
  elements: DesignElement[]
}

interface Text {
  text: string
  x: number
  y: number
  w: number
  h: number
  letterHeightPx: number
  contrast: number
}

/** A creative as the checks see it. */
export interface PreflightInput {
  width: number
  height: number
  texts: Text[]
  /** Why the text could not be read; the text checks are then skipped. */
  textSkipped?: string
  meanLuminance: number
  elements: number
}

const RULES = new Map<string, Rule>(PREFLIGHT_RULES.map((r) => [r.id, r]))
function rule(id: CheckId): Rule {
  return RULES.get(id)!
}

const LEVEL_RANK: Record<string, number> = { [L.skipped]: 0, [L.pass]: 1, [L.warning]: 2, [L.fail]: 3 }

/** Red, green and blue of "#rrggbb" or "#rgb"; black for anything else (as the server). */
function parseHex(color: string | undefined): [number, number, number] {
  let s = (color ?? '').trim().replace(/^#/, '')
  if (s.length === 3) s = s.replace(/./g, (c) => c + c)
  if (!/^[0-9a-f]{6}$/i.test(s)) return [0, 0, 0]
  const v = parseInt(s, 16)
  return [(v >> 16) & 255, (v >> 8) & 255, v & 255]
}

function channel(c: number): number {
  const v = c / 255
  return v <= K.wcagLinearCutoff ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4
}

/** WCAG 2.x relative luminance, 0..1. */
export function luminance(color: string | undefined): number {
  const [r, g, b] = parseHex(color)
  return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b)
}

/** WCAG 2.x contrast ratio, 1..21. */
export function contrastRatio(a: string | undefined, b: string | undefined): number {
  let la = luminance(a)
  let lb = luminance(b)
  if (la < lb) [la, lb] = [lb, la]
  return (la + 0.05) / (lb + 0.05)
}

const WORDISH = /[\p{L}\p{Nd}]/u

/** Runs between spaces that hold a letter or a digit (a lone "&" or "-" is not a word). */
export function countWords(s: string): number {
  let n = 0
  for (const w of s.split(/\s+/)) if (w && WORDISH.test(w)) n++
  return n
}

/** Two decimals, as the server's Round2. */
export function round2(x: number): number {
  return Math.floor(x * 100 + 0.5) / 100
}

function formatNumber(x: number): string {
  return String(round2(x))
}

/** A builder design as the checks' input (the server's FromDesign). */
export function fromDesign(d: Design): PreflightInput {
  const input: PreflightInput = { width: d.width, height: d.height, texts: [], meanLuminance: 0, elements: 0 }
  const bg = d.background
  const bgLum = luminance(bg)
  const area = d.width * d.height
  let lum = bgLum
  d.elements.forEach((e, i) => {
    if (e.kind === 'text') {
      if (countWords(e.text ?? '') === 0) return
      input.elements++
      let behind = bg
      const cx = e.x + e.width / 2
      const cy = e.y + e.height / 2
      for (let j = i - 1; j >= 0; j--) {
        const s = d.elements[j]!
        if (s.kind === 'shape' && cx >= s.x && cx <= s.x + s.width && cy >= s.y && cy <= s.y + s.height) {
          behind = s.fill ?? ''
          break
        }
      }
      input.texts.push({
        text: e.text ?? '',
        x: e.x,
        y: e.y,
        w: e.width,
        h: e.height,
        letterHeightPx: (e.font_size ?? 0) * K.capHeightRatio,
        contrast: contrastRatio(e.fill, behind),
      })
    } else if (e.kind === 'shape') {
      input.elements++
      if (area > 0) {
        const w = Math.max(0, Math.min(e.x + e.width, d.width) - Math.max(e.x, 0))
        const h = Math.max(0, Math.min(e.y + e.height, d.height) - Math.max(e.y, 0))
        lum += ((luminance(e.fill) - bgLum) * w * h) / area
      }
    } else {
      input.elements++
    }
  })
  input.meanLuminance = Math.min(1, Math.max(0, lum))
  return input
}

function levelOf(r: Rule, v: number): PreflightLevel {
  if (r.higher) return v >= r.pass ? L.pass : v >= r.warn ? L.warning : L.fail
  return v <= r.pass ? L.pass : v <= r.warn ? L.warning : L.fail
}

function check(r: Rule, level: PreflightLevel, key: string, value: number, threshold: number, vars: Record<string, string> = {}): PreflightCheck {
  const m = (r.messages as Record<string, { message: string; hint: string }>)[key]!
  const all: Record<string, string> = { value: formatNumber(value), threshold: formatNumber(threshold), ...vars }
  // One pass over the text, as Go's strings.Replacer: a filled value is never read again.
  const fill = (s: string) => s.replace(/\{(\w+)\}/g, (whole, name: string) => all[name] ?? whole)
  return { id: r.id, level, message: fill(m.message), hint: fill(m.hint), value: round2(value), threshold, unit: r.unit }
}

/** Out of 100: a pass earns its rule's weight, a warning half; skipped checks are left out. */
export function scoreOf(checks: readonly PreflightCheck[]): number {
  let earned = 0
  let possible = 0
  for (const c of checks) {
    const credit = (PREFLIGHT_LEVEL_CREDIT as Record<string, number>)[c.level]
    if (credit === undefined) continue
    const w = RULES.get(c.id)?.weight ?? 0
    earned += w * credit
    possible += w
  }
  return possible === 0 ? 0 : Math.round((100 * earned) / possible)
}

function sizeCheck(input: PreflightInput, f: PreflightFace): PreflightCheck {
  const r = rule('size')
  const vars = { fit: `${f.pixel_width} x ${f.pixel_height}` }
  if (input.width <= 0 || input.height <= 0 || f.pixel_width <= 0 || f.pixel_height <= 0) {
    return { ...check(r, L.fail, 'fail', 100, r.pass, vars), fit: FIT.letterboxed }
  }
  const diff = Math.abs((input.width * f.pixel_height) / (input.height * f.pixel_width) - 1) * 100
  if (input.width === f.pixel_width && input.height === f.pixel_height) return { ...check(r, L.pass, 'exact', 0, r.pass, vars), fit: FIT.exact }
  if (diff <= r.pass) {
    const scale = f.pixel_width / input.width
    const c = scale > K.upscaleWarn ? check(r, L.warning, 'upscaled', diff, K.upscaleWarn, vars) : check(r, L.pass, 'scaled', diff, r.pass, vars)
    return { ...c, fit: FIT.scaled }
  }
  if (diff <= r.warn) return { ...check(r, L.warning, 'letterboxed', diff, r.pass, vars), fit: FIT.letterboxed }
  return { ...check(r, L.fail, 'fail', diff, r.pass, vars), fit: FIT.letterboxed }
}

function skipped(r: Rule, reason: string): PreflightCheck {
  return check(r, L.skipped, 'skipped', 0, r.pass, { reason })
}

function wordsCheck(input: PreflightInput): PreflightCheck {
  const r = rule('words')
  if (input.textSkipped) return skipped(r, input.textSkipped)
  const n = input.texts.reduce((sum, t) => sum + countWords(t.text), 0)
  if (n === 0) return check(r, L.pass, 'none', 0, r.pass)
  const level = levelOf(r, n)
  return check(r, level, level, n, r.pass)
}

/** Inches on the face of one creative pixel, once fitted inside the face. */
export function inchesPerPixel(input: { width: number; height: number }, f: PreflightFace): number {
  if (input.width <= 0 || input.height <= 0) return 0
  return Math.min((f.width_ft * 12) / input.width, (f.height_ft * 12) / input.height)
}

function letterHeightCheck(input: PreflightInput, f: PreflightFace): PreflightCheck {
  const r = rule('letter_height')
  if (input.textSkipped) return skipped(r, input.textSkipped)
  let minPx = Infinity
  for (const t of input.texts) if (countWords(t.text) > 0 && t.letterHeightPx < minPx) minPx = t.letterHeightPx
  const need = f.viewing_distance_ft / K.legibilityIndex
  if (minPx === Infinity) return check(r, L.pass, 'none', 0, round2(need))
  const inches = minPx * inchesPerPixel(input, f)
  const distance = inches * K.legibilityIndex
  const ratio = f.viewing_distance_ft > 0 ? distance / f.viewing_distance_ft : r.pass
  const level = levelOf(r, ratio)
  return check(r, level, level, inches, round2(need), { distance: formatNumber(Math.round(distance)), viewing: formatNumber(f.viewing_distance_ft) })
}

function contrastCheck(input: PreflightInput): PreflightCheck {
  const r = rule('contrast')
  if (input.textSkipped) return skipped(r, input.textSkipped)
  let lowest = Infinity
  for (const t of input.texts) if (countWords(t.text) > 0 && t.contrast < lowest) lowest = t.contrast
  if (lowest === Infinity) return check(r, L.pass, 'none', 0, r.pass)
  const level = levelOf(r, lowest)
  return check(r, level, level, lowest, r.pass)
}

function nightCheck(input: PreflightInput): PreflightCheck {
  const r = rule('night_brightness')
  const level = levelOf(r, input.meanLuminance)
  return check(r, level, level, input.meanLuminance, r.pass)
}

function marginPct(t: Text, w: number, h: number): number {
  if (w <= 0 || h <= 0) return 0
  return 100 * Math.min(Math.min(t.x / w, t.y / h), Math.min((w - t.x - t.w) / w, (h - t.y - t.h) / h))
}

function safeAreaCheck(input: PreflightInput): PreflightCheck {
  const r = rule('safe_area')
  if (input.textSkipped) return skipped(r, input.textSkipped)
  let lowest = Infinity
  for (const t of input.texts) if (countWords(t.text) > 0) lowest = Math.min(lowest, marginPct(t, input.width, input.height))
  if (lowest === Infinity) return check(r, L.pass, 'none', 0, r.pass)
  lowest = Math.max(lowest, 0) // a box past the edge is 0% from it
  const level = levelOf(r, lowest)
  return check(r, level, level, lowest, r.pass)
}

function clutterCheck(input: PreflightInput): PreflightCheck {
  const r = rule('clutter')
  const level = levelOf(r, input.elements)
  return check(r, level, level, input.elements, r.pass)
}

function evaluateFace(input: PreflightInput, f: PreflightFace): PreflightFaceReport {
  const checks = [sizeCheck(input, f), wordsCheck(input), letterHeightCheck(input, f), contrastCheck(input), nightCheck(input), safeAreaCheck(input), clutterCheck(input)]
  return { face_id: f.id, score: scoreOf(checks), checks }
}

/**
 * The checks of a creative on each face (the reference face when there is none): per face, and
 * overall the lowest face score and the worst outcome of each check, as the server reports.
 */
export function evaluate(input: PreflightInput, faces: readonly PreflightFace[] = []): PreflightReport {
  const list = faces.length === 0 ? [REFERENCE_FACE] : faces
  const report: PreflightReport = { score: 0, checks: [], faces: [] }
  list.forEach((f, i) => {
    const fr = evaluateFace(input, f)
    report.faces!.push(fr)
    if (i === 0 || fr.score < report.score) report.score = fr.score
    if (i === 0) {
      report.checks = [...fr.checks]
      return
    }
    fr.checks.forEach((c, j) => {
      if (LEVEL_RANK[c.level]! > LEVEL_RANK[report.checks[j]!.level]!) report.checks[j] = c
    })
  })
  return report
}

/** The live report of a builder design: what the server will answer for the saved creative. */
export function preflightDesign(d: Design, faces: readonly PreflightFace[] = []): PreflightReport {
  return evaluate(fromDesign(d), faces)
}

/** The check ids' names as the report shows them. */
export const CHECK_NAMES: Record<string, string> = {
  size: 'Size',
  words: 'Words',
  letter_height: 'Letter height',
  contrast: 'Contrast',
  night_brightness: 'Night brightness',
  safe_area: 'Safe area',
  clutter: 'Clutter',
}
