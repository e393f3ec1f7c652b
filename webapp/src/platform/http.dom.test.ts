import { describe, expect, it, vi } from 'vitest'
import { mockFetch } from '../test/fetch'
import { buildUrl, earlyFetches, errorMessage, MSG_UNEXPECTED, readEarly, send, sendEarly } from './http'

describe('send', () => {
  it('never stores an answer in the browser cache, unless asked to revalidate a tagged one', async () => {
    const server = mockFetch({ 'GET /a': { body: 1 }, 'GET /b': { body: 2 } })
    await send({ url: '/a' })
    await send({ url: '/b', revalidate: true })
    expect(server.fetchMock.mock.calls.map(([, init]) => init?.cache)).toEqual(['no-store', 'no-cache'])
  })

  it('gives the answer of a GET sent early to the next send of its URL, once (issue 30)', async () => {
    const server = mockFetch({ 'GET /api/od/locations/': { body: { format: 2 } }, 'GET /api/other': { body: 'other' } })
    sendEarly({ url: '/api/od/locations/', params: { market: undefined, format: 'columns' } })
    sendEarly({ url: '/api/od/locations/', params: { format: 'columns' } }) // already on its way
    expect(server.calls).toHaveLength(1)
    expect(await send({ url: '/api/other' })).toEqual({ data: 'other' })
    expect(await send({ url: '/api/od/locations/', params: { format: 'columns' } })).toEqual({ data: { format: 2 } })
    expect(server.calls).toHaveLength(2)
    // Taken: the next send asks the server again.
    await send({ url: '/api/od/locations/', params: { format: 'columns' } })
    expect(server.calls).toHaveLength(3)
  })

  it('takes the answers of the GETs the prerendered page started, made exactly as send would ask (issue 30)', async () => {
    const server = mockFetch({ 'GET /api/od/locations/': { body: { format: 2 } }, 'GET /api/map/config': { body: { tile_url: '' } } })
    // What scripts/prerender.mjs writes into the page, run as the page runs it.
    const fetches = earlyFetches([{ url: '/api/od/locations/', params: { format: 'columns' }, revalidate: true }, { url: '/api/map/config' }])
    window.__marqueeEarly = Object.fromEntries(fetches.map(([url, options]) => [url, fetch(url, options).catch(() => null)]))
    expect(server.calls).toHaveLength(2)
    // The app's code runs (http.ts is evaluated) after the page's HTML started them.
    vi.resetModules()
    const fresh = await import('./http')
    expect(window.__marqueeEarly).toBeUndefined()
    fresh.sendEarly({ url: '/api/map/config' }) // started already: not asked again
    expect(await fresh.send({ url: '/api/od/locations/', params: { format: 'columns' }, revalidate: true })).toEqual({ data: { format: 2 } })
    expect(await fresh.send({ url: '/api/map/config' })).toEqual({ data: { tile_url: '' } })
    expect(server.calls).toHaveLength(2)
    // The same call from send itself: the same URL and options.
    await fresh.send({ url: '/api/od/locations/', params: { format: 'columns' }, revalidate: true })
    expect(server.fetchMock.mock.calls[2]).toEqual([fetches[0]![0], fetches[0]![1]])
  })

  it('reads an early answer ahead for the page, and send answers the same parsed body, once (issue 30)', async () => {
    const server = mockFetch({ 'GET /api/od/locations/': { body: { format: 2, names: ['A'] } } })
    expect(readEarly({ url: '/api/od/locations/', params: { format: 'columns' } })).toBeUndefined()
    sendEarly({ url: '/api/od/locations/', params: { format: 'columns' } })
    const ahead = await readEarly<{ format: number }>({ url: '/api/od/locations/', params: { format: 'columns' } })
    expect(ahead).toEqual({ data: { format: 2, names: ['A'] } })
    expect(await readEarly({ url: '/api/od/locations/', params: { format: 'columns' } })).toBe(ahead)
    const taken = await send({ url: '/api/od/locations/', params: { format: 'columns' } })
    // The very object read ahead: what the page computed from it is the store's data.
    expect(taken).toBe(ahead)
    expect(taken.data).toBe(ahead!.data)
    expect(server.calls).toHaveLength(1)
    // Taken: nothing more to read ahead, and the next send asks again.
    expect(readEarly({ url: '/api/od/locations/', params: { format: 'columns' } })).toBeUndefined()
    await send({ url: '/api/od/locations/', params: { format: 'columns' } })
    expect(server.calls).toHaveLength(2)
  })

  it('does not give an early answer to a write of the same URL', async () => {
    const server = mockFetch({ 'GET /x': { body: 'read' }, 'POST /x': { body: 'written' } })
    sendEarly({ url: '/x' })
    expect(await send({ url: '/x', method: 'POST', body: {} })).toEqual({ data: 'written' })
    expect(await send({ url: '/x' })).toEqual({ data: 'read' })
    expect(server.calls).toHaveLength(2)
  })

  it('sends relative URLs with the CSRF and no-cache headers and the cookie', async () => {
    const server = mockFetch({ 'POST /signin': { body: { success: true } } })
    await send({ url: '/signin', method: 'POST', body: { email: 'a@b.co', password: 'x' } })
    const [input, init] = server.fetchMock.mock.calls[0]!
    expect(input).toBe('/signin')
    expect(init?.credentials).toBe('same-origin')
    const headers = new Headers(init?.headers)
    expect(headers.get('X-Requested-With')).toBe('XMLHttpRequest')
    expect(headers.get('Cache-Control')).toBe('no-cache')
    expect(headers.get('Content-Type')).toBe('application/json')
    expect(server.calls[0]!.body).toEqual({ email: 'a@b.co', password: 'x' })
  })

  it('sends the CSRF header on GET too', async () => {
    const server = mockFetch({ 'GET /users/logout': { body: { success: true, message: 'bye' } } })
    expect(await send({ url: '/users/logout' })).toEqual({ data: { success: true, message: 'bye' } })
    expect(server.calls[0]!.headers.get('X-Requested-With')).toBe('XMLHttpRequest')
  })

  it('unwraps the error envelope', async () => {
    mockFetch({
      'POST /signup': {
        status: 400,
        body: { success: false, message: 'Please check the form', errors: { email: 'Invalid email address', n: 3 } },
      },
    })
    expect(await send({ url: '/signup', method: 'POST', body: {} })).toEqual({
      error: { status: 400, message: 'Please check the form', errors: { email: 'Invalid email address' } },
    })
  })

  it('keeps the machine-readable code of a refusal', async () => {
    mockFetch({ 'POST /api/cards': { status: 402, body: { success: false, message: 'Your card was declined.', code: 'card_declined' } } })
    expect(await send({ url: '/api/cards', method: 'POST', body: {} })).toEqual({
      error: { status: 402, message: 'Your card was declined.', errors: {}, code: 'card_declined' },
    })
  })

  it('treats success:false in a 200 as a failure', async () => {
    mockFetch({ 'GET /x': { body: { success: false, message: 'No' } } })
    expect(await send({ url: '/x' })).toEqual({ error: { status: 200, message: 'No', errors: {}, body: { success: false, message: 'No' } } })
  })

  it('gives the generic message when the server says nothing', async () => {
    mockFetch({ 'GET /x': { status: 502 } })
    expect(await send({ url: '/x' })).toEqual({ error: { status: 502, message: MSG_UNEXPECTED, errors: {} } })
  })

  it('reports a network failure as status 0', async () => {
    const server = mockFetch({})
    server.fetchMock.mockRejectedValueOnce(new TypeError('offline'))
    expect(await send({ url: '/x' })).toEqual({ error: { status: 0, message: MSG_UNEXPECTED, errors: {} } })
  })

  it('answers null for 204', async () => {
    mockFetch({ 'POST /api/analytics/pageviews': { status: 204 } })
    expect(await send({ url: '/api/analytics/pageviews', method: 'POST', body: {} })).toEqual({ data: null })
  })
})

describe('buildUrl and errorMessage', () => {
  it('adds the defined parameters', () => {
    expect(buildUrl('/company-exists', { name: 'Acme & Co', page: 2, q: undefined, x: null })).toBe('/company-exists?name=Acme+%26+Co&page=2')
    expect(buildUrl('/a?b=1', { c: true })).toBe('/a?b=1&c=true')
    expect(buildUrl('/a', {})).toBe('/a')
  })

  it('takes the server message, or the generic one', () => {
    expect(errorMessage({ status: 409, message: 'Taken', errors: {} })).toBe('Taken')
    expect(errorMessage(new Error('boom'))).toBe(MSG_UNEXPECTED)
  })
})
