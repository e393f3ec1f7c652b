import { configure, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { MsgCreated, MsgNoCampaigns, MsgRemoveFailed, type Report } from '../../../platform/api-types/reports'
import { mockFetch } from '../../../test/fetch'
import { renderApp } from '../../../test/renderApp'
import { makeUser, signedInSession } from '../../../test/users'

// The screens load lazily and the machine may be busy: wait longer than the 1 s default.
configure({ asyncUtilTimeout: 5000 })

function makeReport(n: number): Report {
  return {
    id: `r${n}`, name: `Report ${n}`, campaign: 'c1', campaign_weeks_count: 2, account_id: 'co', campaign_id: 'c1', vendor_id: '', user_id: 'u',
    company: 'co', company_name: 'Sunrise', campaign_name: 'Summer Sale', week_ids: [], url: `/api/reports/r${n}/file`, filename: 'r.pdf',
    csv_url: `/api/reports/r${n}/csv`, source: 'generated', period_start: '2026-09-21', period_end: '2026-10-04', size: 1, created_at: '2026-11-01T00:00:00Z',
    updated_at: '2026-11-01T00:00:00Z',
  }
}

const advertiser = () => signedInSession(makeUser())

describe('/reports (B §2)', () => {
  it('pages by 10, 20, 50 and All, and a failed removal says the B §8 message', async () => {
    const server = mockFetch({
      'GET /api/reports': () => ({ body: { items: [makeReport(1)], total: 1, page: 1, page_size: 10 } }),
      'GET /api/reports/campaigns': () => ({ body: [] }),
      'DELETE /api/reports/r1': () => ({ status: 500, body: { success: false, message: 'Internal error.' } }),
    })
    const user = userEvent.setup()
    renderApp('/reports', { session: advertiser() })
    const grid = await screen.findByRole('table', { name: 'Reports' })
    expect(await within(grid).findByText('Report 1')).toBeInTheDocument()
    expect(within(screen.getByLabelText('Rows per page')).getAllByRole('option').map((o) => o.textContent)).toEqual(['10', '20', '50', 'All'])
    expect(server.called('GET', '/api/reports')[0]!.query.get('page_size')).toBe('10')

    await user.click(within(grid).getByRole('radio', { name: 'Select row 1' }))
    await user.click(screen.getByRole('button', { name: 'Remove report' }))
    const dialog = await screen.findByRole('dialog', { name: 'Remove report' })
    await user.click(within(dialog).getByRole('button', { name: 'Remove report' }))
    expect(await screen.findByText(MsgRemoveFailed)).toBeInTheDocument()
    expect(screen.queryByText('Internal error.')).not.toBeInTheDocument()
  })

  it('sends an advertiser without campaigns from the form to the list with the message, once', async () => {
    mockFetch({
      'GET /api/reports': () => ({ body: { items: [], total: 0, page: 1, page_size: 10 } }),
      'GET /api/reports/campaigns': () => ({ body: [] }),
    })
    renderApp('/reports/new', { session: advertiser() })
    expect(await screen.findByRole('heading', { name: 'Reports', level: 1 })).toBeInTheDocument()
    expect(await screen.findByText(MsgNoCampaigns)).toBeInTheDocument()
    expect(window.sessionStorage.getItem('marquee.flash.next')).toBeNull()
  })

  it('generates a report of the chosen finished weeks and carries the success message to the list', async () => {
    const server = mockFetch({
      'GET /api/reports': () => ({ body: { items: [], total: 0, page: 1, page_size: 10 } }),
      'GET /api/reports/campaigns': () => ({ body: [{ id: 'c1', name: 'Summer Sale', status: 'completed', start_date: '2026-09-21', end_date: '2026-10-04', scheduled: false }] }),
      'GET /api/reports/campaigns/c1/weeks': () => ({
        body: [
          { start_at: '2026-09-21', end_at: '2026-09-27', week_ids: ['w1', 'w2'], faces: 2, planned: 100, delivered: 90 },
          { start_at: '2026-09-28', end_at: '2026-10-04', week_ids: ['w3', 'w4'], faces: 2, planned: 100, delivered: 110 },
        ],
      }),
      'POST /api/reports': () => ({ status: 201, body: { success: true, message: MsgCreated, report: makeReport(9) } }),
    })
    const user = userEvent.setup()
    renderApp('/reports/new', { session: advertiser() })
    await user.selectOptions(await screen.findByLabelText('Campaign'), 'Summer Sale')
    await user.click(await screen.findByRole('checkbox', { name: /Sep 28, 2026 – Oct 04, 2026/ }))
    await user.click(screen.getByRole('button', { name: 'Generate report' }))
    expect(await screen.findByText(MsgCreated)).toBeInTheDocument()
    await waitFor(() => expect(server.called('POST', '/api/reports')).toHaveLength(1))
    expect(server.called('POST', '/api/reports')[0]!.body).toMatchObject({ campaign_id: 'c1', week_ids: ['w3', 'w4'] })
  })
})
