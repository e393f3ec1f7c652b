import { describe, expect, it } from 'vitest'
import { apparentShare, matrix3d, project, squareToQuad, type Corners } from './perspective'

const quad: Corners = [
  { x: 100, y: 50 },
  { x: 400, y: 80 },
  { x: 390, y: 260 },
  { x: 110, y: 300 },
]

describe('perspective', () => {
  it('takes the unit square onto the four corners', () => {
    const m = squareToQuad(quad)!
    const back = [project(m, 0, 0), project(m, 1, 0), project(m, 1, 1), project(m, 0, 1)]
    back.forEach((p, i) => {
      expect(p.x).toBeCloseTo(quad[i]!.x, 6)
      expect(p.y).toBeCloseTo(quad[i]!.y, 6)
    })
  })

  it('is affine for a parallelogram and refuses corners in a line', () => {
    const m = squareToQuad([{ x: 0, y: 0 }, { x: 10, y: 0 }, { x: 12, y: 5 }, { x: 2, y: 5 }])!
    expect(m.slice(6)).toEqual([0, 0, 1])
    expect(squareToQuad([{ x: 0, y: 0 }, { x: 1, y: 1 }, { x: 2, y: 2 }, { x: 3, y: 3 }])).toBeNull()
  })

  it('writes a CSS matrix3d that maps an element’s corners (column-major)', () => {
    const css = matrix3d(1000, 300, quad)!
    const n = css.slice('matrix3d('.length, -1).split(',').map(Number)
    // x' = (n0 x + n4 y + n12) / (n3 x + n7 y + n15)
    const at = (x: number, y: number) => {
      const w = n[3]! * x + n[7]! * y + n[15]!
      return { x: (n[0]! * x + n[4]! * y + n[12]!) / w, y: (n[1]! * x + n[5]! * y + n[13]!) / w }
    }
    expect(at(1000, 300).x).toBeCloseTo(390, 3)
    expect(at(1000, 300).y).toBeCloseTo(260, 3)
    expect(at(0, 300).x).toBeCloseTo(110, 3)
  })

  it('shrinks a face with its viewing distance', () => {
    expect(apparentShare(48, 500)).toBeLessThan(apparentShare(48, 250))
    expect(apparentShare(48, 250)).toBeCloseTo((2 * Math.atan(24 / 250) * 180) / Math.PI / 60, 6)
  })
})
