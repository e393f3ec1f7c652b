import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { MsgLoggedOut } from '../../platform/api-types/identity'
import { MSG_SESSION_EXPIRED } from '../../platform/session'
import { mockFetch } from '../../test/fetch'
import { renderApp } from '../../test/renderApp'
import { makeUser, signedInSession } from '../../test/users'

describe('the logged-in frame', () => {
  it('logs out with GET /users/logout and says goodbye on /login', async () => {
    const server = mockFetch({ 'GET /users/logout': { body: { success: true, message: MsgLoggedOut } } })
    const user = userEvent.setup()
    const app = renderApp('/dashboard', { session: signedInSession(makeUser()) })
    await user.click(await screen.findByRole('button', { name: 'Logout' }))
    await waitFor(() => expect(app.router.state.location.pathname).toBe('/login'))
    expect(server.called('GET', '/users/logout')[0]!.headers.get('X-Requested-With')).toBe('XMLHttpRequest')
    expect(await screen.findByText('You have been logged out successfully')).toBeInTheDocument()
    expect(screen.queryByText(MSG_SESSION_EXPIRED)).not.toBeInTheDocument()
    expect(app.store.getState().session).toMatchObject({ status: 'anonymous', endReason: 'logout' })
  })

  it('stays signed in when the logout call fails', async () => {
    mockFetch({ 'GET /users/logout': { status: 500, body: { success: false, message: 'Internal error.' } } })
    const user = userEvent.setup()
    const app = renderApp('/dashboard', { session: signedInSession(makeUser()) })
    await user.click(await screen.findByRole('button', { name: 'Logout' }))
    expect(await screen.findByRole('alert')).toHaveTextContent('Internal error.')
    expect(app.router.state.location.pathname).toBe('/dashboard')
    expect(app.store.getState().session.status).toBe('authenticated')
  })

  it('shows the company, the badge and the user', async () => {
    mockFetch({})
    const me = makeUser({ companyType: 'ambassador' })
    renderApp('/dashboard', { session: signedInSession(me) })
    const banner = await screen.findByRole('banner')
    expect(within(banner).getByText(me.company.name)).toBeInTheDocument()
    expect(within(banner).getByText('Ambassador')).toBeInTheDocument()
    expect(within(banner).getByText('Ada Lovelace')).toBeInTheDocument()
    expect(within(banner).queryByText('Admin')).not.toBeInTheDocument()
  })

  it('gives an admin a different avatar', async () => {
    mockFetch({})
    renderApp('/admin/users', { session: signedInSession(makeUser({ role: 'admin' })) })
    const banner = await screen.findByRole('banner')
    expect(within(banner).getAllByText('Admin').length).toBeGreaterThan(0)
    expect(within(banner).getByTitle('Admin')).toBeInTheDocument()
  })

  it('opens and closes the phone menu from the keyboard', async () => {
    mockFetch({})
    const user = userEvent.setup()
    renderApp('/dashboard', { session: signedInSession(makeUser()) })
    const open = await screen.findByRole('button', { name: 'Open menu' })
    await user.click(open)
    const menu = screen.getByRole('complementary', { name: 'Menu' })
    expect(within(menu).getByRole('button', { name: 'Close menu' })).toHaveFocus()
    expect(within(menu).getByRole('link', { name: 'Campaigns' })).toBeInTheDocument()
    await user.keyboard('{Escape}')
    expect(screen.queryByRole('complementary', { name: 'Menu' })).not.toBeInTheDocument()
    expect(open).toHaveFocus()
  })
})

describe('the admin menu (issue 12 item 27)', () => {
  it('has Profile, Settings and FAQ, so an admin finds the password change', async () => {
    mockFetch({})
    renderApp('/admin/users', { session: signedInSession(makeUser({ role: 'admin' })) })
    const nav = await screen.findByRole('navigation', { name: 'Main' })
    expect(within(nav).getByRole('link', { name: 'Profile' })).toHaveAttribute('href', '/profile')
    expect(within(nav).getByRole('link', { name: 'Settings' })).toHaveAttribute('href', '/settings')
    expect(within(nav).getByRole('link', { name: 'FAQ' })).toHaveAttribute('href', '/faq')
    expect(within(nav).getByRole('link', { name: 'Campaigns' })).toHaveAttribute('href', '/admin/campaigns')
  })
})
