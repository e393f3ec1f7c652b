import { configure, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import { MsgAdminLocationReq, MsgNotEditable, MsgUpdated, type CampaignForm } from '../../../platform/api-types/campaigns'
import { addDays, formatApiDate, formatInputDate, startOfDay } from '../../../platform/dates'
import { mockFetch } from '../../../test/fetch'
import { renderApp } from '../../../test/renderApp'
import { makeUser, signedInSession } from '../../../test/users'
import { MAILER_QUESTION, MAILER_TITLE, MSG_ENDED } from './AdminEditCampaign'
import { makeDetail } from './testData'

configure({ asyncUtilTimeout: 5000 })
// Long journeys through a whole screen: give them room on a shared machine.
vi.setConfig({ testTimeout: 30_000 })

const admin = () => signedInSession(makeUser({ role: 'admin' }))

/** A Monday at least three weeks away, so the picker's minimum (today) never gets in the way. */
function futureMonday(weeksAhead = 3): Date {
  let date = addDays(startOfDay(new Date()), 7 * weeksAhead)
  while (date.getDay() !== 1) date = addDays(date, 1)
  return date
}

function detail() {
  const start = futureMonday()
  return makeDetail(1, { name: 'Winter sale', start_date: formatApiDate(start), end_date: formatApiDate(addDays(start, 13)) })
}

describe('/admin/campaigns/edit/{id} (B §2, §5)', () => {
  it('updates the campaign, then offers the update mailer', async () => {
    const campaign = detail()
    const start = futureMonday(5)
    const server = mockFetch({
      'GET /api/campaigns/k1': { body: campaign },
      'PUT /api/campaigns/k1': { body: { success: true, message: MsgUpdated } },
      'POST /api/campaigns/update/mailer/': { body: { success: true, message: 'The advertiser has been emailed.' } },
      'GET /api/admin/campaigns/': { body: { items: [], total: 0, page: 1, page_size: 50, totals: { weekly_budget: 0, total_budget: 0, total_act_imp: 0 } } },
    })
    const user = userEvent.setup()
    const app = renderApp('/admin/campaigns/edit/k1', { session: admin() })
    const name = await screen.findByLabelText(/Campaign name/)
    expect(name).toHaveValue('Winter sale')
    await user.clear(name)
    await user.type(name, 'Winter sale 2')
    const startInput = screen.getByLabelText('Start date')
    await user.clear(startInput)
    await user.type(startInput, formatInputDate(start))
    // The end keeps its date only while it is at least a week after the start.
    await waitFor(() => expect(screen.getByLabelText('End date')).toHaveValue(formatInputDate(addDays(start, 13))))
    await user.click(screen.getByLabelText(/Elm St/))
    await user.click(screen.getByRole('button', { name: 'Update campaign' }))

    expect(await screen.findByText(MsgUpdated)).toBeInTheDocument()
    const body = server.called('PUT', '/api/campaigns/k1')[0]!.body as CampaignForm
    expect(body).toMatchObject({
      name: 'Winter sale 2',
      startDate: formatApiDate(start),
      endDate: formatApiDate(addDays(start, 13)),
      duration: 2,
      frequencySelected: 'weekly',
      places_checked: [{ id: 'f1' }],
    })

    const mailer = await screen.findByRole('dialog', { name: MAILER_TITLE })
    expect(within(mailer).getByText(MAILER_QUESTION)).toBeInTheDocument()
    await user.type(within(mailer).getByLabelText(/A note for the advertiser/), 'New dates.')
    await user.click(within(mailer).getByRole('button', { name: 'Email the advertiser' }))
    await waitFor(() => expect(app.router.state.location.pathname).toBe('/admin/campaigns'))
    expect(server.called('POST', '/api/campaigns/update/mailer/')[0]!.body).toEqual({ campaign_id: 'k1', message: 'New dates.' })
    expect(await screen.findByText('The advertiser has been emailed.')).toBeInTheDocument()
  })

  it("makes a one-time campaign end 6 days after its start and allows Mondays only", async () => {
    const campaign = detail()
    const server = mockFetch({
      'GET /api/campaigns/k1': { body: campaign },
      'PUT /api/campaigns/k1': { body: { success: true, message: MsgUpdated } },
    })
    const user = userEvent.setup()
    renderApp('/admin/campaigns/edit/k1', { session: admin() })
    await user.selectOptions(await screen.findByLabelText('Frequency'), 'one-time')
    expect(screen.queryByLabelText('End date')).not.toBeInTheDocument()

    const startInput = screen.getByLabelText('Start date')
    const tuesday = addDays(futureMonday(), 1)
    await user.clear(startInput)
    await user.type(startInput, formatInputDate(tuesday))
    await user.click(screen.getByRole('button', { name: 'Update campaign' }))
    expect(await screen.findByText('Campaigns start on a Monday.')).toBeInTheDocument()
    await waitFor(() => expect(startInput).toHaveFocus())
    expect(server.called('PUT', '/api/campaigns/k1')).toHaveLength(0)

    // The picker offers Mondays only.
    await user.click(screen.getByRole('button', { name: 'Choose start date' }))
    const calendar = await screen.findByRole('group', { name: /Start date/ })
    const days = within(calendar).getAllByRole('button', { name: /, \d{4}$/ })
    const enabled = days.filter((b) => b.getAttribute('aria-disabled') !== 'true')
    expect(enabled.length).toBeGreaterThan(0)
    expect(enabled.every((b) => b.getAttribute('aria-label')!.startsWith('Monday'))).toBe(true)
    await user.click(enabled[enabled.length - 1]!)

    await user.click(screen.getByRole('button', { name: 'Update campaign' }))
    await waitFor(() => expect(server.called('PUT', '/api/campaigns/k1')).toHaveLength(1))
    const body = server.called('PUT', '/api/campaigns/k1')[0]!.body as CampaignForm
    const startDate = new Date(`${body.startDate}T00:00:00`)
    expect(startDate.getDay()).toBe(1)
    expect(body.endDate).toBe(formatApiDate(addDays(startDate, 6)))
    expect(body.duration).toBe(1)
  })

  it("refuses an update without locations: 'Please select at least one location!'", async () => {
    const server = mockFetch({ 'GET /api/campaigns/k1': { body: detail() } })
    const user = userEvent.setup()
    renderApp('/admin/campaigns/edit/k1', { session: admin() })
    await user.click(await screen.findByLabelText(/Main & 5th/, { selector: 'input' }))
    await user.click(screen.getByLabelText(/Elm St/))
    await user.click(screen.getByRole('button', { name: 'Update campaign' }))
    expect(await screen.findAllByText(MsgAdminLocationReq)).not.toHaveLength(0)
    expect(server.called('PUT', '/api/campaigns/k1')).toHaveLength(0)
  })

  it("shows 'Sorry! ' plus the server's message when the update fails", async () => {
    mockFetch({
      'GET /api/campaigns/k1': { body: detail() },
      'PUT /api/campaigns/k1': { status: 400, body: { success: false, message: MsgNotEditable } },
    })
    const user = userEvent.setup()
    const app = renderApp('/admin/campaigns/edit/k1', { session: admin() })
    await user.click(await screen.findByRole('button', { name: 'Update campaign' }))
    expect((await screen.findAllByText(`Sorry! ${MsgNotEditable}`)).length).toBeGreaterThan(0)
    expect(screen.queryByRole('dialog', { name: MAILER_TITLE })).not.toBeInTheDocument()
    expect(app.router.state.location.pathname).toBe('/admin/campaigns/edit/k1')
  })

  it('says a completed campaign can no longer be edited', async () => {
    mockFetch({ 'GET /api/campaigns/k1': { body: { ...detail(), status: 'completed', editable: false } } })
    renderApp('/admin/campaigns/edit/k1', { session: admin() })
    expect(await screen.findByText(MSG_ENDED)).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Update campaign' })).toBeDisabled()
  })
})
