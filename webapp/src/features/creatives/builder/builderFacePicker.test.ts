import { describe, expect, it } from 'vitest'
import type { Location } from '../../../platform/api-types/locations'
import { preflightDesign } from '../shared/preflight'
import { checkedFaceOf, faceOptionLabel, filterFaces, REFERENCE_CHECKED } from './BuilderFacePicker'
import { designOf } from './builderPreflight'
import { newTextItem } from './items'

function location(id: string, name: string, distance_class: string, viewing_distance_ft: number, size = { w: 48, h: 14 }): Location {
  return {
    id,
    location_name: name,
    face: 'North',
    geometry: { width_ft: size.w, height_ft: size.h, pixel_width: 1400, pixel_height: 400, distance_class, viewing_distance_ft, speed_mph: 40, photo: '', photo_width: 0, photo_height: 0, corners: [] },
  } as unknown as Location
}

describe('the builder’s face picker', () => {
  it('takes a face’s geometry for the checks, and leaves out a face without one', () => {
    const c = checkedFaceOf(location('a', 'I-25 Exit 4', 'freeway', 500))!
    expect(c.face).toMatchObject({ id: 'a', width_ft: 48, pixel_width: 1400, distance_class: 'freeway', viewing_distance_ft: 500 })
    expect(faceOptionLabel(c)).toBe('I-25 Exit 4, North (48 x 14 ft, freeway)')
    expect(checkedFaceOf({ ...location('b', 'B', 'street', 100), geometry: undefined } as unknown as Location)).toBeNull()
  })

  it('finds faces by every word of the name, in name order', () => {
    const faces = ['Main St & 5th', 'I-25 Exit 4', 'Main St & 9th'].map((n, i) => checkedFaceOf(location(String(i), n, 'street', 100))!)
    expect(filterFaces(faces, 'main').map((c) => c.label)).toEqual(['Main St & 5th, North', 'Main St & 9th, North'])
    expect(filterFaces(faces, ' MAIN 9th ').map((c) => c.face.id)).toEqual(['2'])
    expect(filterFaces(faces, '')).toHaveLength(3)
  })

  it('changes the verdict with the face: the same letters read on a street fail on a freeway', () => {
    const text = { ...newTextItem(0), text: 'Coffee', fontSize: 36, fontColor: '#000000', x: 100, y: 100, width: 600, height: 60 }
    const design = designOf([text], '#ffffff')
    const level = (faces: Parameters<typeof preflightDesign>[1]) => preflightDesign(design, faces).checks.find((c) => c.id === 'letter_height')!.level
    const street = checkedFaceOf(location('s', 'Main St', 'street', 100))!
    const freeway = checkedFaceOf(location('f', 'I-25 Exit 4', 'freeway', 500))!
    expect(level([street.face])).toBe('pass')
    expect(level([freeway.face])).toBe('fail')
    // No face chosen: the standard face, as before.
    expect(preflightDesign(design, [])).toEqual(preflightDesign(design))
    expect(REFERENCE_CHECKED.face.id).toBe('')
  })
})
