import { configure, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import type { User } from '../../../platform/api-types/identity'
import { mockFetch, type FakeRequest } from '../../../test/fetch'
import { renderApp } from '../../../test/renderApp'
import { makeUser, signedInSession } from '../../../test/users'

// The screens load lazily and the machine may be busy: wait longer than the 1 s default.
configure({ asyncUtilTimeout: 5000 })
vi.setConfig({ testTimeout: 30_000 })

const admin = () => signedInSession(makeUser({ role: 'admin' }))
const page = (items: User[]) => ({ body: { items, total: items.length, page: 1, page_size: 50 } })

describe('/admin/users (B §2, B §6)', () => {
  it('shows the B §2 columns after the list has loaded, with server-side search, sort and page sizes', async () => {
    const grace = makeUser({ sendPhoneZoho: true, last_login: '2026-11-20T10:00:00Z', sign_in_count: 12 })
    grace.local = { ...grace.local, first_name: 'Grace', last_name: 'Hopper', phone: '555-0100' }
    const alan = makeUser()
    alan.local = { ...alan.local, first_name: 'Alan', last_name: 'Turing', status: 'disabled' }
    let release: () => void = () => {}
    const gate = new Promise<void>((resolve) => (release = resolve))
    const server = mockFetch({
      'GET /api/admin/users/': async (req: FakeRequest) => {
        await gate
        const q = req.query.get('q') ?? ''
        return page([grace, alan].filter((u) => u.local.first_name.includes(q)))
      },
    })
    const user = userEvent.setup()
    renderApp('/admin/users', { session: admin() })
    // B §2: the list is loaded before the screen shows.
    expect(await screen.findByText('Loading users')).toBeInTheDocument()
    expect(screen.queryByRole('table', { name: 'Users' })).not.toBeInTheDocument()
    release()

    const grid = await screen.findByRole('table', { name: 'Users' })
    expect(within(grid).getAllByRole('columnheader').map((h) => h.textContent?.replace(/[▲▼↕]/g, '').trim())).toEqual([
      '',
      'Status',
      'First name',
      'Last name',
      'Email',
      'Phone',
      'Company',
      'Call-back',
      'Signed up',
      'Last login',
      'Sign-ins',
    ])
    const graceRow = within(grid).getByText('Grace').closest('tr')!
    expect(within(graceRow).getByText('YES')).toBeInTheDocument()
    expect(within(graceRow).getByText('555-0100')).toBeInTheDocument()
    expect(within(graceRow).getByText('12')).toBeInTheDocument()
    expect(within(within(grid).getByText('Alan').closest('tr')!).getByText('NO')).toBeInTheDocument()
    expect(within(screen.getByLabelText('Rows per page')).getAllByRole('option').map((o) => o.textContent)).toEqual(['50', '75', '100', 'All'])

    await user.click(within(grid).getByRole('button', { name: /Last login/ }))
    await waitFor(() => expect(server.calls.some((c) => c.query.get('sort') === 'last_login')).toBe(true))
    await user.type(screen.getByLabelText('Search users'), 'Gra')
    await waitFor(() => expect(within(grid).queryByText('Alan')).not.toBeInTheDocument())
    expect(server.calls.at(-1)!.query.get('q')).toBe('Gra')
  })

  it('upgrades a standard company after the spec confirmation, never an ambassador one', async () => {
    const standard = makeUser()
    const partner = makeUser({ companyType: 'ambassador' })
    const server = mockFetch({
      'GET /api/admin/users/': page([standard, partner]),
      [`PUT /api/users/upgrade/${standard.id}`]: { body: { success: true, message: 'User upgraded successfully!', user: standard } },
    })
    const user = userEvent.setup()
    renderApp('/admin/users', { session: admin() })
    await screen.findByRole('table', { name: 'Users' })
    const upgradeCertified = screen.getByRole('button', { name: 'Upgrade to certified' })
    expect(upgradeCertified).toBeDisabled()

    await user.click(screen.getByRole('checkbox', { name: 'Select row 2' }))
    expect(upgradeCertified).toBeDisabled()
    expect(screen.getByRole('button', { name: 'Upgrade to ambassador' })).toBeDisabled()
    await user.click(screen.getByRole('checkbox', { name: 'Select row 2' }))

    await user.click(screen.getByRole('checkbox', { name: 'Select row 1' }))
    await user.click(screen.getByRole('button', { name: 'Upgrade to ambassador' }))
    const confirm = await screen.findByRole('dialog', { name: 'Upgrade user' })
    expect(within(confirm).getByText('Are you sure you want Upgrade this user to ambassador?')).toBeInTheDocument()
    await user.click(within(confirm).getByRole('button', { name: 'Upgrade' }))
    expect(await screen.findByText('User upgraded successfully!')).toBeInTheDocument()
    expect(server.called('PUT', `/api/users/upgrade/${standard.id}`)[0]!.body).toEqual({ type: 'ambassador' })
  })

  it('shows the server message when the upgrade is refused', async () => {
    const standard = makeUser()
    mockFetch({
      'GET /api/admin/users/': page([standard]),
      [`PUT /api/users/upgrade/${standard.id}`]: { status: 400, body: { success: false, message: 'This company is already ambassador or certified.' } },
    })
    const user = userEvent.setup()
    renderApp('/admin/users', { session: admin() })
    await user.click(await screen.findByRole('checkbox', { name: 'Select row 1' }))
    await user.click(screen.getByRole('button', { name: 'Upgrade to certified' }))
    const confirm = await screen.findByRole('dialog', { name: 'Upgrade user' })
    expect(within(confirm).getByText('Are you sure you want Upgrade this user to certified?')).toBeInTheDocument()
    await user.click(within(confirm).getByRole('button', { name: 'Upgrade' }))
    expect(await screen.findByText('This company is already ambassador or certified.')).toBeInTheDocument()
  })

  it('disables and enables the selected users and shows the status the server returns', async () => {
    const target = makeUser()
    let status = 'active'
    const server = mockFetch({
      'GET /api/admin/users/': () => page([{ ...target, local: { ...target.local, status } }]),
      [`PUT /api/users/${target.id}/disable`]: (req: FakeRequest) => {
        status = (req.body as { enable: boolean }).enable ? 'active' : 'disabled'
        return { body: { success: true, message: status === 'active' ? 'The user has been enabled.' : 'The user has been disabled.', status } }
      },
    })
    const user = userEvent.setup()
    renderApp('/admin/users', { session: admin() })
    const grid = await screen.findByRole('table', { name: 'Users' })
    expect(screen.getByRole('button', { name: 'Enable' })).toBeDisabled()
    await user.click(screen.getByRole('checkbox', { name: 'Select row 1' }))
    await user.click(screen.getByRole('button', { name: 'Disable' }))
    expect(await screen.findByText('The user has been disabled.')).toBeInTheDocument()
    expect(await within(grid).findByText('disabled')).toBeInTheDocument()
    expect(server.called('PUT', `/api/users/${target.id}/disable`)[0]!.body).toEqual({ enable: false })

    await user.click(screen.getByRole('button', { name: 'Enable' }))
    expect(await screen.findByText('The user has been enabled.')).toBeInTheDocument()
    expect(await within(grid).findByText('active')).toBeInTheDocument()
  })

  it('activates and removes certification after the B §8 confirmations', async () => {
    const target = makeUser()
    const server = mockFetch({
      'GET /api/admin/users/': page([target]),
      [`PUT /api/users/${target.id}`]: (req: FakeRequest) => ({
        body: { success: true, message: 'User data updated!', user: { ...target, certified: (req.body as { certified: boolean }).certified } },
      }),
    })
    const user = userEvent.setup()
    renderApp('/admin/users', { session: admin() })
    await user.click(await screen.findByRole('checkbox', { name: 'Select row 1' }))

    await user.click(screen.getByRole('button', { name: 'Activate certification' }))
    let confirm = await screen.findByRole('dialog', { name: 'Activate certification' })
    expect(within(confirm).getByText('Are you sure you want to activate certification?')).toBeInTheDocument()
    await user.click(within(confirm).getByRole('button', { name: 'Activate' }))
    expect(await screen.findByText('Certification activated successfully!')).toBeInTheDocument()

    await user.click(screen.getByRole('button', { name: 'Remove certification' }))
    confirm = await screen.findByRole('dialog', { name: 'Remove certification' })
    expect(within(confirm).getByText('Are you sure you want to remove certification?')).toBeInTheDocument()
    await user.click(within(confirm).getByRole('button', { name: 'Remove' }))
    expect(await screen.findByText('Certification removed successfully!')).toBeInTheDocument()
    expect(server.called('PUT', `/api/users/${target.id}`).map((c) => c.body)).toEqual([{ certified: true }, { certified: false }])
  })

  it("edits one user with GET and PUT /api/users/{id}: 'User data updated!'", async () => {
    const target = makeUser()
    const server = mockFetch({
      'GET /api/admin/users/': page([target, makeUser()]),
      [`GET /api/users/${target.id}`]: { body: target },
      [`PUT /api/users/${target.id}`]: { body: { success: true, message: 'User data updated!', user: target } },
    })
    const user = userEvent.setup()
    renderApp('/admin/users', { session: admin() })
    await user.click(await screen.findByRole('checkbox', { name: 'Select all rows on this page' }))
    expect(screen.getByRole('button', { name: 'Edit user' })).toBeDisabled()
    await user.click(screen.getByRole('checkbox', { name: 'Select row 2' }))
    await user.click(screen.getByRole('button', { name: 'Edit user' }))
    const dialog = await screen.findByRole('dialog', { name: 'Edit user' })
    const last = await within(dialog).findByLabelText('Last name')
    await user.clear(last)
    await user.type(last, 'Byron')
    await user.click(within(dialog).getByRole('button', { name: 'Save profile' }))
    expect(await screen.findByText('User data updated!')).toBeInTheDocument()
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Edit user' })).not.toBeInTheDocument())
    expect(server.called('PUT', `/api/users/${target.id}`)[0]!.body).toMatchObject({ last_name: 'Byron' })
  })

  it('is not for advertisers', async () => {
    mockFetch({})
    const { router } = renderApp('/admin/users', { session: signedInSession(makeUser()) })
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'))
  })
})
