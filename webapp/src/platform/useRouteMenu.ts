import { useCallback, useState, type SetStateAction } from 'react'

/**
 * The open state of a page's phone menu, which closes when the page changes: the menu is open only
 * at the location (`at`) it was opened at, so following a link closes it without an effect.
 */
export function useRouteMenu(at: string): [boolean, (next: SetStateAction<boolean>) => void] {
  const [openAt, setOpenAt] = useState<string | null>(null)
  const setOpen = useCallback(
    (next: SetStateAction<boolean>) =>
      setOpenAt((prev) => {
        const open = typeof next === 'function' ? next(prev === at) : next
        return open ? at : null
      }),
    [at],
  )
  return [openAt === at, setOpen]
}
