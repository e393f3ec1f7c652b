import { configure, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import { mockFetch, type FakeRequest } from '../../../test/fetch'
import { renderApp } from '../../../test/renderApp'
import { makeUser, signedInSession } from '../../../test/users'
import type { AdminCompany } from '../../../platform/api-types/identity'

// The screens load lazily and the machine may be busy: wait longer than the 1 s default.
configure({ asyncUtilTimeout: 5000 })
vi.setConfig({ testTimeout: 30_000 })

function makeCompany(n: number, overrides: Partial<AdminCompany> = {}): AdminCompany {
  return {
    id: `c${n}`,
    name: `Acme ${n}`,
    type: 'standard',
    status: 'active',
    user_count: n + 1,
    createdAt: '2026-03-04T10:00:00Z',
    cc_onfile: n % 2 === 1,
    account_credit: 125.5,
    total_spend: 4200,
    amountPending: 0,
    ...overrides,
  }
}

const companies = (items: AdminCompany[]) => ({ body: { items, total: items.length, page: 1, page_size: 50 } })

describe('/admin/companies (B §2)', () => {
  it('shows the B §2 columns with page sizes 50, 75, 100 and All (default 50)', async () => {
    const server = mockFetch({ 'GET /api/admin/companies/': companies([makeCompany(1), makeCompany(2)]) })
    renderApp('/admin/companies', { session: signedInSession(makeUser({ role: 'admin' })) })
    const grid = await screen.findByRole('table', { name: 'Companies' })
    const first = (await within(grid).findByText('Acme 1')).closest('tr')!
    expect(within(first).getByText('Yes')).toBeInTheDocument()
    expect(within(first).getByText('$125')).toBeInTheDocument()
    expect(within(first).getByText('$4,200')).toBeInTheDocument()
    expect(within(first).getByText('Mar 04, 2026')).toBeInTheDocument()
    expect(within(within(grid).getByText('Acme 2').closest('tr')!).getByText('No')).toBeInTheDocument()
    expect(within(screen.getByLabelText('Rows per page')).getAllByRole('option').map((o) => o.textContent)).toEqual(['50', '75', '100', 'All'])
    expect(server.called('GET', '/api/admin/companies/')[0]!.query.get('page_size')).toBe('50')
    // Single selection: radios.
    expect(within(grid).getAllByRole('radio')).toHaveLength(2)
  })

  it("asks for a company first: 'You first must select a Company'", async () => {
    mockFetch({ 'GET /api/admin/companies/': companies([makeCompany(1)]) })
    const user = userEvent.setup()
    const { store } = renderApp('/admin/companies', { session: signedInSession(makeUser({ role: 'admin' })) })
    await screen.findByRole('table', { name: 'Companies' })
    const shown = new Set<string>()
    for (const name of ['Sign in as a user', 'Upload creative', 'Remove active promo', 'Edit company']) {
      await user.click(screen.getByRole('button', { name }))
      expect(await screen.findByText('You first must select a Company')).toBeInTheDocument()
      expect(screen.queryByRole('dialog')).not.toBeInTheDocument()
      // Each click raises the message again (a new flash, shown once).
      const flashes = store.getState().flash.messages.filter((m) => m.text === 'You first must select a Company')
      expect(flashes).toHaveLength(1)
      shown.add(flashes[0]!.id)
    }
    expect(shown.size).toBe(4)
  })

  it("removes the selected company's active promo: 'Active promo removed'", async () => {
    const server = mockFetch({
      'GET /api/admin/companies/': companies([makeCompany(1)]),
      'DELETE /api/admin/companies/c1/promo': { body: { success: true, message: 'Active promo removed' } },
    })
    const user = userEvent.setup()
    renderApp('/admin/companies', { session: signedInSession(makeUser({ role: 'admin' })) })
    await user.click(await screen.findByRole('radio', { name: 'Select row 1' }))
    await user.click(screen.getByRole('button', { name: 'Remove active promo' }))
    await user.click(within(await screen.findByRole('dialog', { name: 'Remove active promo' })).getByRole('button', { name: 'Remove promo' }))
    expect(await screen.findByText('Active promo removed')).toBeInTheDocument()
    expect(server.called('DELETE', '/api/admin/companies/c1/promo')).toHaveLength(1)
  })

  it('edits the name, type and status with PUT /api/companies/{id}, showing the server message on refusal', async () => {
    let answer: { status?: number; body: unknown } = { status: 409, body: { success: false, message: 'This company has already been registered.', errors: { name: 'This company has already been registered.' } } }
    const server = mockFetch({
      'GET /api/admin/companies/': companies([makeCompany(1)]),
      'PUT /api/companies/c1': () => answer,
    })
    const user = userEvent.setup()
    renderApp('/admin/companies', { session: signedInSession(makeUser({ role: 'admin' })) })
    await user.click(await screen.findByRole('radio', { name: 'Select row 1' }))
    await user.click(screen.getByRole('button', { name: 'Edit company' }))
    const dialog = await screen.findByRole('dialog', { name: 'Edit company' })
    const name = within(dialog).getByLabelText('Company name')
    expect(name).toHaveValue('Acme 1')
    await user.clear(name)
    await user.type(name, 'ACME 2')
    await user.selectOptions(within(dialog).getByLabelText('Type'), 'certified')
    await user.selectOptions(within(dialog).getByLabelText('Status'), 'disabled')
    await user.click(within(dialog).getByRole('button', { name: 'Save company' }))
    expect(await within(dialog).findByText('Sorry! This company has already been registered.')).toBeInTheDocument()
    expect(server.called('PUT', '/api/companies/c1')[0]!.body).toEqual({ name: 'ACME 2', type: 'certified', status: 'disabled' })

    answer = { body: { success: true, message: 'Company data updated!' } }
    await user.click(within(dialog).getByRole('button', { name: 'Save company' }))
    expect(await screen.findByText('Company data updated!')).toBeInTheDocument()
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Edit company' })).not.toBeInTheDocument())
  })

  it("signs in as one of the company's users, shows the banner on every page, and returns to the admin's session", async () => {
    const admin = makeUser({ role: 'admin' })
    admin.local = { ...admin.local, email: 'admin@marquee.demo' }
    const member = makeUser({ company: { id: 'c1', name: 'Acme 1', type: 'standard' } })
    member.local = { ...member.local, first_name: 'Grace', last_name: 'Hopper', email: 'grace@acme.test' }
    const other = makeUser()
    const disabled = makeUser({ company: { id: 'c1', name: 'Acme 1', type: 'standard' } })
    disabled.local = { ...disabled.local, status: 'disabled' }
    const moderator = { id: admin.id, email: admin.local.email, name: 'Ada Admin' }
    const server = mockFetch({
      'GET /api/admin/companies/': companies([makeCompany(1)]),
      // The server keeps the company's users (?company=); a disabled one cannot be acted as.
      'GET /api/admin/users/': (req: FakeRequest) => ({
        body: { items: req.query.get('company') === 'c1' ? [member, disabled] : [other], total: 2, page: 1, page_size: 100 },
      }),
      'POST /moderate-signin': (req: FakeRequest) =>
        (req.body as { email: string }).email === member.local.email
          ? { body: { success: true, message: 'You are now signed in as this user.', user: member, moderator } }
          : { status: 400, body: { success: false, message: 'There is no user with this email.' } },
      'POST /moderate-signout': { body: { success: true, message: 'You are back in your own account.', user: admin, moderator: null } },
      'GET /api/campaigns/count': { body: { count: 0 } },
    })
    const user = userEvent.setup()
    const { router } = renderApp('/admin/companies', { session: signedInSession(admin) })
    await user.click(await screen.findByRole('radio', { name: 'Select row 1' }))
    await user.click(screen.getByRole('button', { name: 'Sign in as a user' }))
    const dialog = await screen.findByRole('dialog', { name: 'Sign in as a user' })
    // Only this company's users are offered; the first is chosen.
    const choice = await within(dialog).findByLabelText('User')
    expect(within(choice).getAllByRole('option')).toHaveLength(1)
    expect(within(dialog).getByLabelText("User's email")).toHaveValue('grace@acme.test')
    expect(server.called('GET', '/api/admin/users/')[0]!.query.get('company')).toBe('c1')
    expect(server.called('GET', '/api/admin/users/')[0]!.query.get('q')).toBeNull()

    await user.clear(within(dialog).getByLabelText("User's email"))
    await user.type(within(dialog).getByLabelText("User's email"), 'nobody@acme.test')
    await user.click(within(dialog).getByRole('button', { name: 'Sign in as this user' }))
    expect(await within(dialog).findByText('There is no user with this email.')).toBeInTheDocument()

    await user.selectOptions(choice, 'grace@acme.test')
    await user.click(within(dialog).getByRole('button', { name: 'Sign in as this user' }))
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'))
    const banner = await screen.findByRole('region', { name: 'Signed in as another user' })
    expect(banner).toHaveTextContent('Signed in as Grace Hopper (grace@acme.test) of Acme 1')
    expect(banner).toHaveTextContent('admin@marquee.demo')

    // Every page of the logged-in frame shows it.
    await router.navigate('/faq')
    expect(await screen.findByRole('region', { name: 'Signed in as another user' })).toBeInTheDocument()

    await user.click(within(screen.getByRole('region', { name: 'Signed in as another user' })).getByRole('button', { name: 'Return to my account' }))
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/companies'))
    expect(screen.queryByRole('region', { name: 'Signed in as another user' })).not.toBeInTheDocument()
    expect(server.called('POST', '/moderate-signout')).toHaveLength(1)
  })
})
