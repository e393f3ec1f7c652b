import type Konva from 'konva'
import { useEffect, useRef, useState, type Ref } from 'react'
import { Image as KonvaImage, Layer, Rect, Stage, Text, Transformer } from 'react-konva'
import { CANVAS_HEIGHT, CANVAS_WIDTH, clampSize, limitResize, MIN_ITEM_HEIGHT } from './builderRules'
import type { BuilderItem, ImageItem } from './items'

export interface BuilderCanvasProps {
  items: BuilderItem[]
  background: string
  selectedId: string | null
  onSelect: (id: string | null) => void
  onChange: (id: string, patch: Partial<BuilderItem>) => void
  /** The stage's display scale (the canvas shrinks to fit the screen). */
  scale: number
  stageRef: Ref<Konva.Stage>
  /** Changes when the web fonts have loaded, so text is measured again. */
  fontsVersion: number
}

function useLoadedImage(src: string): HTMLImageElement | undefined {
  const [image, setImage] = useState<HTMLImageElement>()
  useEffect(() => {
    const img = new window.Image()
    img.onload = () => setImage(img)
    img.src = src
    return () => {
      img.onload = null
    }
  }, [src])
  return image
}

function ImageNode({ item, common }: { item: ImageItem; common: Omit<Konva.ImageConfig, 'image'> & { ref: (node: Konva.Node | null) => void } }) {
  const image = useLoadedImage(item.path)
  return <KonvaImage {...common} image={image} />
}

/**
 * The 1400x400 canvas of A §9 drawn with react-konva: a background rectangle, the items in layer
 * order, and a Transformer on the selected item whose bound-box rule keeps items at least 100x50
 * (A §5). Drags and resizes come back through onChange in canvas pixels.
 */
export default function BuilderCanvas({ items, background, selectedId, onSelect, onChange, scale, stageRef, fontsVersion }: BuilderCanvasProps) {
  const transformer = useRef<Konva.Transformer>(null)
  const nodes = useRef(new Map<string, Konva.Node>())

  useEffect(() => {
    const tr = transformer.current
    if (!tr) return
    const node = selectedId ? nodes.current.get(selectedId) : undefined
    tr.nodes(node ? [node] : [])
    tr.getLayer()?.batchDraw()
  }, [selectedId, items])

  // A text item's box grows (or shrinks) with its text: Konva lays the words out in the item's
  // width and the height follows, so a longer text or a bigger size is never cut at the box's
  // bottom. The measured height goes back to the item, for the side panel and
  // for the export's check that everything fits the 1400x400 ad.
  useEffect(() => {
    for (const item of items) {
      if (item.type !== 'text') continue
      const node = nodes.current.get(item.id)
      if (!node) continue
      const height = Math.max(MIN_ITEM_HEIGHT, Math.ceil(node.height()))
      if (height !== item.height) onChange(item.id, { height })
    }
  }, [items, fontsVersion, onChange])

  const onTransformEnd = (item: BuilderItem, node: Konva.Node) => {
    // Konva resizes by scaling; the item keeps its scale at 1 and takes the new size instead.
    const size = clampSize(node.width() * node.scaleX(), node.height() * node.scaleY())
    node.scaleX(1)
    node.scaleY(1)
    onChange(item.id, { x: Math.round(node.x()), y: Math.round(node.y()), ...size })
  }

  return (
    <Stage
      ref={stageRef}
      width={CANVAS_WIDTH * scale}
      height={CANVAS_HEIGHT * scale}
      scaleX={scale}
      scaleY={scale}
      onMouseDown={(e) => {
        if (e.target === e.target.getStage() || e.target.name() === 'background') onSelect(null)
      }}
      onTouchStart={(e) => {
        if (e.target === e.target.getStage() || e.target.name() === 'background') onSelect(null)
      }}
    >
      <Layer key={fontsVersion}>
        <Rect name="background" x={0} y={0} width={CANVAS_WIDTH} height={CANVAS_HEIGHT} fill={background} />
        {items.map((item) => {
          const common = {
            id: item.id,
            x: item.x,
            y: item.y,
            width: item.width,
            height: item.height,
            draggable: true,
            ref: (node: Konva.Node | null) => {
              if (node) nodes.current.set(item.id, node)
              else nodes.current.delete(item.id)
            },
            onMouseDown: () => onSelect(item.id),
            onTap: () => onSelect(item.id),
            onDragStart: () => onSelect(item.id),
            onDragEnd: (e: Konva.KonvaEventObject<DragEvent>) => onChange(item.id, { x: Math.round(e.target.x()), y: Math.round(e.target.y()) }),
            onTransformEnd: (e: Konva.KonvaEventObject<Event>) => onTransformEnd(item, e.target),
          }
          return item.type === 'text' ? (
            // No height: Konva sizes the text box to its wrapped lines (see the effect above).
            <Text {...common} height={undefined} key={item.id} text={item.text} fontFamily={item.font} fontSize={item.fontSize} fill={item.fontColor} wrap="word" />
          ) : (
            <ImageNode key={item.id} item={item} common={common} />
          )
        })}
        <Transformer
          ref={transformer}
          rotateEnabled={false}
          keepRatio={false}
          flipEnabled={false}
          boundBoxFunc={(oldBox, newBox) => limitResize(oldBox, newBox, scale)}
        />
      </Layer>
    </Stage>
  )
}
