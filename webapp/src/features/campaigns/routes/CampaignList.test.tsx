import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { mockFetch, type FakeRequest } from '../../../test/fetch'
import { renderApp } from '../../../test/renderApp'
import { makeUser, signedInSession } from '../../../test/users'
import { makeCampaign, makeDetail, makeList } from '../testCampaigns'

const advertiser = () => signedInSession(makeUser())

const campaigns = [
  makeCampaign(1, { name: 'Spring coffee', status: 'active' }),
  makeCampaign(2, { name: 'Winter tea', status: 'paused', mb_campaign: true, campaignType: 'Basic', frequency: 'ongoing' }),
  makeCampaign(3, { name: 'Old paid one', status: 'paid' }),
]

function listRoute(req: FakeRequest) {
  const q = (req.query.get('q') ?? '').toLowerCase()
  const status = req.query.get('status') ?? ''
  const items = campaigns.filter((c) => c.name.toLowerCase().includes(q) && (!status || (c.status === 'paid' ? 'pending' : c.status) === status))
  return { body: makeList(items, { page_size: Number(req.query.get('page_size')) }) }
}

describe('/campaigns (A §2)', () => {
  it('lists campaigns with status, type, totals and the page sizes 50, 75, 100 and All', async () => {
    const server = mockFetch({ 'GET /api/campaigns': listRoute })
    renderApp('/campaigns', { session: advertiser() })
    const grid = await screen.findByRole('table', { name: 'Campaigns' })
    expect(await within(grid).findByText('Spring coffee')).toBeInTheDocument()
    const rows = within(grid).getAllByRole('row').slice(1)
    expect(within(rows[0]!).getByText('Premium')).toBeInTheDocument()
    expect(within(rows[1]!).getByText('Basic')).toBeInTheDocument()
    expect(within(rows[1]!).getByText('Paused')).toBeInTheDocument()
    // B §4: a stored 'paid' reads as pending.
    expect(within(rows[2]!).getByText('Pending')).toBeInTheDocument()

    const totals = screen.getByRole('region', { name: 'Totals' })
    expect(within(totals).getByText('$10,000')).toBeInTheDocument()
    expect(within(totals).getByText('240,000')).toBeInTheDocument()

    const sizes = screen.getByLabelText('Rows per page')
    expect(within(sizes).getAllByRole('option').map((o) => o.textContent)).toEqual(['50', '75', '100', 'All'])
    expect(server.called('GET', '/api/campaigns')[0]!.query.get('page_size')).toBe('50')
    expect(within(screen.getByLabelText('Status')).getAllByRole('option').map((o) => o.textContent)).toEqual(['All statuses', 'Active', 'Paused', 'Pending', 'Completed'])
  })

  it('filters by ?status= and by the status select, and searches by name', async () => {
    const server = mockFetch({ 'GET /api/campaigns': listRoute })
    const user = userEvent.setup()
    const { router } = renderApp('/campaigns?status=paused', { session: advertiser() })
    const grid = await screen.findByRole('table', { name: 'Campaigns' })
    expect(await within(grid).findByText('Winter tea')).toBeInTheDocument()
    expect(within(grid).queryByText('Spring coffee')).not.toBeInTheDocument()
    expect(server.called('GET', '/api/campaigns')[0]!.query.get('status')).toBe('paused')
    expect(screen.getByLabelText('Status')).toHaveValue('paused')

    await user.selectOptions(screen.getByLabelText('Status'), 'All statuses')
    expect(await within(grid).findByText('Spring coffee')).toBeInTheDocument()
    expect(router.state.location.search).toBe('')

    await user.selectOptions(screen.getByLabelText('Status'), 'Active')
    await waitFor(() => expect(router.state.location.search).toBe('?status=active'))

    await user.selectOptions(screen.getByLabelText('Status'), 'All statuses')
    await user.type(screen.getByLabelText('Search campaigns'), 'tea')
    await waitFor(() => expect(within(grid).queryByText('Spring coffee')).not.toBeInTheDocument())
    expect(within(grid).getByText('Winter tea')).toBeInTheDocument()
    expect(server.calls.some((c) => c.path === '/api/campaigns' && c.query.get('q') === 'tea')).toBe(true)
  })

  it("shows 'Sorry! ' and the error when the list fails (A §8)", async () => {
    mockFetch({ 'GET /api/campaigns': { status: 400, body: { success: false, message: 'Bad sort.' } } })
    renderApp('/campaigns', { session: advertiser() })
    expect(await screen.findByText('Sorry! Bad sort.')).toBeInTheDocument()
  })

  it('opens the detail of the selected campaign', async () => {
    mockFetch({
      'GET /api/campaigns': listRoute,
      'GET /api/campaigns/c2': { body: makeDetail({ id: 'c2', name: 'Winter tea', status: 'paused' }) },
      'GET /api/campaigns/c2/weeks': { body: { items: [], total: 0, page: 1, page_size: 10 } },
      'GET /api/map/config': { body: { tile_url: 'http://tiles.invalid/{z}/{x}/{y}.png', attribution: 'Test' } },
    })
    const user = userEvent.setup()
    const { router } = renderApp('/campaigns', { session: advertiser() })
    await user.click(await screen.findByRole('radio', { name: 'Select row 2' }))
    await waitFor(() => expect(router.state.location.pathname).toBe('/campaigns/c2'))
    expect(await screen.findByRole('heading', { level: 1, name: 'Winter tea' })).toBeInTheDocument()
  })
})
