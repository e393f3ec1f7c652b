import type { Design } from '../shared/preflight'
import { CANVAS_HEIGHT, CANVAS_WIDTH } from './builderRules'
import type { BuilderItem } from './items'

/** The builder's items as the pre-flight reads them: its text exactly, its images as boxes. */
export function designOf(items: readonly BuilderItem[], background: string): Design {
  const design: Design = { width: CANVAS_WIDTH, height: CANVAS_HEIGHT, background, texts: [], images: [] }
  for (const i of items) {
    const box = { x: i.x, y: i.y, width: i.width, height: i.height }
    if (i.type === 'text') design.texts.push({ ...box, text: i.text, fontSize: i.fontSize, color: i.fontColor })
    else design.images.push(box)
  }
  return design
}
