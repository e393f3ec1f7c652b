import { configure, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import {
  ConfirmWeeks,
  MsgActImpInvalid,
  MsgDeliveryUpdated,
  MsgProofDeleted,
  MsgProofsAdded,
  MsgWeeksInconsistent,
  MsgWeeksRequired,
  MsgWeeksUpdated,
  MsgWeeksUpdateFailed,
  type Week,
} from '../../../platform/api-types/campaigns'
import { addDays, formatApiDate, formatDisplayDate } from '../../../platform/dates'
import { mockFetch } from '../../../test/fetch'
import { renderApp } from '../../../test/renderApp'
import { makeUser, signedInSession } from '../../../test/users'
import { makeDetail, makeWeek } from './testData'

configure({ asyncUtilTimeout: 5000 })
// Long journeys through a whole screen: give them room on a shared machine.
vi.setConfig({ testTimeout: 30_000 })

const admin = () => signedInSession(makeUser({ role: 'admin' }))
const page = (items: Week[]) => ({ body: { items, total: items.length, page: 1, page_size: 0 } })
const emptyList = { body: { items: [], total: 0, page: 1, page_size: 50, totals: { weekly_budget: 0, total_budget: 0, total_act_imp: 0 } } }

function weeks(): Week[] {
  return [
    makeWeek(1),
    makeWeek(2, { start_at: '2026-12-14', end_at: '2026-12-20' }),
    makeWeek(3, { product_id: 'f2', product: { ...makeWeek(0).product, location_name: 'Elm St', face: '' } }),
  ]
}

// A week that started two weeks ago (Monday to Sunday), for the delivery tests.
const pastMonday = (() => {
  const d = new Date()
  d.setHours(0, 0, 0, 0)
  d.setDate(d.getDate() - 14 - ((d.getDay() + 6) % 7))
  return d
})()
const PAST = { start_at: formatApiDate(pastMonday), end_at: formatApiDate(addDays(pastMonday, 6)) }
const PAST_LABEL = formatDisplayDate(pastMonday)

async function typeDate(user: ReturnType<typeof userEvent.setup>, label: string, value: string) {
  const input = screen.getByLabelText(label)
  await user.clear(input)
  await user.type(input, value)
}

// The browser's XMLHttpRequest at the network boundary (the Uploader sends through XHR for its
// progress bar): the test answers for the server.
class FakeXhr {
  static last: FakeXhr | null = null
  url = ''
  status = 0
  responseText = ''
  body: FormData | null = null
  withCredentials = false
  upload = { onprogress: null as unknown }
  onload: (() => void) | null = null
  onerror: (() => void) | null = null
  onabort: (() => void) | null = null
  constructor() {
    FakeXhr.last = this
  }
  open(_method: string, url: string) {
    this.url = url
  }
  setRequestHeader() {}
  send(body: FormData) {
    this.body = body
  }
  abort() {}
  answer(status: number, body: unknown) {
    this.status = status
    this.responseText = JSON.stringify(body)
    this.onload?.()
  }
}

describe('/admin/campaigns/edit/week/{id} (B §2, §5)', () => {
  it("moves the selected weeks, one range per product, after 'Do you confirm updating the selected weeks?'", async () => {
    const server = mockFetch({
      'GET /api/campaigns/k1': { body: makeDetail(1) },
      'GET /api/campaigns/k1/weeks': page(weeks()),
      'PUT /api/admin/campaigns/weeks/k1': { body: { success: true, message: MsgWeeksUpdated } },
      'GET /api/admin/campaigns/': emptyList,
    })
    const user = userEvent.setup()
    const app = renderApp('/admin/campaigns/edit/week/k1', { session: admin() })
    expect(await screen.findByRole('heading', { name: 'Main & 5th (North)' })).toBeInTheDocument()
    expect(screen.getByRole('heading', { name: 'Elm St' })).toBeInTheDocument()
    expect(server.called('GET', '/api/campaigns/k1/weeks')[0]!.query.get('page_size')).toBe('0')

    // Nothing selected yet.
    await user.click(screen.getByRole('button', { name: 'Update selected weeks' }))
    expect(await screen.findByText(MsgWeeksRequired)).toBeInTheDocument()

    // Two ranges for one product are refused.
    await user.click(screen.getByRole('checkbox', { name: 'Move the week of Dec 07, 2026 at Main & 5th (North)' }))
    await user.click(screen.getByRole('checkbox', { name: 'Move the week of Dec 14, 2026 at Main & 5th (North)' }))
    await typeDate(user, 'New start of the week of Dec 07, 2026 at Main & 5th (North)', '01/04/2027')
    await typeDate(user, 'New end of the week of Dec 07, 2026 at Main & 5th (North)', '01/17/2027')
    await user.click(screen.getByRole('button', { name: 'Update selected weeks' }))
    expect(await screen.findByText(MsgWeeksInconsistent)).toBeInTheDocument()
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument()

    // 'Use for all its weeks' gives the product's weeks the first one's range.
    await user.click(screen.getByRole('button', { name: 'Use for all its weeks' }))
    expect(screen.getByLabelText('New start of the week of Dec 14, 2026 at Main & 5th (North)')).toHaveValue('01/04/2027')
    await user.click(screen.getByRole('button', { name: 'Update selected weeks' }))
    const confirm = await screen.findByRole('dialog', { name: 'Update weeks' })
    expect(within(confirm).getByText(ConfirmWeeks)).toBeInTheDocument()
    expect(ConfirmWeeks).toBe('Do you confirm updating the selected weeks?')
    await user.click(within(confirm).getByRole('button', { name: 'Update weeks' }))

    await waitFor(() => expect(app.router.state.location.pathname).toBe('/admin/campaigns'))
    expect(server.called('PUT', '/api/admin/campaigns/weeks/k1')[0]!.body).toEqual({
      weeks: [
        { id: 'w1', product_id: 'f1', start_at: '2027-01-04', end_at: '2027-01-17' },
        { id: 'w2', product_id: 'f1', start_at: '2027-01-04', end_at: '2027-01-17' },
      ],
    })
    expect(await screen.findByText(MsgWeeksUpdated)).toBeInTheDocument()
  })

  it("says 'An error occurred trying to update campaign weeks' and stays when the update fails", async () => {
    mockFetch({
      'GET /api/campaigns/k1': { body: makeDetail(1) },
      'GET /api/campaigns/k1/weeks': page(weeks()),
      'PUT /api/admin/campaigns/weeks/k1': { status: 409, body: { success: false, message: 'This location is not available in the week you chose.' } },
    })
    const user = userEvent.setup()
    const app = renderApp('/admin/campaigns/edit/week/k1', { session: admin() })
    await user.click(await screen.findByRole('checkbox', { name: 'Move the week of Dec 07, 2026 at Main & 5th (North)' }))
    await typeDate(user, 'New start of the week of Dec 07, 2026 at Main & 5th (North)', '01/04/2027')
    await typeDate(user, 'New end of the week of Dec 07, 2026 at Main & 5th (North)', '01/10/2027')
    await user.click(screen.getByRole('button', { name: 'Update selected weeks' }))
    await user.click(within(await screen.findByRole('dialog', { name: 'Update weeks' })).getByRole('button', { name: 'Update weeks' }))
    expect(await screen.findByText(MsgWeeksUpdateFailed)).toBeInTheDocument()
    expect(screen.getByText(`${MsgWeeksUpdateFailed}: This location is not available in the week you chose.`)).toBeInTheDocument()
    expect(app.router.state.location.pathname).toBe('/admin/campaigns/edit/week/k1')
  })

  it("records a week's actual impressions and removes a proof, for weeks that have started", async () => {
    let current = weeks()
    current[0] = {
      ...current[0]!,
      ...PAST,
      creatives: [{ id: 'p1', creative_type: 'Proof', url: '/proof/image?image=a.jpg', converted_thumb: '/proof/image?image=a_thumb.jpg', created_at: '2026-12-08T10:00:00Z' }],
    }
    const server = mockFetch({
      'GET /api/campaigns/k1': { body: makeDetail(1) },
      'GET /api/campaigns/k1/weeks': () => page(current),
      'PUT /api/admin/campaigns/week/w1/delivery': (req) => {
        current = current.map((w) => (w.id === 'w1' ? { ...w, act_imp: (req.body as { act_imp: number }).act_imp } : w))
        return { body: { success: true, message: MsgDeliveryUpdated } }
      },
      'DELETE /api/admin/campaigns/proofs/p1': () => {
        current = current.map((w) => (w.id === 'w1' ? { ...w, creatives: [] } : w))
        return { body: { success: true, message: MsgProofDeleted } }
      },
    })
    const user = userEvent.setup()
    renderApp('/admin/campaigns/edit/week/k1', { session: admin() })
    expect(await screen.findByText('1 proof')).toBeInTheDocument()
    // A week that has not started has no delivery yet.
    const today = formatApiDate(new Date())
    expect(screen.queryAllByText('Not started')).toHaveLength(current.filter((w) => w.start_at > today).length)
    await user.click(screen.getByRole('button', { name: `Record delivery of the week of ${PAST_LABEL} at Main & 5th (North)` }))
    const dialog = await screen.findByRole('dialog', { name: 'Record delivery' })
    expect(within(dialog).getByText(/Estimated minimum for this week: 75,659/)).toBeInTheDocument()
    expect(within(dialog).getByRole('img', { name: 'Proof added Dec 08, 2026' })).toHaveAttribute('src', '/proof/image?image=a_thumb.jpg')
    expect(within(dialog).getByText('Add proof images')).toBeInTheDocument()

    const input = within(dialog).getByLabelText('Actual impressions')
    await user.type(input, '12.5')
    await user.click(within(dialog).getByRole('button', { name: 'Save impressions' }))
    expect(await within(dialog).findByText(MsgActImpInvalid)).toBeInTheDocument()
    await user.clear(input)
    await user.type(input, '81,234')
    await user.click(within(dialog).getByRole('button', { name: 'Save impressions' }))
    expect(await screen.findByText(MsgDeliveryUpdated)).toBeInTheDocument()
    expect(server.called('PUT', '/api/admin/campaigns/week/w1/delivery')[0]!.body).toEqual({ act_imp: 81234 })

    await user.click(within(dialog).getByRole('button', { name: 'Remove proof' }))
    expect(await screen.findByText(MsgProofDeleted)).toBeInTheDocument()
    await waitFor(() => expect(within(dialog).getByText('No proof yet for this week.')).toBeInTheDocument())
    await user.click(within(dialog).getByRole('button', { name: 'Close' }))
    expect(await screen.findByText('81,234')).toBeInTheDocument()
  })

  it('uploads proof images to the week with the platform uploader and reads the week again', async () => {
    FakeXhr.last = null
    vi.stubGlobal('XMLHttpRequest', FakeXhr)
    const server = mockFetch({
      'GET /api/campaigns/k1': { body: makeDetail(1) },
      'GET /api/campaigns/k1/weeks': page([{ ...weeks()[0]!, ...PAST }]),
    })
    const user = userEvent.setup()
    renderApp('/admin/campaigns/edit/week/k1', { session: admin() })
    await user.click(await screen.findByRole('button', { name: `Record delivery of the week of ${PAST_LABEL} at Main & 5th (North)` }))
    const dialog = await screen.findByRole('dialog', { name: 'Record delivery' })
    expect(within(dialog).getByText('Up to 10 JPEG, PNG, GIF or TIF images, 20 MB each')).toBeInTheDocument()
    const reads = server.called('GET', '/api/campaigns/k1/weeks').length
    await user.upload(within(dialog).getByLabelText('Add proof images'), new File(['png'], 'proof.png', { type: 'image/png' }))
    await waitFor(() => expect(FakeXhr.last?.url).toBe('/api/admin/campaigns/week/w1/proofs'))
    expect((FakeXhr.last!.body!.getAll('files')[0] as File).name).toBe('proof.png')
    FakeXhr.last!.answer(200, { success: true, message: MsgProofsAdded })
    expect(await screen.findByText(MsgProofsAdded)).toBeInTheDocument()
    await waitFor(() => expect(server.called('GET', '/api/campaigns/k1/weeks').length).toBeGreaterThan(reads))
  })
})
