// Every open Modal registers how to close itself, so the session expiry (B §4) can dismiss them
// all at once. The list is also a stack: only the top-most modal answers Escape and traps focus.

type Close = () => void

const open: { close: Close }[] = []

export function registerOpenModal(close: Close): { unregister: () => void; isTop: () => boolean } {
  const entry = { close }
  open.push(entry)
  return {
    unregister: () => {
      const i = open.indexOf(entry)
      if (i >= 0) open.splice(i, 1)
    },
    isTop: () => open[open.length - 1] === entry,
  }
}

/** Closes every open modal, the top-most first. */
export function closeAllModals(): void {
  for (const entry of [...open].reverse()) entry.close()
}

export function openModalCount(): number {
  return open.length
}
