import { CANVAS_HEIGHT, CANVAS_WIDTH, DEFAULT_FONT_COLOR, DEFAULT_FONT_SIZE, fitImage, type Font } from './builderRules'

// A §3 builder items: text (fontColor, fontSize, font) or image (path); both have an id. Positions
// and sizes are in canvas pixels (the 1400x400 output), whatever the screen's scale.

interface ItemBase {
  id: string
  x: number
  y: number
  width: number
  height: number
}

export interface TextItem extends ItemBase {
  type: 'text'
  text: string
  font: Font
  fontSize: number
  fontColor: string
}

export interface ImageItem extends ItemBase {
  type: 'image'
  /** An object URL of the local file. */
  path: string
  name: string
}

export type BuilderItem = TextItem | ImageItem

let counter = 0
function nextId(prefix: string): string {
  counter += 1
  return `${prefix}-${counter}`
}

/** A new text item with the A §9 defaults (Arial, 24, black), placed with a small cascade. */
export function newTextItem(existing: number): TextItem {
  const offset = (existing % 6) * 24
  return {
    id: nextId('text'),
    type: 'text',
    text: 'Your text here',
    font: 'Arial',
    fontSize: DEFAULT_FONT_SIZE,
    fontColor: DEFAULT_FONT_COLOR,
    x: 60 + offset,
    y: 60 + offset,
    width: 320,
    height: 60,
  }
}

export function newImageItem(path: string, name: string, naturalWidth: number, naturalHeight: number): ImageItem {
  const { width, height } = fitImage(naturalWidth, naturalHeight)
  return {
    id: nextId('image'),
    type: 'image',
    path,
    name,
    x: Math.round((CANVAS_WIDTH - width) / 2),
    y: Math.round((CANVAS_HEIGHT - height) / 2),
    width,
    height,
  }
}

export function describeItem(item: BuilderItem): string {
  if (item.type === 'image') return `Image: ${item.name}`
  const text = item.text.trim() || 'empty text'
  return `Text: ${text.length > 30 ? `${text.slice(0, 30)}…` : text}`
}
