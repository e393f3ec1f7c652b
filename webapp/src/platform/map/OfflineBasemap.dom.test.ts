import type { FeatureCollection } from 'geojson'
import { describe, expect, it } from 'vitest'
import basemap from './basemap/us-basemap.json'
import { STATE_PARTS, statesInParts } from './OfflineBasemap'

const states = (basemap as unknown as { states: FeatureCollection }).states
const points = (c: FeatureCollection) => JSON.stringify(c.features.map((f) => f.geometry)).match(/\[-?\d+(\.\d+)?,-?\d+(\.\d+)?\]/g)?.length ?? 0

describe('statesInParts', () => {
  it('draws every state once, in order, in parts of about as many points', () => {
    const parts = statesInParts(states, STATE_PARTS)
    expect(parts).toHaveLength(STATE_PARTS)
    expect(parts.flatMap((p) => p.features)).toEqual(states.features)
    const total = points(states)
    // No part is the whole drawing's task again: each has at most about half the points.
    for (const part of parts) expect(points(part)).toBeLessThan(total / 2)
    expect(parts.reduce((n, p) => n + points(p), 0)).toBe(total)
  })

  it('makes fewer parts when there are fewer states than parts', () => {
    const two: FeatureCollection = { type: 'FeatureCollection', features: states.features.slice(0, 2) }
    const parts = statesInParts(two, STATE_PARTS)
    expect(parts.flatMap((p) => p.features)).toEqual(two.features)
    expect(parts.length).toBeLessThanOrEqual(2)
  })
})
