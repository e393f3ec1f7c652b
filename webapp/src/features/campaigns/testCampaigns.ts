import type { Campaign, CampaignDetail, CampaignList, Week } from '../../platform/api-types/campaigns'

/** A campaign as the API gives it; override what the test is about. */
export function makeCampaign(n: number, overrides: Partial<Campaign> = {}): Campaign {
  return {
    id: `c${n}`,
    ac_id: '',
    company: 'company-1',
    companyName: 'Sunrise Coffee',
    user: 'user-1',
    name: `Campaign ${n}`,
    status: 'active',
    deleted: false,
    mb_campaign: false,
    campaignType: 'Premium',
    strategy: 1,
    frequency: 'weekly',
    start_date: '2026-11-02',
    end_date: '2026-11-29',
    duration: 4,
    weekly_budget: 1250,
    max_budget: 1250,
    total_budget: 5000,
    totalCost: 2500,
    totalActImp: 120000,
    impression_count: 1035000,
    market: ['San Francisco'],
    cities: [],
    place_id: '',
    place_name: '',
    radiusCheckValue: 0,
    creative_id: 'cr1',
    creative: '/creative/image?image=cr1.png',
    promo_code: '',
    payment_status: 'succeeded',
    payment_message: '',
    transaction: 't1',
    created_at: '2026-10-20T10:00:00Z',
    updated_at: '2026-10-20T10:00:00Z',
    ...overrides,
  }
}

export function makeList(items: Campaign[], overrides: Partial<CampaignList> = {}): CampaignList {
  return {
    items,
    total: items.length,
    page: 1,
    page_size: 50,
    totals: { weekly_budget: 2500, total_budget: 10000, total_act_imp: 240000 },
    ...overrides,
  }
}

export function makeDetail(overrides: Partial<CampaignDetail> = {}): CampaignDetail {
  return {
    ...makeCampaign(1),
    locations: [
      { id: 'f1', location_name: 'Market St & 5th', market: 'San Francisco', city: 'San Francisco', face: 'North Face', lat: 37.78, lng: -122.41, double_faced: false, other_face: '', creative_id: 'cr1', creativeUrl: '/creative/image?image=cr1.png', new_location_snapshot: '' },
      { id: 'f2', location_name: 'Bay Bridge West', market: 'San Francisco', city: 'Oakland', face: 'East Face', lat: 37.8, lng: -122.3, double_faced: false, other_face: '', creative_id: 'cr1', creativeUrl: '/creative/image?image=cr1.png', new_location_snapshot: '' },
    ],
    proofs: [{ id: 'p1', creative_type: 'Proof', url: '/proof/image?image=p1.jpg', converted_thumb: '/proof/image?image=p1_thumb.jpg', created_at: '2026-11-09T10:00:00Z', location_name: 'Bay Bridge West', face: 'East Face', start_at: '2026-11-02', end_at: '2026-11-08' }],
    chart: { labels: ['Week 1', 'Week 2', 'Week 3', 'Week 4'], minimum: [258750, 258750, 258750, 258750], actual: [61000, 59000, undefined, undefined], reported: [2, 1, 0, 0], faces: [2, 2, 2, 2] },
    editable: false,
    imminent_end: false,
    can_pause: true,
    can_resume: false,
    can_stop: true,
    ...overrides,
  }
}

export function makeWeek(n: number, overrides: Partial<Week> = {}): Week {
  return {
    id: `w${n}`,
    campaign_id: 'c1',
    product_id: 'f1',
    start_at: '2026-11-02',
    end_at: '2026-11-08',
    status_week: 'active',
    status: 'active',
    offer_price: 620,
    product_asking_price: 610,
    product_ooh: 129375,
    act_imp: 61000,
    delivery_source: 'admin',
    creativeUrl: '/creative/image?image=cr1.png',
    creative_id: 'cr1',
    product: { location_name: `Face ${n}`, market: 'San Francisco', city: 'San Francisco', face: 'North Face', latitude: 37.78, longitude: -122.41, product_image: '' },
    creatives: [],
    ...overrides,
  }
}
