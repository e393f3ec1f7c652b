import type { Campaign, CampaignDetail, Week } from '../../../platform/api-types/campaigns'

// Data generators for the admin campaign tests: the API's shapes, overridden where a test cares.

export function makeWeek(n: number, overrides: Partial<Week> = {}): Week {
  return {
    id: `w${n}`,
    campaign_id: 'k1',
    product_id: 'f1',
    start_at: '2026-12-07',
    end_at: '2026-12-13',
    status_week: 'active',
    offer_price: 500,
    product_asking_price: 500,
    product_ooh: 75659,
    creativeUrl: '',
    creative_id: '',
    product: { location_name: 'Main & 5th', market: 'Denver', city: 'Denver', face: 'North', latitude: 39.7, longitude: -104.9, product_image: '' },
    creatives: [],
    ...overrides,
  }
}

export function makeCampaign(n: number, overrides: Partial<Campaign> = {}): Campaign {
  return {
    id: `k${n}`,
    ac_id: '',
    company: `c${n}`,
    companyName: `Company ${n}`,
    user: 'u1',
    name: `Campaign ${n}`,
    status: 'active',
    deleted: false,
    mb_campaign: false,
    campaignType: 'Premium',
    strategy: 1,
    frequency: 'weekly',
    start_date: '2026-12-07',
    end_date: '2026-12-20',
    duration: 2,
    weekly_budget: 1250,
    max_budget: 0,
    total_budget: 2500,
    totalCost: 2500,
    totalActImp: 0,
    impression_count: 259311,
    market: ['Denver'],
    cities: [],
    place_id: '',
    place_name: '',
    radiusCheckValue: 0,
    creative_id: 'cr1',
    creative: '',
    promo_code: '',
    payment_status: 'succeeded',
    payment_message: '',
    transaction: '',
    created_at: '2026-11-01T10:00:00Z',
    updated_at: '2026-11-01T10:00:00Z',
    ...overrides,
  }
}

export function makeDetail(n: number, overrides: Partial<CampaignDetail> = {}): CampaignDetail {
  return {
    ...makeCampaign(n),
    locations: [
      { id: 'f1', location_name: 'Main & 5th', market: 'Denver', city: 'Denver', face: 'North', lat: 39.7, lng: -104.9, double_faced: false, other_face: '', creative_id: 'cr1', creativeUrl: '', new_location_snapshot: '' },
      { id: 'f2', location_name: 'Elm St', market: 'Denver', city: 'Aurora', face: '', lat: 39.7, lng: -104.8, double_faced: false, other_face: '', creative_id: 'cr1', creativeUrl: '', new_location_snapshot: '' },
    ],
    proofs: [],
    chart: { labels: ['Week 1', 'Week 2'], minimum: [75659, 75659], actual: [undefined, undefined] },
    editable: true,
    imminent_end: false,
    can_pause: true,
    can_resume: false,
    can_stop: true,
    ...overrides,
  }
}
