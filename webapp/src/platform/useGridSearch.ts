import { useEffect, useState } from 'react'
import type { GridState } from './DataGrid'

/** How long the grids wait after the last key before they search. */
export const SEARCH_DELAY_MS = 300

/**
 * A server-side grid with a search box: `text` is what the box shows, `q` the trimmed search the
 * query sends once typing has paused, and each new search goes back to page 1.
 */
export function useGridSearch(initial: GridState, initialText = '') {
  const [grid, setGrid] = useState<GridState>(initial)
  // A link may open the grid searching (the audit log's links: ?q=).
  const [text, setText] = useState(initialText)
  const [q, setQ] = useState(initialText.trim())

  useEffect(() => {
    const timer = setTimeout(() => {
      setQ(text.trim())
      setGrid((g) => ({ ...g, page: 1 }))
    }, SEARCH_DELAY_MS)
    return () => clearTimeout(timer)
  }, [text])

  return { grid, setGrid, text, setText, q }
}
