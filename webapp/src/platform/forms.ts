import { useCallback, useEffect, useRef, useState } from 'react'

/**
 * B §5 / DESIGN §6: after a failed submit, the first invalid input is scrolled into view and
 * focused. Call `focusInvalid()` after setting the errors; the focus moves once they render.
 */
export function useFocusFirstInvalid<T extends HTMLElement = HTMLFormElement>() {
  const ref = useRef<T>(null)
  const [attempt, setAttempt] = useState(0)

  useEffect(() => {
    if (attempt === 0) return
    const invalid = ref.current?.querySelector<HTMLElement>('[aria-invalid="true"]')
    if (!invalid) return
    invalid.scrollIntoView?.({ block: 'center', behavior: 'smooth' })
    invalid.focus({ preventScroll: true })
  }, [attempt])

  const focusInvalid = useCallback(() => setAttempt((a) => a + 1), [])
  return { ref, focusInvalid }
}

/** Keeps the entries that hold a message. */
export function compactErrors<K extends string>(errors: Record<K, string | null | undefined>): Partial<Record<K, string>> {
  const out: Partial<Record<K, string>> = {}
  for (const key of Object.keys(errors) as K[]) {
    const message = errors[key]
    if (message) out[key] = message
  }
  return out
}
