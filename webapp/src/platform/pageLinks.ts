// B §9: pagination shows at most 9 page links (at least 5), with '...' where pages are left out.

export type PageLink = number | '...'

export const MAX_PAGE_LINKS = 9
export const MIN_PAGE_LINKS = 5

/**
 * The page links to show around `current` (1-based) for pages 1..last: the first and the last page
 * always, a window around the current one, and '...' for the gaps. Never more than `max` entries.
 */
export function pageLinks(current: number, last: number, max: number = MAX_PAGE_LINKS): PageLink[] {
  const slots = Math.min(MAX_PAGE_LINKS, Math.max(MIN_PAGE_LINKS, Math.floor(max)))
  const total = Math.max(1, Math.floor(last))
  const page = Math.min(total, Math.max(1, Math.floor(current)))
  if (total <= slots) return Array.from({ length: total }, (_, i) => i + 1)

  const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i)
  // Near the start: 1 … (slots-2), '...', last.
  const edge = slots - 2
  if (page <= edge - 1) return [...range(1, edge), '...', total]
  // Near the end: 1, '...', the last (slots-2) pages.
  if (page >= total - edge + 2) return [1, '...', ...range(total - edge + 1, total)]
  // In the middle: 1, '...', a window around the page, '...', last.
  const inner = slots - 4
  const from = page - Math.floor((inner - 1) / 2)
  return [1, '...', ...range(from, from + inner - 1), '...', total]
}

/**
 * B §5: a page number must be digits between 1 and the last page. Returns the page, or null for
 * anything else (the caller then stays on, or goes back to, page 1).
 */
export function parsePage(value: string | null | undefined, last: number): number | null {
  if (value === null || value === undefined || !/^\d+$/.test(value)) return null
  const page = Number(value)
  return page >= 1 && page <= Math.max(1, last) ? page : null
}
