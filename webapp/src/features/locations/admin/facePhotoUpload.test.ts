import { describe, expect, it } from 'vitest'
import { MaxFacePhotoBytes, MsgFacePhotoTooLarge, MsgFacePhotoType } from '../../../platform/api-types/locations'
import { photoProblem } from './FacePhotoUpload'

describe('photoProblem', () => {
  it('takes the server’s image types up to its size', () => {
    expect(photoProblem({ size: 1000, type: 'image/jpeg' })).toBeNull()
    expect(photoProblem({ size: MaxFacePhotoBytes, type: 'image/webp' })).toBeNull()
    // A browser that cannot tell the type leaves it to the server.
    expect(photoProblem({ size: 1000, type: '' })).toBeNull()
  })
  it('refuses what the server would, with its messages', () => {
    expect(photoProblem({ size: MaxFacePhotoBytes + 1, type: 'image/png' })).toBe(MsgFacePhotoTooLarge)
    expect(photoProblem({ size: 1000, type: 'image/tiff' })).toBe(MsgFacePhotoType)
    expect(photoProblem({ size: 1000, type: 'application/pdf' })).toBe(MsgFacePhotoType)
  })
})
