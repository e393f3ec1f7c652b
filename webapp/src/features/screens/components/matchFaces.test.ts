import { describe, expect, it } from 'vitest'
import type { Location } from '../../../platform/api-types/locations'
import { matchFaces } from './PairScreenModal'

const face = (id: string, location_name: string, city: string, faceName = 'North Face') => ({ id, location_name, city, market: city, face: faceName }) as Location

describe('matchFaces (the face picker of Pair a screen)', () => {
  const faces = [face('1', 'Market St & 5th', 'San Francisco'), face('2', 'Market St & 5th', 'San Francisco', 'South Face'), face('3', 'Sunset Blvd', 'Los Angeles')]
  it('matches every word, in any field, whatever the case', () => {
    expect(matchFaces(faces, 'market south').map((f) => f.id)).toEqual(['2'])
    expect(matchFaces(faces, 'LOS angeles').map((f) => f.id)).toEqual(['3'])
  })
  it('shows nothing before a word is typed', () => {
    expect(matchFaces(faces, '   ')).toEqual([])
  })
  it('stops at the limit', () => {
    expect(matchFaces(faces, 'face', 2)).toHaveLength(2)
  })
})
