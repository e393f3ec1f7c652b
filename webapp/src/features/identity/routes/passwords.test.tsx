import { screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import {
  MsgCurrentPassword,
  MsgInvalidEmail,
  MsgPasswordChanged,
  MsgPasswordReset,
  MsgPasswordResetFailed,
  MsgResetSent,
  MsgTokenInvalid,
  MsgWeakPassword,
} from '../../../platform/api-types/identity'
import { mockFetch } from '../../../test/fetch'
import { renderApp } from '../../../test/renderApp'
import { anonymousSession, makeUser, signedInSession } from '../../../test/users'

const tokenInfo = { success: true, email: 'ann@example.com', first_name: 'Ann', last_name: 'Lee', company_name: 'Ann Co' }
const password = 'a-brand-new-password'

describe('forgot password (A §2, A §8)', () => {
  it('sends the request and goes to /login with the flash', async () => {
    const server = mockFetch({ 'POST /users/reset-password': { body: { success: true, message: MsgResetSent } } })
    const user = userEvent.setup()
    const app = renderApp('/forgot-password', { session: anonymousSession() })
    await user.type(await screen.findByLabelText('Email'), 'ann@example.com')
    await user.click(screen.getByRole('button', { name: 'Send reset link' }))
    await waitFor(() => expect(app.router.state.location.pathname).toBe('/login'))
    expect(await screen.findByText(MsgResetSent)).toBeInTheDocument()
    expect(server.called('POST', '/users/reset-password')[0]!.body).toEqual({ email: 'ann@example.com' })
  })

  it("says 'Invalid email address' when the server refuses the address", async () => {
    mockFetch({ 'POST /users/reset-password': { status: 400, body: { success: false, message: MsgInvalidEmail } } })
    const user = userEvent.setup()
    renderApp('/forgot-password', { session: anonymousSession() })
    await user.type(await screen.findByLabelText('Email'), 'ann@example.com')
    await user.click(screen.getByRole('button', { name: 'Send reset link' }))
    expect(await screen.findByText(MsgInvalidEmail)).toBeInTheDocument()
    await waitFor(() => expect(screen.getByLabelText('Email')).toHaveFocus())
  })
})

describe('reset password (A §2, A §8)', () => {
  it('sets the new password and goes to /login with the flash', async () => {
    const server = mockFetch({
      'GET /users/token/tok-1': { body: tokenInfo },
      'POST /users/setPassword': { body: { success: true, message: MsgPasswordReset } },
    })
    const user = userEvent.setup()
    const app = renderApp('/reset-password?token=tok-1', { session: anonymousSession() })
    expect(await screen.findByText('For ann@example.com')).toBeInTheDocument()
    await user.type(screen.getByLabelText('New password', { selector: 'input' }), password)
    await user.type(screen.getByLabelText('Confirm new password', { selector: 'input' }), password)
    await user.click(screen.getByRole('button', { name: 'Set new password' }))
    await waitFor(() => expect(app.router.state.location.pathname).toBe('/login'))
    expect(await screen.findByText('Your password has been reset successsfully!')).toBeInTheDocument()
    expect(server.called('POST', '/users/setPassword')[0]!.body).toEqual({ token: 'tok-1', password })
  })

  it('checks the password and its confirmation first', async () => {
    const server = mockFetch({ 'GET /users/token/tok-1': { body: tokenInfo } })
    const user = userEvent.setup()
    renderApp('/reset-password?token=tok-1', { session: anonymousSession() })
    await user.type(await screen.findByLabelText('New password', { selector: 'input' }), 'short')
    await user.type(screen.getByLabelText('Confirm new password', { selector: 'input' }), 'other')
    await user.click(screen.getByRole('button', { name: 'Set new password' }))
    expect(screen.getByText(MsgWeakPassword)).toBeInTheDocument()
    expect(screen.getByText('The passwords do not match')).toBeInTheDocument()
    expect(server.called('POST', '/users/setPassword')).toHaveLength(0)
  })

  it("shows 'Error to try reset password' with the field message", async () => {
    mockFetch({
      'GET /users/token/tok-1': { body: tokenInfo },
      'POST /users/setPassword': { status: 400, body: { success: false, message: MsgPasswordResetFailed, errors: { token: MsgTokenInvalid } } },
    })
    const user = userEvent.setup()
    renderApp('/reset-password?token=tok-1', { session: anonymousSession() })
    await user.type(await screen.findByLabelText('New password', { selector: 'input' }), password)
    await user.type(screen.getByLabelText('Confirm new password', { selector: 'input' }), password)
    await user.click(screen.getByRole('button', { name: 'Set new password' }))
    expect(await screen.findByRole('alert')).toHaveTextContent(`${MsgPasswordResetFailed}: ${MsgTokenInvalid}`)
  })

  it('explains an invalid link', async () => {
    mockFetch({ 'GET /users/token/old': { status: 400, body: { success: false, message: MsgTokenInvalid } } })
    renderApp('/reset-password?token=old', { session: anonymousSession() })
    expect(await screen.findByRole('alert')).toHaveTextContent(MsgTokenInvalid)
    expect(screen.getByRole('link', { name: 'Ask for a new link' })).toHaveAttribute('href', '/forgot-password')
  })
})

describe('account access (A §2 /access)', () => {
  it('sets the names and the first password, then opens the dashboard', async () => {
    const me = makeUser()
    const server = mockFetch({
      'GET /api/users/get-password': { body: tokenInfo },
      'POST /users/set-first-password': { body: { success: true, message: 'Your account is ready.', user: me } },
    })
    const user = userEvent.setup()
    const app = renderApp('/access?token=acc-1', { session: anonymousSession() })
    expect(await screen.findByLabelText('First name')).toHaveValue('Ann')
    expect(server.called('GET', '/api/users/get-password')[0]!.query.get('token')).toBe('acc-1')
    await user.clear(screen.getByLabelText('Last name'))
    await user.type(screen.getByLabelText('Last name'), 'Lee-Smith')
    await user.type(screen.getByLabelText('Password', { selector: 'input' }), password)
    await user.click(screen.getByRole('button', { name: 'Continue to your dashboard' }))
    await waitFor(() => expect(app.router.state.location.pathname).toBe('/dashboard'))
    expect(server.called('POST', '/users/set-first-password')[0]!.body).toEqual({
      token: 'acc-1',
      password,
      first_name: 'Ann',
      last_name: 'Lee-Smith',
    })
  })
})

describe('change password (B §2, B §8)', () => {
  it("changes it, or shows 'Sorry! ' plus the server message", async () => {
    let attempts = 0
    const server = mockFetch({
      'PUT /users/password': () => {
        attempts += 1
        return attempts === 1
          ? { status: 400, body: { success: false, message: MsgCurrentPassword, errors: { current_password: MsgCurrentPassword } } }
          : { body: { success: true, message: MsgPasswordChanged } }
      },
    })
    const user = userEvent.setup()
    renderApp('/profile', { session: signedInSession(makeUser()) })
    await user.click(await screen.findByRole('tab', { name: 'Password' }))
    await user.click(screen.getByRole('button', { name: 'Change password' }))
    const dialog = await screen.findByRole('dialog', { name: 'Change password' })
    await user.type(screen.getByLabelText('Current password', { selector: 'input' }), 'wrong-password')
    await user.type(screen.getByLabelText('New password', { selector: 'input' }), password)
    await user.type(screen.getByLabelText('Confirm new password', { selector: 'input' }), password)
    await user.click(screen.getAllByRole('button', { name: 'Change password' }).at(-1)!)
    expect(await screen.findByText(`Sorry! ${MsgCurrentPassword}`)).toBeInTheDocument()
    await waitFor(() => expect(screen.getByLabelText('Current password', { selector: 'input' })).toHaveFocus())

    await user.clear(screen.getByLabelText('Current password', { selector: 'input' }))
    await user.type(screen.getByLabelText('Current password', { selector: 'input' }), 'right-password')
    await user.click(screen.getAllByRole('button', { name: 'Change password' }).at(-1)!)
    await waitFor(() => expect(dialog).not.toBeInTheDocument())
    expect(await screen.findByText(MsgPasswordChanged)).toBeInTheDocument()
    expect(server.called('PUT', '/users/password')[1]!.body).toEqual({ current_password: 'right-password', password })
  })
})
