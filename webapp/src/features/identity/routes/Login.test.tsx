import { screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { MsgInvalidCredentials, MsgTooManyAttempts } from '../../../platform/api-types/identity'
import { mockFetch } from '../../../test/fetch'
import { renderApp } from '../../../test/renderApp'
import { anonymousSession, makeUser } from '../../../test/users'

describe('Login (A §2, A §8)', () => {
  it('signs in and goes to /dashboard', { timeout: 30_000 }, async () => {
    const me = makeUser()
    const server = mockFetch({ 'POST /signin': { body: { success: true, user: me } } })
    const user = userEvent.setup()
    const app = renderApp('/login', { session: anonymousSession() })
    await user.type(await screen.findByLabelText('Email'), me.local.email)
    await user.type(screen.getByLabelText('Password', { selector: 'input' }), 'demo-password-2026')
    await user.click(screen.getByRole('button', { name: 'Sign in' }))
    await waitFor(() => expect(app.router.state.location.pathname).toBe('/dashboard'))
    expect(server.called('POST', '/signin')[0]!.body).toEqual({ email: me.local.email, password: 'demo-password-2026' })
    expect(await screen.findByRole('heading', { name: 'Welcome, Ada' })).toBeInTheDocument()
  })

  it("says 'Invalid email or password' for a refused sign-in", async () => {
    mockFetch({ 'POST /signin': { status: 401, body: { success: false, message: MsgInvalidCredentials } } })
    const user = userEvent.setup()
    const app = renderApp('/login', { session: anonymousSession() })
    await user.type(await screen.findByLabelText('Email'), 'ann@example.com')
    await user.type(screen.getByLabelText('Password', { selector: 'input' }), 'wrong')
    await user.click(screen.getByRole('button', { name: 'Sign in' }))
    expect(await screen.findByRole('alert')).toHaveTextContent('Invalid email or password')
    expect(app.store.getState().session.status).toBe('anonymous')
  })

  it('shows the rate-limit message', async () => {
    const message = MsgTooManyAttempts
    mockFetch({ 'POST /signin': { status: 429, body: { success: false, message } } })
    const user = userEvent.setup()
    renderApp('/login', { session: anonymousSession() })
    await user.type(await screen.findByLabelText('Email'), 'ann@example.com')
    await user.type(screen.getByLabelText('Password', { selector: 'input' }), 'wrong')
    await user.click(screen.getByRole('button', { name: 'Sign in' }))
    expect(await screen.findByRole('alert')).toHaveTextContent(message)
  })

  it('checks the fields before sending', async () => {
    const server = mockFetch({})
    const user = userEvent.setup()
    renderApp('/login', { session: anonymousSession() })
    await user.click(await screen.findByRole('button', { name: 'Sign in' }))
    expect(screen.getByText('Please enter your email')).toBeInTheDocument()
    expect(screen.getByText('Please enter your password')).toBeInTheDocument()
    await waitFor(() => expect(screen.getByLabelText('Email')).toHaveFocus())
    expect(server.called('POST', '/signin')).toHaveLength(0)
  })
})
