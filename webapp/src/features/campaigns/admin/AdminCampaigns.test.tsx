import { configure, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import { MsgDeleted, MsgDeleteFailed } from '../../../platform/api-types/campaigns'
import { mockFetch, type FakeRequest } from '../../../test/fetch'
import { renderApp } from '../../../test/renderApp'
import { makeUser, signedInSession } from '../../../test/users'
import { CONFIRM_DELETE } from './AdminCampaigns'
import { makeCampaign } from './testData'

// The screens load lazily and the machine may be busy: wait longer than the 1 s default.
configure({ asyncUtilTimeout: 5000 })
// Long journeys through a whole screen: give them room on a shared machine.
vi.setConfig({ testTimeout: 30_000 })

const admin = () => signedInSession(makeUser({ role: 'admin' }))
const list = (items: unknown[]) => ({ body: { items, total: items.length, page: 1, page_size: 50, totals: { weekly_budget: 0, total_budget: 0, total_act_imp: 0 } } })

describe('/admin/campaigns (issue 7, B §2)', () => {
  it('shows the columns, sorts by start date newest first, offers 50, 75, 100 and All, and hides deleted campaigns', async () => {
    const server = mockFetch({
      'GET /api/admin/campaigns/': (req: FakeRequest) => {
        const q = req.query.get('q') ?? ''
        return list(
          [
            makeCampaign(1, { name: 'Winter sale', companyName: 'Acme Outdoor', mb_campaign: true, campaignType: 'Basic', max_budget: 140, frequency: 'ongoing' }),
            makeCampaign(2, { name: 'Spring', frequency: 'one-time', start_date: '2026-11-30', end_date: '2026-12-06', weekly_budget: 620, max_budget: 620 }),
            makeCampaign(4, { name: 'Autumn', frequency: 'weekly' }),
            makeCampaign(3, { name: 'Gone', deleted: true }),
          ].filter((c) => c.name.toLowerCase().includes(q.toLowerCase())),
        )
      },
    })
    const user = userEvent.setup()
    renderApp('/admin/campaigns', { session: admin() })
    const grid = await screen.findByRole('table', { name: 'Campaigns' })
    expect(await within(grid).findByText('Winter sale')).toBeInTheDocument()
    expect(within(grid).getAllByRole('columnheader').map((h) => h.textContent?.replace(/[▲▼↕]/g, '').trim())).toEqual([
      'Selected', 'Status', 'Name', 'Campaign type', 'Company', 'Frequency', 'Start date', 'End date', 'Max budget',
    ])
    expect(within(grid).getByRole('columnheader', { name: /Start date/ })).toHaveAttribute('aria-sort', 'descending')
    expect(within(grid).getByText('Acme Outdoor')).toBeInTheDocument()
    expect(within(grid).getByText('Basic')).toBeInTheDocument()
    expect(within(grid).getByText('$140')).toBeInTheDocument()
    expect(within(grid).getByText('Ongoing')).toBeInTheDocument()
    // The max budget the API sends shows for a Premium campaign too, and
    // the frequency reads as in the form and the advertiser's list.
    expect(within(grid).getByText('$620')).toBeInTheDocument()
    expect(within(grid).getByText('Specified end date')).toBeInTheDocument()
    expect(within(grid).getByText('Nov 30, 2026')).toBeInTheDocument()
    expect(within(grid).queryByText('Gone')).not.toBeInTheDocument()

    const first = server.called('GET', '/api/admin/campaigns/')[0]!
    expect(first.query.get('sort')).toBe('-start_date')
    expect(first.query.get('page_size')).toBe('50')
    const sizes = screen.getByLabelText('Rows per page')
    expect(within(sizes).getAllByRole('option').map((o) => o.textContent)).toEqual(['50', '75', '100', 'All'])
    await user.selectOptions(sizes, 'All')
    await waitFor(() => expect(server.calls.some((c) => c.path === '/api/admin/campaigns/' && c.query.get('page_size') === '0')).toBe(true))

    await user.click(within(grid).getByRole('button', { name: /Campaign type/ }))
    await waitFor(() => expect(server.calls.some((c) => c.query.get('sort') === 'campaignType')).toBe(true))
    expect(within(grid).queryByRole('button', { name: /Company/ })).not.toBeInTheDocument()

    await user.type(screen.getByLabelText('Search campaigns'), 'spr')
    await waitFor(() => expect(within(grid).queryByText('Winter sale')).not.toBeInTheDocument())
    expect(within(grid).getByText('Spring')).toBeInTheDocument()
  })

  it('deletes the single selected campaign after a confirmation', async () => {
    let deleted = false
    const server = mockFetch({
      'GET /api/admin/campaigns/': () => list(deleted ? [makeCampaign(2)] : [makeCampaign(1), makeCampaign(2)]),
      'DELETE /api/campaigns/k1': () => {
        deleted = true
        return { body: { success: true, message: MsgDeleted, status: 'deleted' } }
      },
    })
    const user = userEvent.setup()
    renderApp('/admin/campaigns', { session: admin() })
    const remove = await screen.findByRole('button', { name: 'Delete campaign' })
    expect(remove).toBeDisabled()
    expect(screen.getByRole('button', { name: 'Edit weeks' })).toBeDisabled()
    await user.click(await screen.findByRole('radio', { name: 'Select row 2' }))
    await user.click(screen.getByRole('radio', { name: 'Select row 1' }))
    // Single selection: one row at a time.
    expect(screen.getAllByRole('radio').filter((r) => (r as HTMLInputElement).checked)).toHaveLength(1)

    await user.click(remove)
    const confirm = await screen.findByRole('dialog', { name: 'Delete campaign' })
    expect(within(confirm).getByText(CONFIRM_DELETE)).toBeInTheDocument()
    await user.click(within(confirm).getByRole('button', { name: 'Keep it' }))
    expect(server.called('DELETE', '/api/campaigns/k1')).toHaveLength(0)

    await user.click(remove)
    await user.click(within(await screen.findByRole('dialog', { name: 'Delete campaign' })).getByRole('button', { name: 'Delete campaign' }))
    expect(await screen.findByText(MsgDeleted)).toBeInTheDocument()
    expect(server.called('DELETE', '/api/campaigns/k1')).toHaveLength(1)
    await waitFor(() => expect(screen.queryByText('Campaign 1')).not.toBeInTheDocument())
  })

  it("says 'An error occurred trying to delete the campaign' when the delete fails", async () => {
    mockFetch({
      'GET /api/admin/campaigns/': list([makeCampaign(1)]),
      'DELETE /api/campaigns/k1': { status: 500, body: { success: false, message: 'Internal error.' } },
    })
    const user = userEvent.setup()
    renderApp('/admin/campaigns', { session: admin() })
    await user.click(await screen.findByRole('radio', { name: 'Select row 1' }))
    await user.click(screen.getByRole('button', { name: 'Delete campaign' }))
    await user.click(within(await screen.findByRole('dialog', { name: 'Delete campaign' })).getByRole('button', { name: 'Delete campaign' }))
    expect(await screen.findByText(MsgDeleteFailed)).toBeInTheDocument()
  })

  it('opens the edit and edit-weeks screens of the selected campaign', async () => {
    mockFetch({ 'GET /api/admin/campaigns/': list([makeCampaign(1)]) })
    const user = userEvent.setup()
    const app = renderApp('/admin/campaigns', { session: admin() })
    await user.click(await screen.findByRole('radio', { name: 'Select row 1' }))
    await user.click(screen.getByRole('button', { name: 'Edit weeks' }))
    await waitFor(() => expect(app.router.state.location.pathname).toBe('/admin/campaigns/edit/week/k1'))
  })

  it('redirects /admin/dashboard here and keeps advertisers out', async () => {
    mockFetch({ 'GET /api/admin/campaigns/': list([]) })
    const app = renderApp('/admin/dashboard', { session: admin() })
    await waitFor(() => expect(app.router.state.location.pathname).toBe('/admin/campaigns'))
    app.unmount()
    const other = renderApp('/admin/campaigns', { session: signedInSession(makeUser()) })
    await waitFor(() => expect(other.router.state.location.pathname).not.toBe('/admin/campaigns'))
  })
})
