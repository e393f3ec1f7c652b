// The face editor's corner rules (issue 29): the four corners of a face's screen on its photo, in
// photo pixels, clockwise from the top left. The server refuses anything else (ValidCorners in
// modules/locations/rules.go); the editor says so before the save.

export interface Point {
  x: number
  y: number
}

export const CORNER_NAMES = ['Top left', 'Top right', 'Bottom right', 'Bottom left'] as const

/** A starting quad when a photo has no corners yet: the middle of the photo. */
export function defaultCorners(width: number, height: number): Point[] {
  const x0 = Math.round(width * 0.25)
  const x1 = Math.round(width * 0.75)
  const y0 = Math.round(height * 0.3)
  const y1 = Math.round(height * 0.6)
  return [
    { x: x0, y: y0 },
    { x: x1, y: y0 },
    { x: x1, y: y1 },
    { x: x0, y: y1 },
  ]
}

/** A point kept inside the photo. */
export function clampPoint(p: Point, width: number, height: number): Point {
  return { x: Math.round(Math.min(width, Math.max(0, p.x))), y: Math.round(Math.min(height, Math.max(0, p.y))) }
}

/**
 * Whether four points are a convex quad inside the photo, clockwise on screen (y down) from the
 * top-left: every turn the same way, no three in line, and the first point nearest the top left.
 */
export function validCorners(pts: readonly Point[], width: number, height: number): boolean {
  if (pts.length !== 4 || width <= 0 || height <= 0) return false
  if (pts.some((p) => !Number.isFinite(p.x) || !Number.isFinite(p.y) || p.x < 0 || p.y < 0 || p.x > width || p.y > height)) return false
  for (let i = 0; i < 4; i++) {
    const a = pts[i]!
    const b = pts[(i + 1) % 4]!
    const c = pts[(i + 2) % 4]!
    if ((b.x - a.x) * (c.y - b.y) - (b.y - a.y) * (c.x - b.x) <= 0) return false
  }
  const first = pts[0]!.x + pts[0]!.y
  return pts.slice(1).every((p) => p.x + p.y >= first)
}
