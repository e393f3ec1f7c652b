import { useSyncExternalStore } from 'react'

const never = () => () => {}

/**
 * False while a prerendered page waits for React (scripts/prerender.mjs), true once it
 * has hydrated, and true at once for a page React renders itself. A prerendered form's submit
 * button stays disabled until then: clicked earlier, the browser would submit the form natively
 * (a GET to the same page, the typed password in the address) instead of signing in.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    never,
    () => true,
    () => false,
  )
}
