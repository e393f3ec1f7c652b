// The ad builder's rules (A §3, A §5, A §9) as plain functions: the canvas code only draws.

/** A §9: the builder's output is a 1400x400 PNG. */
export const CANVAS_WIDTH = 1400
export const CANVAS_HEIGHT = 400
/** A §5: builder items are at least 100 wide and 50 high. */
export const MIN_ITEM_WIDTH = 100
export const MIN_ITEM_HEIGHT = 50
/** A §9 defaults. */
export const DEFAULT_FONT_SIZE = 24
export const DEFAULT_FONT_COLOR = '#000000'
export const DEFAULT_BACKGROUND = '#ffffff'
export const FONTS = ['Arial', 'Kanit'] as const
export type Font = (typeof FONTS)[number]
/** A §5: a background brighter than this asks for 'Yes, I understand'. */
export const LIGHT_BRIGHTNESS = 240

export const MSG_CANCEL_BUILDER = 'Are you sure cancel, the progress will be lost?'
export const MSG_LIGHT_CONFIRM = 'Yes, I understand'

/** Red, green and blue (0..255) of a #rgb or #rrggbb colour, or null. */
export function parseHexColor(color: string): [number, number, number] | null {
  const hex = color.trim().replace(/^#/, '')
  const full = hex.length === 3 ? hex.replace(/./g, (c) => c + c) : hex
  if (!/^[0-9a-f]{6}$/i.test(full)) return null
  return [0, 2, 4].map((i) => parseInt(full.slice(i, i + 2), 16)) as [number, number, number]
}

/** Perceived brightness (W3C: (299R + 587G + 114B) / 1000), 0..255. */
export function perceivedBrightness(color: string): number | null {
  const rgb = parseHexColor(color)
  if (!rgb) return null
  const [r, g, b] = rgb
  return (299 * r + 587 * g + 114 * b) / 1000
}

/** A §5: a light background (brightness above 240) needs the user's acknowledgement. */
export function isLightBackground(color: string): boolean {
  const brightness = perceivedBrightness(color)
  return brightness !== null && brightness > LIGHT_BRIGHTNESS
}

export interface Box {
  x: number
  y: number
  width: number
  height: number
}

/**
 * The Transformer's bound-box rule (A §5): a resize that would make an item smaller than 100x50
 * keeps the previous box. The boxes are in screen pixels, so `scale` (the stage's display scale)
 * turns the minimum into them. A box flipped inside out (negative size) is refused too.
 */
export function limitResize<B extends Box>(oldBox: B, newBox: B, scale = 1): B {
  if (newBox.width < MIN_ITEM_WIDTH * scale - 0.01 || newBox.height < MIN_ITEM_HEIGHT * scale - 0.01) return oldBox
  return newBox
}

/** A size raised to the 100x50 minimum (for new items and after a resize). */
export function clampSize(width: number, height: number): { width: number; height: number } {
  return { width: Math.max(MIN_ITEM_WIDTH, Math.round(width)), height: Math.max(MIN_ITEM_HEIGHT, Math.round(height)) }
}

/** Fits an image inside the canvas (keeping its ratio) and at least at the minimum size. */
export function fitImage(naturalWidth: number, naturalHeight: number): { width: number; height: number } {
  const scale = Math.min(1, (CANVAS_WIDTH * 0.6) / naturalWidth, (CANVAS_HEIGHT * 0.9) / naturalHeight)
  return clampSize(naturalWidth * scale, naturalHeight * scale)
}

/** The stage's display scale: the canvas shrinks to the room it has, never grows. */
export function stageScale(availableWidth: number): number {
  if (availableWidth <= 0) return 1
  return Math.min(1, availableWidth / CANVAS_WIDTH)
}

/** The pixel ratio that exports the shrunk stage at exactly 1400x400. */
export function exportPixelRatio(scale: number): number {
  return 1 / scale
}

/** Moves one item within the list (layer order): +1 brings it forward, -1 sends it back. */
export function moveLayer<T extends { id: string }>(items: T[], id: string, step: 1 | -1 | 'front' | 'back'): T[] {
  const index = items.findIndex((i) => i.id === id)
  if (index < 0) return items
  const target =
    step === 'front' ? items.length - 1 : step === 'back' ? 0 : Math.min(items.length - 1, Math.max(0, index + step))
  if (target === index) return items
  const next = [...items]
  const [item] = next.splice(index, 1)
  next.splice(target, 0, item!)
  return next
}

/**
 * The text items that would be cut off in the 1400x400 PNG: a box (its height follows its wrapped
 * lines) that reaches past an edge of the canvas. The export asks before saving such an ad (a
 * long text at size 72 used to be saved as its first word without a warning).
 */
export function textsCutOff<T extends Box & { type: string }>(items: readonly T[]): T[] {
  return items.filter(
    (i) => i.type === 'text' && (i.x < 0 || i.y < 0 || i.x + i.width > CANVAS_WIDTH + 0.5 || i.y + i.height > CANVAS_HEIGHT + 0.5),
  )
}
