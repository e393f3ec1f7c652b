import { useEffect, useRef, useState } from 'react'
import { Circle, Image as KonvaImage, Layer, Line, Stage, Text } from 'react-konva'
import { clampPoint, CORNER_NAMES, type Point } from './cornerRules'

function usePhoto(src: string): { image?: HTMLImageElement; failed: boolean } {
  const [state, setState] = useState<{ src: string; image?: HTMLImageElement; failed: boolean }>({ src, failed: false })
  useEffect(() => {
    const img = new window.Image()
    img.onload = () => setState({ src, image: img, failed: false })
    img.onerror = () => setState({ src, failed: true })
    img.src = src
    return () => {
      img.onload = null
      img.onerror = null
    }
  }, [src])
  return state.src === src ? state : { failed: false }
}

/**
 * Issue 29: the admin drags the four corners of the screen on the face's photo (konva). The
 * corners are in photo pixels; the stage shows the photo at the width it has. The number fields
 * beside it are the keyboard's way to the same corners.
 */
export default function CornerEditor({
  photo,
  photoWidth,
  photoHeight,
  corners,
  onChange,
}: {
  photo: string
  photoWidth: number
  photoHeight: number
  corners: Point[]
  onChange: (index: number, point: Point) => void
}) {
  const frame = useRef<HTMLDivElement>(null)
  const [width, setWidth] = useState(0)
  const { image, failed } = usePhoto(photo)

  useEffect(() => {
    const el = frame.current
    if (!el) return
    const measure = () => setWidth(el.clientWidth)
    measure()
    if (typeof ResizeObserver === 'undefined') return
    const observer = new ResizeObserver(measure)
    observer.observe(el)
    return () => observer.disconnect()
  }, [])

  const scale = width > 0 && photoWidth > 0 ? width / photoWidth : 0
  const radius = 9 / Math.max(scale, 0.01)
  return (
    <div ref={frame} className="w-0 min-w-full overflow-hidden rounded-lg border border-slate-300 bg-slate-100" data-testid="corner-editor">
      {failed ? (
        <p className="p-4 text-sm text-red-700">The face photo could not be loaded.</p>
      ) : !image || scale === 0 ? (
        <p className="p-4 text-sm text-slate-600">Loading the face photo…</p>
      ) : (
        <Stage width={width} height={photoHeight * scale} scaleX={scale} scaleY={scale}>
          <Layer>
            <KonvaImage image={image} width={photoWidth} height={photoHeight} />
            <Line points={corners.flatMap((p) => [p.x, p.y])} closed stroke="#facc15" strokeWidth={3 / scale} fill="rgba(250,204,21,0.15)" />
            {corners.map((p, i) => (
              <Circle
                key={CORNER_NAMES[i]}
                name={`corner-${i}`}
                x={p.x}
                y={p.y}
                radius={radius}
                fill="#facc15"
                stroke="#111827"
                strokeWidth={2 / scale}
                draggable
                dragBoundFunc={(pos) => {
                  // In stage (screen) pixels: kept inside the photo.
                  const inside = clampPoint({ x: pos.x / scale, y: pos.y / scale }, photoWidth, photoHeight)
                  return { x: inside.x * scale, y: inside.y * scale }
                }}
                onDragMove={(e) => onChange(i, clampPoint({ x: e.target.x(), y: e.target.y() }, photoWidth, photoHeight))}
                onDragEnd={(e) => onChange(i, clampPoint({ x: e.target.x(), y: e.target.y() }, photoWidth, photoHeight))}
              />
            ))}
            {corners.map((p, i) => (
              <Text key={`label-${i}`} x={p.x + radius} y={p.y + radius} text={String(i + 1)} fontSize={16 / scale} fill="#ffffff" stroke="#111827" strokeWidth={0.5 / scale} listening={false} />
            ))}
          </Layer>
        </Stage>
      )}
    </div>
  )
}
