import { screen, waitFor, within } from '@testing-library/react'
import type userEvent from '@testing-library/user-event'
import { expect } from 'vitest'
import type { Market } from '../../../platform/api-types/locations'
import { mockFetch, type FakeRoute } from '../../../test/fetch'
import { makeFace } from '../../../test/faces'
import { makeUser, signedInSession } from '../../../test/users'

// The fake server of the new-campaign form tests (only tests import this file): the calls the form
// makes, at the network boundary, with two markets.

export const market: Market = { id: 'm1', market: 'SF Bay Area', cities: ['Oakland', 'San Jose'], center: { lat: 37.77, lng: -122.42 }, zoom: 8, fixed: true }
export const denver: Market = { id: 'm2', market: 'Denver', cities: ['Lakewood', 'Aurora'], center: { lat: 39.74, lng: -104.99 }, zoom: 10, fixed: false }
export const face = (id: string, name: string, city: string, extra: { market?: string; likely?: boolean } = {}) =>
  makeFace({ id, location_name: name, city, lat: 37.8, lng: -122.27, value: 500, ooh: 40000, ...extra })
export const spot = (id: string, price: number, available = true) => ({ xxx: id, used_spots: available ? 1 : 6, available_spots: 6, min_value: price, min_value_2: 0, vendor_tier: 1, old_value: price, ooh: 40000, available, price })
export const card = { id: 'card-1', brand: 'Visa', last4: '4242', exp_month: 3, exp_year: 2031, masked: 'xxxx-xxxx-xxxx-4242' }
export const creative = { id: 'cr-1', awsUrl: '/creative/image?image=a.jpg', name: 'Spring ad', alt: 'Spring ad', url: 'a.jpg', company: 'company-1', reference: 'R1', converted_thumb: '', width: 1400, height: 400, is_default: true, created_at: '2026-11-01T00:00:00Z' }

const bayFaces = () => [face('f1', 'Broadway & 5th', 'Oakland'), face('f2', 'Market St', 'San Jose'), face('f3', 'Sold Out Ave', 'Oakland')]
const denverFaces = () => [face('d1', 'Colfax Ave', 'Lakewood', { market: 'Denver' })]

export function server(overrides: Record<string, FakeRoute> = {}, opts: { card?: boolean; creative?: boolean; credit?: number } = {}) {
  return mockFetch({
    'GET /api/campaigns/defaults': { body: { today: '2026-11-16', earliest_start: '2026-11-23', default_start: '2026-11-23', max_weeks: 52, default_weekly_duration: 2, business_timezone: '' } },
    'GET /api/markets/': { body: [market, denver] },
    'GET /api/map/config': { body: { tile_url: 'http://tiles.invalid/{z}/{x}/{y}.png', attribution: 'Test' } },
    // The server takes a comma list of markets (B §3 marketsSelected).
    'GET /api/od/locations/': (req) => {
      const wanted = (req.query.get('market') ?? '').split(',')
      return { body: [...(wanted.includes('SF Bay Area') ? bayFaces() : []), ...(wanted.includes('Denver') ? denverFaces() : [])] }
    },
    'POST /api/available-spots/': { body: [spot('f1', 500), spot('f2', 750), spot('f3', 600, false), spot('d1', 300)] },
    'GET /api/cards/me': opts.card === false ? { status: 404, body: { success: false, message: 'No card.' } } : { body: card },
    'GET /companies/currentCompany': { body: { account_credit: opts.credit ?? 0 } },
    'GET /api/creatives/default': opts.creative === false ? { status: 200 } : { body: creative },
    ...overrides,
  })
}

export const advertiser = (user = makeUser()) => ({ session: signedInSession(user) })

export async function chooseMarketAndFace(user: ReturnType<typeof userEvent.setup>) {
  await user.type(await screen.findByLabelText('Campaign name'), 'Spring sale')
  await user.click(await screen.findByRole('checkbox', { name: 'SF Bay Area' }))
  const faces = await screen.findByRole('list', { name: 'Faces' })
  const box = await within(faces).findByRole('checkbox', { name: 'Broadway & 5th, North Face' })
  await waitFor(() => expect(box).toBeEnabled())
  await user.click(box)
  return faces
}
