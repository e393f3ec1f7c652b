import { describe, expect, it } from 'vitest'
import { addTag, contentTypeOfFile, readContentType, removeTag, youtubeIdFromLink } from './contentRules'

describe('addTag', () => {
  it.each([
    [[], 'summer', ['SUMMER']],
    [[], '  Summer Sale ', ['SUMMER SALE']],
    [['SUMMER'], 'summer', ['SUMMER']],
    [['SUMMER'], 'SUMMER', ['SUMMER']],
    [['SUMMER'], '', ['SUMMER']],
    [['SUMMER'], '   ', ['SUMMER']],
    [['SUMMER'], 'fall', ['SUMMER', 'FALL']],
  ])('%o + %o → %o', (tags, raw, expected) => {
    expect(addTag(tags, raw)).toEqual(expected)
  })

  it('removes one tag', () => {
    expect(removeTag(['A', 'B'], 'A')).toEqual(['B'])
  })
})

describe('youtubeIdFromLink', () => {
  it.each([
    ['https://www.youtube.com/watch?v=dQw4w9WgXcQ', 'dQw4w9WgXcQ'],
    ['https://youtube.com/watch?v=dQw4w9WgXcQ&t=42s', 'dQw4w9WgXcQ'],
    ['https://www.youtube.com/watch?feature=share&v=dQw4w9WgXcQ&list=PL1', 'dQw4w9WgXcQ'],
    ['www.youtube.com/watch?v=dQw4w9WgXcQ', 'dQw4w9WgXcQ'],
    ['https://m.youtube.com/watch?v=abc_DEF-123', 'abc_DEF-123'],
    ['https://www.youtube.com/watch', null],
    ['https://www.youtube.com/watch?t=42', null],
    ['https://www.youtube.com/watch?v=', null],
    ['https://youtu.be/dQw4w9WgXcQ', null],
    ['https://evil.example/watch?v=dQw4w9WgXcQ', null],
    ['https://www.youtube.com/watch?v=<script>', null],
    ['not a link', null],
    ['', null],
  ])('%s → %s', (link, expected) => {
    expect(youtubeIdFromLink(link)).toBe(expected)
  })
})

describe('readContentType', () => {
  it.each([
    ['doc', 'document'],
    ['DOC', 'document'],
    ['document', 'document'],
    ['image', 'image'],
    ['video', 'video'],
    ['youtube', 'youtube'],
    ['something', 'document'],
  ])('%s → %s', (raw, expected) => {
    expect(readContentType(raw)).toBe(expected)
  })
})

it.each([
  ['image/png', 'image'],
  ['video/mp4', 'video'],
  ['application/pdf', 'document'],
  ['', 'document'],
])('a %s file is %s content', (mime, expected) => {
  expect(contentTypeOfFile(mime)).toBe(expected)
})
