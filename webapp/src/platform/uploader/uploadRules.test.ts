import { describe, expect, it } from 'vitest'
import {
  checkFile,
  checkSelection,
  extensionOf,
  MB,
  MSG_EMPTY_FILE,
  MSG_UPLOAD_UNEXPECTED,
  MSG_WRONG_TYPE,
  uploadErrorMessage,
  UPLOAD_RULES,
  type UploadKind,
} from './uploadRules'

const IMAGE_TYPE = UPLOAD_RULES.image.wrongType
const CONTENT_TYPE = UPLOAD_RULES.content.wrongType
const file = (name: string, type: string, size = 1000) => ({ name, type, size })

describe('checkFile', () => {
  const cases: [UploadKind, ReturnType<typeof file>, string | null][] = [
    ['creative', file('ad.jpg', 'image/jpeg'), null],
    ['creative', file('AD.JPEG', 'image/jpeg'), null],
    ['creative', file('ad.tif', 'image/tiff'), null],
    ['creative', file('ad.tiff', ''), null],
    ['creative', file('ad.png', 'image/png'), MSG_WRONG_TYPE],
    // A renamed file: the extension says jpeg, the browser's type says PDF.
    ['creative', file('report.jpg', 'application/pdf'), MSG_WRONG_TYPE],
    ['creative', file('noextension', 'image/jpeg'), MSG_WRONG_TYPE],
    ['creative', file('ad.jpg', 'image/jpeg', 0), MSG_EMPTY_FILE],
    ['creative', file('ad.jpg', 'image/jpeg', 10 * MB), null],
    ['creative', file('ad.jpg', 'image/jpeg', 11 * MB), 'This file is 11 MB; the limit is 10 MB.'],
    ['creativeLibrary', file('ad.jpg', 'image/jpeg'), null],
    ['image', file('photo.png', 'image/png'), null],
    ['image', file('clip.mp4', 'video/mp4'), IMAGE_TYPE],
    ['creativeLibrary', file('ad.png', 'image/png'), MSG_WRONG_TYPE],
    ['image', file('ad.png', 'image/png'), null],
    ['image', file('ad.bmp', 'image/bmp'), IMAGE_TYPE],
    ['content', file('photo.webp', 'image/webp'), null],
    ['content', file('clip.mp4', 'video/mp4'), null],
    ['content', file('deck.pdf', 'application/pdf'), null],
    ['content', file('letter.doc', 'application/msword'), null],
    ['content', file('letter.docx', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'), null],
    ['content', file('sheet.xls', 'application/vnd.ms-excel'), null],
    ['content', file('sheet.xlsx', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'), null],
    ['content', file('notes.txt', 'text/plain'), CONTENT_TYPE],
    ['content', file('run.exe', 'application/x-msdownload'), CONTENT_TYPE],
    ['content', file('clip.mp4', 'application/pdf'), CONTENT_TYPE],
    ['content', file('empty.pdf', 'application/pdf', 0), MSG_EMPTY_FILE],
    ['builderImage', file('logo.png', 'image/png'), null],
    ['builderImage', file('logo.jpg', 'image/jpeg'), null],
    ['builderImage', file('logo.gif', 'image/gif'), MSG_WRONG_TYPE],
    ['builderImage', file('logo.tif', 'image/tiff'), MSG_WRONG_TYPE],
  ]
  it.each(cases)('%s %o → %s', (kind, facts, expected) => {
    expect(checkFile(kind, facts)).toBe(expected)
  })
})

describe('checkSelection', () => {
  it('refuses 21 files at once for the multi-file kinds', () => {
    const files = Array.from({ length: 21 }, (_, i) => file(`ad${i}.jpg`, 'image/jpeg'))
    expect(checkSelection('creativeLibrary', files).error).toBe('You can upload at most 20 files at once.')
    expect(checkSelection('creativeLibrary', files.slice(0, 20)).error).toBeNull()
  })

  it('takes one file only in the creative dropzone', () => {
    expect(checkSelection('creative', [file('a.jpg', 'image/jpeg'), file('b.jpg', 'image/jpeg')]).error).toBe('Please upload one file at a time.')
  })

  it('reports each file on its own', () => {
    const result = checkSelection('creativeLibrary', [file('a.jpg', 'image/jpeg'), file('b.pdf', 'application/pdf')])
    expect(result.files.map((f) => f.error)).toEqual([null, MSG_WRONG_TYPE])
  })
})

describe('uploadErrorMessage (A §8)', () => {
  it.each([
    [422, 'The file is not a JPEG or TIF image.', 'The file is not a JPEG or TIF image.'],
    [422, '', MSG_UPLOAD_UNEXPECTED],
    [413, 'Too large', MSG_UPLOAD_UNEXPECTED],
    [400, 'Empty file', MSG_UPLOAD_UNEXPECTED],
    [500, 'Internal error.', MSG_UPLOAD_UNEXPECTED],
    [0, null, MSG_UPLOAD_UNEXPECTED],
  ])('%i %o → %s', (status, message, expected) => {
    expect(uploadErrorMessage(status, message)).toBe(expected)
  })
})

it('reads the extension in lower case', () => {
  expect(extensionOf('My.Ad.JPG')).toBe('jpg')
  expect(extensionOf('README')).toBe('')
})
