/// <reference types="node" />
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { preflightDesign, type Design, type PreflightFace } from './preflight'

interface GoldenCase {
  name: string
  design: Design
  faces: PreflightFace[]
  expected: {
    score: number
    levels: Record<string, string>
    values: Record<string, number>
    faces: { face_id: string; score: number; levels: Record<string, string> }[]
  }
}

// The server's golden cases, read with fs where the Go tests read them (Vite refuses an import
// from outside webapp/), so a change to either side that makes them disagree fails here.
const GOLDEN = resolve(import.meta.dirname, '../../../../../modules/creatives/internal/preflight/testdata/golden.json')
const golden = JSON.parse(readFileSync(GOLDEN, 'utf8')) as { cases: GoldenCase[] }
const byId = <T extends { id: string }>(list: T[], pick: (t: T) => unknown) => Object.fromEntries(list.map((c) => [c.id, pick(c)]))

describe('the server’s golden pre-flight cases', () => {
  it('has cases', () => {
    expect(golden.cases.length).toBeGreaterThan(10)
  })

  for (const c of golden.cases) {
    it(c.name, () => {
      const report = preflightDesign(c.design, c.faces)
      expect(report.score).toBe(c.expected.score)
      expect(byId(report.checks, (x) => x.level)).toEqual(c.expected.levels)
      const values = byId(report.checks, (x) => x.value) as Record<string, number>
      for (const [id, want] of Object.entries(c.expected.values)) expect(values[id], id).toBeCloseTo(want, 2)
      expect(report.faces!.map((f) => ({ face_id: f.face_id, score: f.score, levels: byId(f.checks, (x) => x.level) }))).toEqual(c.expected.faces)
    })
  }
})
