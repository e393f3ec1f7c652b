import { vi } from 'vitest'

// A fake server at the network boundary for component tests: `fetch` answers from a table of
// 'METHOD /path' → answer. Our own modules run for real.

export interface FakeRequest {
  method: string
  path: string
  query: URLSearchParams
  headers: Headers
  body: unknown
}

export interface FakeAnswer {
  status?: number
  body?: unknown
}

export type FakeRoute = FakeAnswer | ((request: FakeRequest) => FakeAnswer | Promise<FakeAnswer>)

export function mockFetch(routes: Record<string, FakeRoute>) {
  const calls: FakeRequest[] = []
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url, 'http://marquee.test')
    const method = (init?.method ?? 'GET').toUpperCase()
    const text = typeof init?.body === 'string' ? init.body : undefined
    const request: FakeRequest = {
      method,
      path: url.pathname,
      query: url.searchParams,
      headers: new Headers(init?.headers),
      body: text ? (JSON.parse(text) as unknown) : undefined,
    }
    calls.push(request)
    const route = routes[`${method} ${url.pathname}`]
    const answer: FakeAnswer = route
      ? typeof route === 'function'
        ? await route(request)
        : route
      : url.pathname === '/api/analytics/pageviews'
        ? { status: 204 }
        : { status: 404, body: { success: false, message: 'Not found.' } }
    const status = answer.status ?? 200
    return new Response(status === 204 || answer.body === undefined ? null : JSON.stringify(answer.body), {
      status,
      headers: { 'Content-Type': 'application/json' },
    })
  })
  vi.stubGlobal('fetch', fetchMock)
  return { calls, fetchMock, called: (method: string, path: string) => calls.filter((c) => c.method === method && c.path === path) }
}
