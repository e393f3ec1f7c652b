import { act, render, screen } from '@testing-library/react'
import { useState } from 'react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { makeStore } from '../app/store'
import { mockFetch } from '../test/fetch'
import { makeUser, signedInSession } from '../test/users'
import { api } from './api'
import Modal from './Modal'
import { openModalCount } from './modals'
import { MSG_SESSION_EXPIRED } from './session'
import { SESSION_CHECK_MS, stopSessionCheck } from './sessionWatch'

const probe = api.injectEndpoints({
  endpoints: (build) => ({
    probe: build.query<{ ok: boolean }, void>({ query: () => '/api/probe' }),
  }),
})

function OpenModal() {
  const [open, setOpen] = useState(true)
  return (
    <Modal open={open} title="Edit" onClose={() => setOpen(false)}>
      <p>Form</p>
    </Modal>
  )
}

describe('the 15-minute session check (B §4, B §9)', () => {
  beforeEach(() => {
    vi.useFakeTimers()
  })
  afterEach(() => {
    stopSessionCheck()
    vi.useRealTimers()
  })

  it('is 900000 ms', () => {
    expect(SESSION_CHECK_MS).toBe(900000)
  })

  it('asks the server 15 minutes after the last call and ends a lost session', async () => {
    const server = mockFetch({ 'GET /api/probe': { body: { ok: true } }, 'GET /users/loggedin': { body: { loggedin: false } } })
    const store = makeStore({ session: signedInSession(makeUser()) })
    render(<OpenModal />)
    expect(openModalCount()).toBe(1)

    await act(() => store.dispatch(probe.endpoints.probe.initiate()))
    await act(() => vi.advanceTimersByTimeAsync(SESSION_CHECK_MS - 1))
    expect(server.called('GET', '/users/loggedin')).toHaveLength(0)

    // Another call restarts the timer.
    await act(() => store.dispatch(probe.endpoints.probe.initiate(undefined, { forceRefetch: true })))
    await act(() => vi.advanceTimersByTimeAsync(SESSION_CHECK_MS - 1))
    expect(server.called('GET', '/users/loggedin')).toHaveLength(0)

    await act(() => vi.advanceTimersByTimeAsync(1))
    expect(server.called('GET', '/users/loggedin')).toHaveLength(1)
    expect(server.called('GET', '/users/loggedin')[0]!.headers.get('X-Requested-With')).toBe('XMLHttpRequest')

    const state = store.getState()
    expect(state.session).toMatchObject({ status: 'anonymous', user: null, endReason: 'expired', expiries: 1 })
    expect(state.flash.messages).toEqual([expect.objectContaining({ text: MSG_SESSION_EXPIRED, type: 'danger' })])
    expect(openModalCount()).toBe(0)
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument()
  })

  it('keeps a live session and checks again later', async () => {
    const server = mockFetch({ 'GET /api/probe': { body: { ok: true } }, 'GET /users/loggedin': { body: { loggedin: true } } })
    const store = makeStore({ session: signedInSession(makeUser()) })
    await act(() => store.dispatch(probe.endpoints.probe.initiate()))
    await act(() => vi.advanceTimersByTimeAsync(SESSION_CHECK_MS))
    expect(store.getState().session.status).toBe('authenticated')
    await act(() => vi.advanceTimersByTimeAsync(SESSION_CHECK_MS))
    expect(server.called('GET', '/users/loggedin')).toHaveLength(2)
  })

  it('does not ask for an anonymous visitor', async () => {
    const server = mockFetch({ 'GET /api/probe': { body: { ok: true } } })
    const store = makeStore({ session: { status: 'anonymous', user: null, next: null, endReason: null, expiries: 0 } })
    await act(() => store.dispatch(probe.endpoints.probe.initiate()))
    await act(() => vi.advanceTimersByTimeAsync(SESSION_CHECK_MS * 2))
    expect(server.called('GET', '/users/loggedin')).toHaveLength(0)
  })

  it('ends the session on a 401 from any call', async () => {
    mockFetch({ 'GET /api/probe': { status: 401, body: { success: false, message: 'Please sign in.' } } })
    const store = makeStore({ session: signedInSession(makeUser()) })
    await act(() => store.dispatch(probe.endpoints.probe.initiate()))
    expect(store.getState().session).toMatchObject({ status: 'anonymous', endReason: 'expired' })
    expect(store.getState().flash.messages[0]).toMatchObject({ text: MSG_SESSION_EXPIRED, type: 'danger' })
  })

  it('raises a flash for a server failure, not for a 4xx', async () => {
    const server = mockFetch({ 'GET /api/probe': { status: 500, body: { success: false, message: 'Internal error.' } } })
    const store = makeStore({ session: signedInSession(makeUser()) })
    await act(() => store.dispatch(probe.endpoints.probe.initiate()))
    expect(store.getState().flash.messages[0]).toMatchObject({ text: 'Internal error.', type: 'danger' })
    server.fetchMock.mockClear()
    mockFetch({ 'GET /api/probe': { status: 404, body: { success: false, message: 'Not found.' } } })
    const other = makeStore({ session: signedInSession(makeUser()) })
    await act(() => other.dispatch(probe.endpoints.probe.initiate()))
    expect(other.getState().flash.messages).toEqual([])
  })
})
