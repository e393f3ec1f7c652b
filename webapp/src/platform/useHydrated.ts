import { startTransition, useEffect, useState, useSyncExternalStore } from 'react'

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

/**
 * False on a page's first render (a prerendered page's hydration), then true, set in a
 * transition once it has committed. A page uses it for what its prerendered HTML leaves out: the
 * re-render that adds it is then time-sliced, in tasks of its own. useHydrated's is not: a
 * useSyncExternalStore update renders synchronously, in the hydration's effects, the longest task
 * of /locations together with them (issue 30, Total Blocking Time). A page React renders itself
 * gets one render more, at once after its first.
 */
export function useMountedInTransition(): boolean {
  const [mounted, setMounted] = useState(false)
  useEffect(() => startTransition(() => setMounted(true)), [])
  return mounted
}
