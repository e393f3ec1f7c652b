import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { MsgNotEditable, MsgUpdated, type CampaignForm as CampaignFormBody } from '../../../platform/api-types/campaigns'
import { mockFetch } from '../../../test/fetch'
import { renderApp } from '../../../test/renderApp'
import { makeUser, signedInSession } from '../../../test/users'

vi.setConfig({ testTimeout: 30_000 })

beforeEach(() => {
  Element.prototype.scrollIntoView = () => undefined
})

const campaign = (editable: boolean) => ({
  id: 'c1',
  name: 'Spring sale',
  status: 'pending',
  mb_campaign: false,
  strategy: 1,
  frequency: 'weekly',
  start_date: '2026-11-23',
  end_date: '2026-12-06',
  duration: 2,
  market: ['SF Bay Area'],
  cities: [],
  place_id: '',
  place_name: '',
  radiusCheckValue: 0,
  creative_id: 'cr-1',
  editable,
  locations: [{ id: 'f1', market: 'SF Bay Area', city: 'Oakland', location_name: 'Broadway & 5th', face: 'North Face' }],
})
const face = { id: 'f1', location_name: 'Broadway & 5th', market: 'SF Bay Area', city: 'Oakland', lat: 37.8, lng: -122.27, face: 'North Face', double_faced: false, other_face: '', likely: false, location: { ad_rotation_frequency: 6, ad_spot_duration: 8 }, new_location_snapshot: '', location_snapshot: '', exclude_maximize_budget: false, value: 500, ooh: 40000 }

function server(editable: boolean, onPut?: (body: CampaignFormBody) => void) {
  return mockFetch({
    'GET /api/campaigns/c1': { body: campaign(editable) },
    'GET /api/campaigns/defaults': { body: { today: '2026-11-16', earliest_start: '2026-11-23', default_start: '2026-11-23', max_weeks: 52, default_weekly_duration: 2 } },
    'GET /api/markets/': { body: [{ id: 'm1', market: 'SF Bay Area', cities: ['Oakland'], center: { lat: 37.77, lng: -122.42 }, zoom: 8, fixed: true }] },
    'GET /api/map/config': { body: { tile_url: 'http://tiles.invalid/{z}/{x}/{y}.png', attribution: 'Test' } },
    'GET /api/od/locations/': { body: [face] },
    // The campaign's own booking makes its face look sold out: the edit still keeps it.
    'POST /api/available-spots/': { body: [{ xxx: 'f1', used_spots: 6, available_spots: 6, min_value: 500, min_value_2: 0, vendor_tier: 1, old_value: 500, ooh: 40000, available: false, price: 500 }] },
    'GET /api/cards/me': { status: 404, body: { success: false, message: 'No card.' } },
    'GET /companies/currentCompany': { body: { account_credit: 0 } },
    'GET /api/creatives/default': { status: 200 },
    'PUT /api/campaigns/c1': (req) => {
      onPut?.(req.body as CampaignFormBody)
      return { body: { success: true, message: MsgUpdated, campaign: { id: 'c1' } } }
    },
  })
}

describe('/campaigns/edit/:id', () => {
  it('says why a campaign starting in 5 days or less cannot be edited, and shows no form', async () => {
    server(false)
    renderApp('/campaigns/edit/c1', { session: signedInSession(makeUser()) })
    expect(await screen.findByText(MsgNotEditable)).toBeInTheDocument()
    expect(screen.queryByLabelText('Campaign name')).not.toBeInTheDocument()
  })

  it('prefills the form, keeps the campaign’s own face, and saves with PUT', async () => {
    let sent: CampaignFormBody | undefined
    server(true, (body) => (sent = body))
    const { router } = renderApp('/campaigns/edit/c1', { session: signedInSession(makeUser()) })
    const user = userEvent.setup()
    const name = await screen.findByLabelText('Campaign name')
    expect(name).toHaveValue('Spring sale')
    expect(screen.getByRole('radio', { name: /Specified end date/ })).toBeChecked()
    const box = await within(await screen.findByRole('list', { name: 'Faces' })).findByRole('checkbox', { name: 'Broadway & 5th, North Face' })
    await waitFor(() => expect(screen.getByTestId('weekly-budget')).toHaveTextContent('$500'))
    expect(box).toBeChecked()
    await user.clear(name)
    await user.type(name, 'Spring sale, edited')
    await user.click(screen.getByRole('button', { name: 'Review changes' }))
    await user.click(within(await screen.findByRole('dialog', { name: 'Review and confirm' })).getByRole('button', { name: 'Save changes' }))
    await waitFor(() => expect(router.state.location.pathname).toBe('/campaigns/c1'))
    expect(sent).toMatchObject({ name: 'Spring sale, edited', places_checked: [{ id: 'f1', price: 500 }], startDate: '2026-11-23', endDate: '2026-12-06', duration: 2, creative_id: 'cr-1' })
  })
})
