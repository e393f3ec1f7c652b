import type { Campaign, CampaignDetail, Week } from '../../../platform/api-types/campaigns'
import * as base from '../testCampaigns'

// The admin tests' data: the campaigns generators (../testCampaigns.ts) with a Denver campaign in
// December, ids k1, k2…, that the admin tests' expectations are written against.

export function makeWeek(n: number, overrides: Partial<Week> = {}): Week {
  return base.makeWeek(n, {
    campaign_id: 'k1',
    start_at: '2026-12-07',
    end_at: '2026-12-13',
    offer_price: 500,
    product_asking_price: 500,
    product_ooh: 75659,
    act_imp: undefined,
    creativeUrl: '',
    creative_id: '',
    product: { location_name: 'Main & 5th', market: 'Denver', city: 'Denver', face: 'North', latitude: 39.7, longitude: -104.9, product_image: '' },
    ...overrides,
  })
}

export function makeCampaign(n: number, overrides: Partial<Campaign> = {}): Campaign {
  return base.makeCampaign(n, {
    id: `k${n}`,
    company: `c${n}`,
    companyName: `Company ${n}`,
    user: 'u1',
    start_date: '2026-12-07',
    end_date: '2026-12-20',
    duration: 2,
    max_budget: 0,
    total_budget: 2500,
    totalActImp: 0,
    impression_count: 259311,
    market: ['Denver'],
    creative: '',
    transaction: '',
    created_at: '2026-11-01T10:00:00Z',
    updated_at: '2026-11-01T10:00:00Z',
    ...overrides,
  })
}

export function makeDetail(n: number, overrides: Partial<CampaignDetail> = {}): CampaignDetail {
  return base.makeDetail({
    ...makeCampaign(n),
    locations: [
      { id: 'f1', location_name: 'Main & 5th', market: 'Denver', city: 'Denver', face: 'North', lat: 39.7, lng: -104.9, double_faced: false, other_face: '', creative_id: 'cr1', creativeUrl: '', new_location_snapshot: '' },
      { id: 'f2', location_name: 'Elm St', market: 'Denver', city: 'Aurora', face: '', lat: 39.7, lng: -104.8, double_faced: false, other_face: '', creative_id: 'cr1', creativeUrl: '', new_location_snapshot: '' },
    ],
    proofs: [],
    chart: { labels: ['Week 1', 'Week 2'], minimum: [75659, 75659], actual: [undefined, undefined], reported: [0, 0], faces: [2, 2] },
    editable: true,
    ...overrides,
  })
}
