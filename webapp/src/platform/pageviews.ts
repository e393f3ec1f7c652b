import { useEffect, useRef } from 'react'
import { useLocation } from 'react-router'
import { api } from './api'

const pageviewsApi = api.injectEndpoints({
  endpoints: (build) => ({
    recordPageView: build.mutation<null, { path: string; referrer: string }>({
      query: (body) => ({ url: '/api/analytics/pageviews', method: 'POST', body }),
      extraOptions: { silent: true },
    }),
  }),
})

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
  const [record] = pageviewsApi.useRecordPageViewMutation()
  const previous = useRef<string | null>(null)

  useEffect(() => {
    const referrer = previous.current ?? withoutQuery(document.referrer)
    previous.current = pathname
    void record({ path: pathname, referrer }).catch(() => undefined)
  }, [pathname, record])
}
