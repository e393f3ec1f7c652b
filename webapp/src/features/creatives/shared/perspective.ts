// The perspective of the in-situ preview (issue 29): the projective transform that takes a
// rectangle onto the four corners of a face's screen on its photo, as a CSS matrix3d.

export interface Point {
  x: number
  y: number
}

/** The four corners of a screen, clockwise from the top left. */
export type Corners = [Point, Point, Point, Point]

/**
 * The 3x3 projective matrix (row-major a b c / d e f / g h 1) that takes the unit square's
 * corners (0,0) (1,0) (1,1) (0,1) onto q (Heckbert, "Fundamentals of Texture Mapping and Image
 * Warping", 1989, §2.2.3). Null when three corners are in a line (no transform exists).
 */
export function squareToQuad(q: Corners): number[] | null {
  const [p0, p1, p2, p3] = q
  const sx = p0.x - p1.x + p2.x - p3.x
  const sy = p0.y - p1.y + p2.y - p3.y
  if (Math.abs(sx) < 1e-9 && Math.abs(sy) < 1e-9) {
    return [p1.x - p0.x, p3.x - p0.x, p0.x, p1.y - p0.y, p3.y - p0.y, p0.y, 0, 0, 1]
  }
  const dx1 = p1.x - p2.x
  const dx2 = p3.x - p2.x
  const dy1 = p1.y - p2.y
  const dy2 = p3.y - p2.y
  const den = dx1 * dy2 - dx2 * dy1
  if (Math.abs(den) < 1e-9) return null
  const g = (sx * dy2 - dx2 * sy) / den
  const h = (dx1 * sy - sx * dy1) / den
  return [p1.x - p0.x + g * p1.x, p3.x - p0.x + h * p3.x, p0.x, p1.y - p0.y + g * p1.y, p3.y - p0.y + h * p3.y, p0.y, g, h, 1]
}

/** Where the matrix takes a point. */
export function project(m: number[], x: number, y: number): Point {
  const w = m[6]! * x + m[7]! * y + m[8]!
  return { x: (m[0]! * x + m[1]! * y + m[2]!) / w, y: (m[3]! * x + m[4]! * y + m[5]!) / w }
}

/**
 * The CSS transform that puts an element of width x height (transform-origin 0 0) onto the
 * corners: the element is first scaled to the unit square, then projected.
 */
export function matrix3d(width: number, height: number, q: Corners): string | null {
  const m = squareToQuad(q)
  if (!m || width <= 0 || height <= 0) return null
  const [a, b, c, d, e, f, g, h] = m as [number, number, number, number, number, number, number, number]
  // CSS matrix3d is column-major.
  const cols = [a / width, d / width, 0, g / width, b / height, e / height, 0, h / height, 0, 0, 1, 0, c, f, 0, 1]
  return `matrix3d(${cols.map((n) => +n.toFixed(9)).join(',')})`
}

/** Corners given in shares of the photo (0..1) in pixels of a photo shown at width x height. */
export function scaleCorners(corners: Corners, width: number, height: number): Corners {
  return corners.map((p) => ({ x: p.x * width, y: p.y * height })) as Corners
}

/**
 * How large the face looks to a driver, as a share of a windshield view 60° wide (a comfortable
 * central field of view): the angle the face's width subtends at the viewing distance, over 60°.
 */
export function apparentShare(widthFt: number, distanceFt: number): number {
  if (widthFt <= 0 || distanceFt <= 0) return 1
  const angle = 2 * Math.atan(widthFt / 2 / distanceFt) * (180 / Math.PI)
  return Math.min(1, angle / 60)
}
