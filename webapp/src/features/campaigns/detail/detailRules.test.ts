import { describe, expect, it } from 'vitest'
import { ConfirmPause, ConfirmResume, ConfirmStop } from '../../../platform/api-types/campaigns'
import { ACTION_CONFIRMS, allowedActions, creativeImageUrl, failedPayment, imminentEndNotice, impressionsChart, impressionsToDate, notEditableReason, pollInterval, WEEK_PAGE_SIZES, weekCreativeChangeable } from './detailRules'

const flags = { can_pause: undefined, can_resume: undefined, can_stop: undefined } as unknown as { can_pause: boolean; can_resume: boolean; can_stop: boolean }

describe('campaign detail rules', () => {
  it('asks the confirm texts of B §8 word for word', () => {
    expect(ACTION_CONFIRMS.pause.message).toBe('Are you sure you want to pause this campaign?')
    expect(ACTION_CONFIRMS.resume.message).toBe('Are you sure you want to resume this campaign?')
    expect(ACTION_CONFIRMS.stop.message).toBe('Are you sure you would like to mark this campaign as Complete? NOTE: You will not be able to undo this action.')
    expect([ConfirmPause, ConfirmResume, ConfirmStop]).toEqual([ACTION_CONFIRMS.pause.message, ACTION_CONFIRMS.resume.message, ACTION_CONFIRMS.stop.message])
  })

  it.each([
    ['pending', { pause: true, resume: false, stop: false }],
    ['paid', { pause: true, resume: false, stop: false }],
    ['active', { pause: true, resume: false, stop: true }],
    ['paused', { pause: false, resume: true, stop: true }],
    ['completed', { pause: false, resume: false, stop: false }],
    ['canceled', { pause: false, resume: false, stop: false }],
  ])('allows for %s: %j (B §4) when the server sends no flags', (status, expected) => {
    expect(allowedActions({ status, ...flags })).toEqual(expected)
  })

  it("follows the server's flags when it sends them", () => {
    expect(allowedActions({ status: 'active', can_pause: false, can_resume: false, can_stop: true })).toEqual({ pause: false, resume: false, stop: true })
  })

  it('polls a pending campaign every 5000 ms and stops once it is active (A §4)', () => {
    expect(pollInterval('pending')).toBe(5000)
    expect(pollInterval('paid')).toBe(5000)
    expect(pollInterval('active')).toBe(0)
    expect(pollInterval(undefined)).toBe(0)
  })

  it('gives the imminent-end notice only to finite campaigns the server flags (B §9)', () => {
    expect(imminentEndNotice({ imminent_end: true, end_date: '2026-11-29', frequency: 'weekly' })).toContain('Nov 29, 2026')
    expect(imminentEndNotice({ imminent_end: false, end_date: '2026-11-29', frequency: 'weekly' })).toBeNull()
    expect(imminentEndNotice({ imminent_end: true, end_date: '2026-11-29', frequency: 'ongoing' })).toBeNull()
  })

  it('reports a failed first payment with the gateway message and the transaction to retry', () => {
    expect(failedPayment({ status: 'pending', payment_status: 'failed', payment_message: 'Your card was declined.', transaction: 't9' })).toEqual({ message: 'Your card was declined.', transaction: 't9' })
    expect(failedPayment({ status: 'active', payment_status: 'failed', payment_message: 'x', transaction: 't9' })).toBeNull()
    expect(failedPayment({ status: 'pending', payment_status: 'pending', payment_message: '', transaction: 't9' })).toBeNull()
  })

  it("draws 'Minimum Impressions' and 'Actual Impressions' (A §9), and no campaign-level make-good line (issue 26)", () => {
    const data = impressionsChart({ labels: ['Day 1'], minimum: [10], actual: [undefined], reported: [0], faces: [1], plan_floor: [9] })
    expect(data.series.map((s) => s.name)).toEqual(['Minimum Impressions', 'Actual Impressions'])
    expect(data.labels).toEqual(['Day 1'])
  })

  it('compares the estimated and actual impressions of the same weeks (issue 26)', () => {
    expect(impressionsToDate({ labels: ['Week 1', 'Week 2', 'Week 3'], minimum: [500, 500, 500], actual: [450, 520, undefined], reported: [1, 1, 0], faces: [1, 1, 1] })).toEqual({
      estimated: 1000,
      actual: 970,
      points: 2,
    })
    expect(impressionsToDate(undefined)).toEqual({ estimated: 0, actual: 0, points: 0 })
  })

  it('offers week page sizes 10, 50, 75, 100 and All, 10 first (B §9)', () => {
    expect(WEEK_PAGE_SIZES).toEqual([10, 50, 75, 100, 0])
  })

  it("changes a week's creative until the week has ended", () => {
    const today = new Date(2026, 10, 22)
    expect(weekCreativeChangeable({ end_at: '2026-11-22' }, today)).toBe(true)
    expect(weekCreativeChangeable({ end_at: '2026-11-15' }, today)).toBe(false)
  })

  it('says why a campaign cannot be edited', () => {
    const today = new Date(2026, 10, 22)
    expect(notEditableReason('2026-11-23', today)).toBe('This campaign starts in 5 days or less and can no longer be edited.')
    expect(notEditableReason('2026-11-16', today)).toBe('This campaign has started and can no longer be edited.')
  })

  it('loads a creative stored by key through /creative/image', () => {
    expect(creativeImageUrl('creatives/company-1/ab cd.jpg')).toBe('/creative/image?image=creatives%2Fcompany-1%2Fab%20cd.jpg')
    expect(creativeImageUrl('/creative/image?image=x.jpg')).toBe('/creative/image?image=x.jpg')
    expect(creativeImageUrl('https://cdn.example.com/x.jpg')).toBe('https://cdn.example.com/x.jpg')
    expect(creativeImageUrl('')).toBe('')
  })
})
