import type { Design } from '../shared/preflight'
import { CANVAS_HEIGHT, CANVAS_WIDTH } from './builderRules'
import type { BuilderItem } from './items'

/** The builder's items as the pre-flight reads them: its text exactly, its images as boxes. */
export function designOf(items: readonly BuilderItem[], background: string): Design {
  return {
    width: CANVAS_WIDTH,
    height: CANVAS_HEIGHT,
    background,
    elements: items.map((i) => {
      const box = { x: i.x, y: i.y, width: i.width, height: i.height }
      return i.type === 'text'
        ? { kind: 'text', ...box, text: i.text, font_size: i.fontSize, font_family: i.font, fill: i.fontColor }
        : { kind: 'image', ...box }
    }),
  }
}
