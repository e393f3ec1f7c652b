import { describe, expect, it } from 'vitest'
import { campaignType, displayStatus, frequencyLabel, LIST_PAGE_SIZES, STATUS_FILTERS, statusFromQuery, statusLabel } from './listRules'

describe('campaign list rules', () => {
  it('offers the status filter labels of A §9 and the page sizes 50, 75, 100, All', () => {
    expect(STATUS_FILTERS.map((f) => f.label)).toEqual(['Active', 'Paused', 'Pending', 'Completed'])
    expect(LIST_PAGE_SIZES).toEqual([50, 75, 100, 0])
  })

  it.each([
    ['active', 'active'],
    ['Paused', 'paused'],
    [' pending ', 'pending'],
    ['completed', 'completed'],
    ['deleted', ''],
    ['', ''],
    [null, ''],
  ])('reads ?status=%s as %j', (query, expected) => {
    expect(statusFromQuery(query)).toBe(expected)
  })

  it("shows a stored 'paid' as pending (B §4)", () => {
    expect(displayStatus('paid')).toBe('pending')
    expect(statusLabel('paid')).toBe('Pending')
    expect(statusLabel('active')).toBe('Active')
  })

  it('calls a campaign Basic when mb_campaign is set, otherwise Premium (A §1)', () => {
    expect(campaignType({ mb_campaign: true, campaignType: '' })).toBe('Basic')
    expect(campaignType({ mb_campaign: false, campaignType: '' })).toBe('Premium')
    expect(campaignType({ mb_campaign: false, campaignType: 'Basic' })).toBe('Basic')
  })

  it('names frequencies as the tour does', () => {
    expect(['one-time', 'weekly', 'ongoing', 'indefinitely'].map(frequencyLabel)).toEqual(['One week', 'Specified end date', 'Ongoing', 'Ongoing'])
  })
})
