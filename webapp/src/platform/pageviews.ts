import { useEffect, useRef } from 'react'
import { useLocation } from 'react-router'
import { send } from './http'

// A plain call, not an RTK Query mutation: the static public pages report page views too, and they
// do not load the store (src/app/public/routes.tsx).

/** Drops the query and fragment: they can hold tokens (reset and access links). */
export function withoutQuery(url: string): string {
  if (!url) return ''
  try {
    const parsed = new URL(url)
    return parsed.origin + parsed.pathname
  } catch {
    return url.split(/[?#]/)[0] ?? ''
  }
}

/** A §1: every route change is reported as a page view, fire-and-forget. */
export function usePageViews(): void {
  const { pathname } = useLocation()
  const previous = useRef<string | null>(null)

  useEffect(() => {
    const referrer = previous.current ?? withoutQuery(document.referrer)
    previous.current = pathname
    // Sent a task later: the request's start is a few milliseconds of the main thread, and on a
    // prerendered page these effects run in the hydration's task, /locations' longest but one on a
    // phone (issue 30, Total Blocking Time). Not cancelled on the next change: each is reported.
    window.setTimeout(() => {
      void send({ url: '/api/analytics/pageviews', method: 'POST', body: { path: pathname, referrer } }).catch(() => undefined)
    }, 0)
  }, [pathname])
}
