import { describe, expect, it } from 'vitest'
import { pageLinks, parsePage } from './pageLinks'

describe('pageLinks (B §9: at most 9 links, at least 5, with ...)', () => {
  it.each([
    [1, 1, [1]],
    [1, 5, [1, 2, 3, 4, 5]],
    [4, 9, [1, 2, 3, 4, 5, 6, 7, 8, 9]],
    [1, 20, [1, 2, 3, 4, 5, 6, 7, '...', 20]],
    [6, 20, [1, 2, 3, 4, 5, 6, 7, '...', 20]],
    [7, 20, [1, '...', 5, 6, 7, 8, 9, '...', 20]],
    [10, 20, [1, '...', 8, 9, 10, 11, 12, '...', 20]],
    [14, 20, [1, '...', 12, 13, 14, 15, 16, '...', 20]],
    [15, 20, [1, '...', 14, 15, 16, 17, 18, 19, 20]],
    [20, 20, [1, '...', 14, 15, 16, 17, 18, 19, 20]],
    [1, 10, [1, 2, 3, 4, 5, 6, 7, '...', 10]],
  ])('page %i of %i', (current, last, expected) => {
    expect(pageLinks(current, last)).toEqual(expected)
  })

  it('honours a smaller maximum, never below 5', () => {
    expect(pageLinks(5, 10, 5)).toEqual([1, '...', 5, '...', 10])
    expect(pageLinks(1, 10, 5)).toEqual([1, 2, 3, '...', 10])
    expect(pageLinks(10, 10, 5)).toEqual([1, '...', 8, 9, 10])
    expect(pageLinks(5, 10, 3)).toEqual(pageLinks(5, 10, 5))
    expect(pageLinks(5, 30, 20)).toEqual(pageLinks(5, 30, 9))
  })

  it('keeps the current page in range', () => {
    expect(pageLinks(0, 3)).toEqual([1, 2, 3])
    expect(pageLinks(99, 20)).toEqual(pageLinks(20, 20))
    expect(pageLinks(1, 0)).toEqual([1])
  })

  it('always shows the first, last and current page, within the limit, with no repeats', () => {
    for (const max of [5, 6, 7, 8, 9]) {
      for (let last = 1; last <= 40; last += 1) {
        for (let current = 1; current <= last; current += 1) {
          const links = pageLinks(current, last, max)
          const pages = links.filter((l): l is number => l !== '...')
          expect(links.length).toBeLessThanOrEqual(max)
          expect(pages).toContain(1)
          expect(pages).toContain(last)
          expect(pages).toContain(current)
          expect(new Set(pages).size).toBe(pages.length)
          expect([...pages].sort((a, b) => a - b)).toEqual(pages)
          // '...' stands for at least one left-out page, never for none.
          links.forEach((l, i) => {
            if (l === '...') expect((links[i + 1] as number) - (links[i - 1] as number)).toBeGreaterThan(1)
          })
        }
      }
    }
  })
})

describe('parsePage (B §5: digits between 1 and the last page)', () => {
  it.each([
    ['1', 5, 1],
    ['5', 5, 5],
    ['6', 5, null],
    ['0', 5, null],
    ['-1', 5, null],
    ['2.5', 5, null],
    ['1e1', 50, null],
    [' 2', 5, null],
    ['abc', 5, null],
    ['', 5, null],
    [null, 5, null],
    [undefined, 5, null],
    ['1', 0, 1],
  ])('%j of %i → %j', (value, last, expected) => {
    expect(parsePage(value, last)).toBe(expected)
  })
})
