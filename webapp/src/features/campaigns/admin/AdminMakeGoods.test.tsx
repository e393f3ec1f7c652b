import { configure, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import { MsgMakeGoodWaived, MsgWaiveReasonRequired, type MakeGood } from '../../../platform/api-types/campaigns'
import { mockFetch, type FakeRequest } from '../../../test/fetch'
import { renderApp } from '../../../test/renderApp'
import { makeUser, signedInSession } from '../../../test/users'

configure({ asyncUtilTimeout: 5000 })
vi.setConfig({ testTimeout: 30_000 })

const admin = () => signedInSession(makeUser({ role: 'admin' }))

function makeGood(over: Partial<MakeGood> = {}): MakeGood {
  return {
    id: 'mg-1', campaign_id: 'c-1', campaign_name: 'Open House', company_id: 'co-1', company_name: 'Acme Outdoor', week_id: 'w-1',
    week_start: '2026-11-16', week_end: '2026-11-22', location_name: 'I-4 Exit 177', face: 'South Face', planned: 100000, delivered: 80000,
    difference: -20000, delivery_pct: 80, price: 1500, threshold_percent: 90, credit: 300, target: 300, clamped: 0, status: 'granted',
    waive_reason: '', created_at: '2026-11-24T10:00:00Z', ...over,
  }
}

describe('/admin/campaigns make-goods filter (issue 17)', () => {
  it('lists every company’s make-goods and waives one with a reason after a confirmation', async () => {
    let waived = false
    const server = mockFetch({
      'GET /api/admin/campaigns/': () => ({ body: { items: [], total: 0, page: 1, page_size: 50, totals: { weekly_budget: 0, total_budget: 0, total_act_imp: 0 } } }),
      'GET /api/admin/make-goods': () => ({ body: { items: [makeGood(waived ? { status: 'waived', waive_reason: 'Storm', credit: 0 } : {})], total: 1, page: 1, page_size: 50 } }),
      'PUT /api/admin/make-goods/mg-1/waive': (req: FakeRequest) => {
        waived = true
        return { body: { success: true, message: MsgMakeGoodWaived, make_good: makeGood({ status: 'waived', waive_reason: String((req.body as { reason: string }).reason) }) } }
      },
    })
    const user = userEvent.setup()
    renderApp('/admin/campaigns', { session: admin() })
    await user.selectOptions(await screen.findByLabelText('Show'), 'make-goods')
    const grid = await screen.findByRole('table', { name: 'Make-goods' })
    expect(await within(grid).findByText('Acme Outdoor')).toBeInTheDocument()
    expect(within(grid).getByText('$300.00')).toBeInTheDocument()
    expect(within(grid).getByText('80,000 / 100,000 (80.0%)')).toBeInTheDocument()
    expect(server.called('GET', '/api/admin/make-goods')[0]!.query.get('status')).toBe('granted')

    await user.click(within(grid).getByRole('button', { name: /Waive the make-good of Open House/ }))
    const dialog = await screen.findByRole('dialog', { name: 'Waive make-good' })
    await user.click(within(dialog).getByRole('button', { name: 'Waive make-good' }))
    expect(await within(dialog).findByText(MsgWaiveReasonRequired)).toBeInTheDocument()
    expect(server.called('PUT', '/api/admin/make-goods/mg-1/waive')).toHaveLength(0)
    await user.type(within(dialog).getByLabelText(/Reason/), 'Storm')
    await user.click(within(dialog).getByRole('button', { name: 'Waive make-good' }))
    await waitFor(() => expect(server.called('PUT', '/api/admin/make-goods/mg-1/waive')).toHaveLength(1))
    expect(server.called('PUT', '/api/admin/make-goods/mg-1/waive')[0]!.body).toEqual({ reason: 'Storm' })
    expect(await screen.findByText(MsgMakeGoodWaived)).toBeInTheDocument()
    expect(await within(grid).findByText('Waived')).toBeInTheDocument()
  })
})
