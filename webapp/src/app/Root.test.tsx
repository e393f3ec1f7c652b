import { screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { mockFetch } from '../test/fetch'
import { renderApp } from '../test/renderApp'
import { makeUser, signedInSession } from '../test/users'

describe('at start', () => {
  it('asks the server whether a session exists, and whose it is', async () => {
    const me = makeUser()
    const server = mockFetch({
      'GET /users/loggedin': { body: { loggedin: true } },
      'GET /users/currentUser': { body: me },
    })
    const app = renderApp('/login')
    await waitFor(() => expect(app.router.state.location.pathname).toBe('/dashboard'))
    expect(await screen.findByRole('heading', { name: 'Welcome, Ada' })).toBeInTheDocument()
    expect(server.called('GET', '/users/loggedin')).toHaveLength(1)
    expect(app.store.getState().session.user?.id).toBe(me.id)
  })

  it('treats a visitor without a session as anonymous, without asking who they are', async () => {
    const server = mockFetch({ 'GET /users/loggedin': { body: { loggedin: false } } })
    const app = renderApp('/login')
    expect(await screen.findByRole('heading', { name: 'Welcome back' })).toBeInTheDocument()
    expect(app.store.getState().session.status).toBe('anonymous')
    expect(server.called('GET', '/users/currentUser')).toHaveLength(0)
  })
})

describe('page views (A §1)', () => {
  it('reports every route change with the previous path as referrer', async () => {
    const server = mockFetch({})
    const user = userEvent.setup()
    renderApp('/dashboard', { session: signedInSession(makeUser()) })
    await screen.findByRole('heading', { name: 'Welcome, Ada' })
    await user.click(screen.getByRole('link', { name: 'FAQ' }))
    await screen.findByRole('heading', { name: 'Frequently asked questions' })
    await waitFor(() => expect(server.called('POST', '/api/analytics/pageviews')).toHaveLength(2))
    const views = server.called('POST', '/api/analytics/pageviews')
    expect(views.map((v) => v.body)).toEqual([
      { path: '/dashboard', referrer: '' },
      { path: '/faq', referrer: '/dashboard' },
    ])
    expect(views[0]!.headers.get('X-Requested-With')).toBe('XMLHttpRequest')
  })

  it('never reports a token from the address', async () => {
    const server = mockFetch({ 'GET /api/users/get-password': { status: 400, body: { success: false, message: 'This link is invalid or has expired.' } } })
    renderApp('/access?token=secret-token', { session: { status: 'anonymous', user: null, next: null, endReason: null, expiries: 0 } })
    expect(await screen.findByRole('alert')).toHaveTextContent('This link is invalid or has expired.')
    await waitFor(() => expect(server.called('POST', '/api/analytics/pageviews')).toHaveLength(1))
    expect(JSON.stringify(server.called('POST', '/api/analytics/pageviews')[0]!.body)).not.toContain('secret')
  })
})
