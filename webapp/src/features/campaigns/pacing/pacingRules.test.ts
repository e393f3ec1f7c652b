import { describe, expect, it } from 'vitest'
import type { Pacing, RenewPrefill } from '../../../platform/api-types/campaigns'
import { finishShort, finishText, paceState, paceText, renewInitial, renewPath, spentPercent } from './pacingRules'

const pacing = (over: Partial<Pacing> = {}): Pacing => ({
  campaign_id: 'c1',
  name: 'Holiday Coffee Push',
  status: 'active',
  frequency: 'weekly',
  spent: 1500,
  committed: 2000,
  remaining: 500,
  weekly_cost: 500,
  finish_date: '2026-12-06',
  finish_basis: 'end_date',
  credit_weeks: 0,
  planned_to_date: 2000,
  delivered_to_date: 1900,
  pace_percent: 95,
  weeks_finished: 1,
  weeks_reported: 1,
  renewable: true,
  ...over,
})

describe('pacing wording (issue 17)', () => {
  it('reads the pace against the 90% line', () => {
    expect(paceState(null)).toBe('none')
    expect(paceState(100)).toBe('on')
    expect(paceState(120)).toBe('on')
    expect(paceState(99)).toBe('slightly')
    expect(paceState(90)).toBe('slightly')
    expect(paceState(89)).toBe('behind')
  })

  it('says the delivery against plan, or what is missing', () => {
    expect(paceText(pacing())).toBe('95% of plan: 1,900 of 2,000 impressions over 1 finished week')
    expect(paceText(pacing({ weeks_reported: 3 }))).toContain('over 3 finished weeks')
    expect(paceText(pacing({ pace_percent: undefined, weeks_finished: 0 }))).toBe('No week has finished yet.')
    expect(paceText(pacing({ pace_percent: undefined, weeks_finished: 2 }))).toBe('The finished weeks’ impressions are not recorded yet.')
  })

  it('says the projected finish for each basis', () => {
    expect(finishText(pacing())).toBe('Ends Dec 06, 2026')
    expect(finishText(pacing({ finish_basis: 'credit', credit_weeks: 2 }))).toBe('Your account credit runs it until Dec 06, 2026 (2 more weeks). Add a card to keep it going.')
    expect(finishText(pacing({ finish_basis: 'credit', credit_weeks: 1 }))).toContain('(1 more week)')
    expect(finishText(pacing({ finish_basis: 'open', finish_date: undefined }))).toBe('Open: it runs week after week until you stop it.')
    expect(finishShort(pacing({ finish_basis: 'open', finish_date: undefined }))).toBe('Open')
    expect(finishShort(pacing({ finish_basis: 'paused', finish_date: undefined }))).toBe('Paused')
    expect(finishShort(pacing())).toBe('Dec 06, 2026')
  })

  it('bounds the spent share', () => {
    expect(spentPercent(pacing())).toBe(75)
    expect(spentPercent(pacing({ committed: 0, spent: 0 }))).toBe(0)
    expect(spentPercent(pacing({ committed: 100, spent: 150 }))).toBe(100)
  })

  it('links the renewal and turns its prefill into the form', () => {
    expect(renewPath('a b')).toBe('/campaigns/new?renew=a%20b')
    const r: RenewPrefill = {
      campaign_id: 'c1',
      name: 'Holiday Coffee Push (renewed)',
      typeCampaign: 1,
      strategySelected: 1,
      marketsSelected: ['SF Bay Area'],
      citiesSelected: [],
      place_id: '',
      place_name: '',
      radiusCheckValue: 0,
      startDate: '2026-12-07',
      endDate: '2027-01-03',
      frequencySelected: 'weekly',
      duration: 4,
      faces: ['f1', 'f2'],
      daily_budget: 0,
      creative_id: 'cr1',
      creative_name: 'Spring sale',
      creative_url: '/creative/image?image=x',
    }
    const init = renewInitial(r)
    expect(init).toMatchObject({ name: 'Holiday Coffee Push (renewed)', start: '2026-12-07', end: '2027-01-03', frequency: 'weekly', duration: 4, faceIds: ['f1', 'f2'], place: null })
    expect(init.creative).toMatchObject({ id: 'cr1', name: 'Spring sale', awsUrl: '/creative/image?image=x' })
    expect(renewInitial({ ...r, creative_id: '', frequencySelected: 'one-time', duration: 3 })).toMatchObject({ creative: null, frequency: 'one-time', duration: 1 })
  })
})
