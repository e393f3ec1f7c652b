import { configure, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { MsgPromoCreated, MsgPromoTaken, type Promo } from '../../../platform/api-types/billing'
import { mockFetch, type FakeRequest } from '../../../test/fetch'
import { renderApp } from '../../../test/renderApp'
import { makeUser, signedInSession } from '../../../test/users'

// The screens load lazily and the machine may be busy: wait longer than the 1 s default.
configure({ asyncUtilTimeout: 5000 })

function makePromo(n: number, overrides: Partial<Promo> = {}): Promo {
  return { id: `p${n}`, code: `CODE${n}`, value: 25.5, status: 'active', max_count: 10, redeem_count: 3, remaining: 7, created_at: '2026-11-01T00:00:00Z', ...overrides }
}

const superAdmin = () => signedInSession(makeUser({ role: 'super_admin' }))

describe('/admin/promos (B §2)', () => {
  it('lists promos with the amount as currency, page sizes 50, 75, 100 and All, and a filter', async () => {
    const server = mockFetch({
      'GET /api/admin/promo/': (req: FakeRequest) => {
        const q = req.query.get('q') ?? ''
        const items = [makePromo(1), makePromo(2, { code: 'SPRING', status: 'cancelled' })].filter((p) => p.code.includes(q))
        return { body: { items, total: items.length, page: 1, page_size: Number(req.query.get('page_size')) } }
      },
    })
    const user = userEvent.setup()
    renderApp('/admin/promos', { session: superAdmin() })
    const grid = await screen.findByRole('table', { name: 'Promos' })
    expect(await within(grid).findByText('CODE1')).toBeInTheDocument()
    expect(within(grid).getAllByText('$25.50')).toHaveLength(2)
    expect(within(grid).getByText('cancelled')).toBeInTheDocument()
    const sizes = screen.getByLabelText('Rows per page')
    expect(within(sizes).getAllByRole('option').map((o) => o.textContent)).toEqual(['50', '75', '100', 'All'])
    expect(server.called('GET', '/api/admin/promo/')[0]!.query.get('page_size')).toBe('50')

    await user.selectOptions(sizes, 'All')
    await waitFor(() => expect(server.calls.some((c) => c.path === '/api/admin/promo/' && c.query.get('page_size') === '0')).toBe(true))

    await user.click(within(grid).getByRole('button', { name: /Amount/ }))
    await waitFor(() => expect(server.calls.some((c) => c.path === '/api/admin/promo/' && c.query.get('sort') === 'value')).toBe(true))

    await user.type(screen.getByLabelText('Filter promos'), 'SPR')
    await waitFor(() => expect(within(grid).queryByText('CODE1')).not.toBeInTheDocument())
    expect(within(grid).getByText('SPRING')).toBeInTheDocument()
  })

  it("cancels the selected promo after 'Are you sure you want to cancel the promo?' and shows the new status", async () => {
    let status = 'active'
    const server = mockFetch({
      'GET /api/admin/promo/': () => ({ body: { items: [makePromo(1, { status })], total: 1, page: 1, page_size: 50 } }),
      'DELETE /api/admin/promo/p1': () => {
        status = 'cancelled'
        return { body: { success: true, status } }
      },
      'PUT /api/admin/promo/p1': () => {
        status = 'active'
        return { body: { success: true, status } }
      },
    })
    const user = userEvent.setup()
    renderApp('/admin/promos', { session: superAdmin() })
    const cancel = await screen.findByRole('button', { name: 'Cancel promo' })
    expect(cancel).toBeDisabled()
    await user.click(await screen.findByRole('radio', { name: 'Select row 1' }))
    await user.click(cancel)
    const confirm = await screen.findByRole('dialog', { name: 'Cancel promo' })
    expect(within(confirm).getByText('Are you sure you want to cancel the promo?')).toBeInTheDocument()
    await user.click(within(confirm).getByRole('button', { name: 'Cancel promo' }))
    expect(await screen.findByText('The promo is now cancelled.')).toBeInTheDocument()
    expect(server.called('DELETE', '/api/admin/promo/p1')).toHaveLength(1)

    await user.click(await screen.findByRole('button', { name: 'Enable promo' }))
    const enable = await screen.findByRole('dialog', { name: 'Enable promo' })
    expect(within(enable).getByText('Are you sure you want to enable the promo?')).toBeInTheDocument()
    await user.click(within(enable).getByRole('button', { name: 'Enable promo' }))
    expect(await screen.findByText('The promo is now active.')).toBeInTheDocument()
  })

  it('lists the companies that redeemed the selected promo', async () => {
    mockFetch({
      'GET /api/admin/promo/': { body: { items: [makePromo(1)], total: 1, page: 1, page_size: 50 } },
      'GET /api/admin/promo/p1/companies': {
        body: [{ company_id: 'c1', company_name: 'Acme Outdoor', amount: 25.5, redeemed_at: '2026-11-03T10:00:00Z', removed: false }],
      },
    })
    const user = userEvent.setup()
    renderApp('/admin/promos', { session: superAdmin() })
    await user.click(await screen.findByRole('radio', { name: 'Select row 1' }))
    await user.click(screen.getByRole('button', { name: 'View companies' }))
    const dialog = await screen.findByRole('dialog', { name: 'Companies that redeemed CODE1' })
    expect(await within(dialog).findByText('Acme Outdoor')).toBeInTheDocument()
  })

  it('shows the ledger read-only in its own tab', async () => {
    const server = mockFetch({
      'GET /api/admin/promo/': { body: { items: [], total: 0, page: 1, page_size: 50 } },
      'GET /api/admin/transactions': {
        body: {
          items: [
            { id: 't1', company_id: 'c1', company_name: 'Acme Outdoor', kind: 'charge', status: 'failed', amount: 1200, currency: 'usd', description: 'Week of Dec 7', campaign_ref: 'k1', week: '2026-12-07', gateway_ref: '', failure_message: 'Your card was declined.', refunded: 0, created_at: '2026-11-20T10:00:00Z' },
          ],
          total: 1,
          page: 1,
          page_size: 50,
        },
      },
    })
    const user = userEvent.setup()
    renderApp('/admin/promos', { session: superAdmin() })
    await user.click(await screen.findByRole('tab', { name: 'Ledger' }))
    const ledger = await screen.findByRole('table', { name: 'Ledger' })
    expect(await within(ledger).findByText('Acme Outdoor')).toBeInTheDocument()
    expect(within(ledger).getByText('$1,200.00')).toBeInTheDocument()
    expect(within(ledger).getByText('Your card was declined.')).toBeInTheDocument()
    expect(server.called('GET', '/api/admin/transactions')[0]!.query.get('page_size')).toBe('50')
    expect(within(ledger).queryByRole('radio')).not.toBeInTheDocument()
  })

  it('is for super admins only', async () => {
    mockFetch({})
    const app = renderApp('/admin/promos', { session: signedInSession(makeUser({ role: 'admin' })) })
    await waitFor(() => expect(app.router.state.location.pathname).not.toBe('/admin/promos'))
  })
})

describe('/admin/promos/new (B §2, §8)', () => {
  async function fill(user: ReturnType<typeof userEvent.setup>) {
    await user.type(await screen.findByLabelText('Code'), 'FALL 30')
    await user.type(screen.getByLabelText('Amount'), '30')
    await user.type(screen.getByLabelText('Maximum redemptions'), '5')
  }

  it('creates the promo and returns to the list with the message', async () => {
    const server = mockFetch({
      'POST /api/admin/promo/': { status: 201, body: { success: true, message: MsgPromoCreated, promo: makePromo(9) } },
      'GET /api/admin/promo/': { body: { items: [], total: 0, page: 1, page_size: 50 } },
    })
    const user = userEvent.setup()
    const app = renderApp('/admin/promos/new', { session: superAdmin() })
    await fill(user)
    expect(screen.getByLabelText('Code')).toHaveValue('FALL30')
    await user.click(screen.getByRole('button', { name: 'Create promo' }))
    await waitFor(() => expect(app.router.state.location.pathname).toBe('/admin/promos'))
    expect(await screen.findByText(MsgPromoCreated)).toBeInTheDocument()
    expect(server.called('POST', '/api/admin/promo/')[0]!.body).toEqual({ code: 'FALL30', value: 30, max_count: 5 })
  })

  it("shows 'Sorry: ' plus the server message and stays", async () => {
    mockFetch({ 'POST /api/admin/promo/': { status: 409, body: { success: false, message: MsgPromoTaken, errors: { code: MsgPromoTaken } } } })
    const user = userEvent.setup()
    const app = renderApp('/admin/promos/new', { session: superAdmin() })
    await fill(user)
    await user.click(screen.getByRole('button', { name: 'Create promo' }))
    expect(await screen.findByText(`Sorry: ${MsgPromoTaken}`)).toBeInTheDocument()
    expect(app.router.state.location.pathname).toBe('/admin/promos/new')
    await waitFor(() => expect(screen.getByLabelText('Code')).toHaveFocus())
  })

  it("says 'we suffer a unexpected error.' when the server fails", async () => {
    mockFetch({ 'POST /api/admin/promo/': { status: 500, body: { success: false, message: 'Internal error.' } } })
    const user = userEvent.setup()
    renderApp('/admin/promos/new', { session: superAdmin() })
    await fill(user)
    await user.click(screen.getByRole('button', { name: 'Create promo' }))
    expect(await screen.findByText('we suffer a unexpected error.')).toBeInTheDocument()
    expect(screen.queryByText('Internal error.')).not.toBeInTheDocument()
  })

  it('checks the fields before sending and focuses the first invalid one', async () => {
    const server = mockFetch({})
    const user = userEvent.setup()
    renderApp('/admin/promos/new', { session: superAdmin() })
    await user.click(await screen.findByRole('button', { name: 'Create promo' }))
    await waitFor(() => expect(screen.getByLabelText('Code')).toHaveFocus())
    expect(screen.getAllByRole('textbox').filter((el) => el.getAttribute('aria-invalid') === 'true')).toHaveLength(3)
    expect(server.called('POST', '/api/admin/promo/')).toHaveLength(0)
  })
})

