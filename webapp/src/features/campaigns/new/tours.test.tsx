import { act, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { mockFetch } from '../../../test/fetch'
import { renderApp } from '../../../test/renderApp'
import { makeUser, signedInSession } from '../../../test/users'
import { DASHBOARD_TOUR } from '../../../platform/tour/steps'
import { NEW_CAMPAIGN_TOUR } from './tourSteps'

// The dashboard tour (platform/tour) and the new-campaign tour it continues into, through the app's
// routes: a campaigns test, since the platform does not know the campaign screens.
vi.setConfig({ testTimeout: 30_000 })

beforeEach(() => {
  Element.prototype.scrollIntoView = () => undefined
})

function fakeServer() {
  return mockFetch({
    'GET /api/campaigns/defaults': { body: { today: '2026-11-16', earliest_start: '2026-11-23', default_start: '2026-11-23', max_weeks: 52 } },
    'GET /api/markets/': { body: [] },
    'GET /api/map/config': { body: { tile_url: 'http://tiles.invalid/{z}/{x}/{y}.png', attribution: 'Test' } },
    'GET /api/cards/me': { status: 404, body: { success: false, message: 'No card.' } },
    'GET /companies/currentCompany': { body: { account_credit: 0 } },
    'GET /api/creatives/default': { status: 200 },
    'GET /api/campaigns/count': { body: { pending: 0, active: 0, completed: 0, paused: 0, total: 0 } },
    'GET /users/disable-tour': { body: { tourCampaignShow: false, tutorialCampaignShowed: true } },
    'GET /users/check-tutorial': { body: { tourCampaignShow: false, tutorialCampaignShowed: true } },
  })
}

const popover = () => document.querySelector<HTMLElement>('.driver-popover')

describe('the guided tours', () => {
  it('the new-campaign tour has the 16 steps of B §2, the dashboard tour points at the menu', () => {
    expect(NEW_CAMPAIGN_TOUR).toHaveLength(16)
    expect(NEW_CAMPAIGN_TOUR.map((s) => s.title)).toEqual([
      'Plan your campaign',
      'Campaign name',
      'Campaign type',
      'Strategy',
      'Market',
      'Map',
      'Cities',
      'Scheduling',
      'Start date',
      'Frequency',
      'End date',
      'Budgets',
      'Estimated impressions',
      'Add creative',
      'Ad preview',
      'Review and confirm',
    ])
    expect(NEW_CAMPAIGN_TOUR[2]!.text).toContain('Maximize Budget and Hand Select Locations')
    expect(NEW_CAMPAIGN_TOUR[9]!.text).toContain('Ongoing, One Week, or a Specified End Date')
    expect(DASHBOARD_TOUR.length).toBeGreaterThan(3)
  })

  it('?tour=true on /campaigns/new starts the tour, removes the parameter, and asks before ending early', async () => {
    fakeServer()
    const { router } = renderApp('/campaigns/new?tour=true', { session: signedInSession(makeUser()) })
    await waitFor(() => expect(popover()).not.toBeNull())
    expect(router.state.location.search).toBe('')
    expect(popover()).toHaveTextContent('Step 1 of 16')
    const user = userEvent.setup()
    await user.click(within(popover()!).getByRole('button', { name: 'Next' }))
    await waitFor(() => expect(popover()).toHaveTextContent('Step 2 of 16'))
    expect(popover()).toHaveTextContent('Campaign name')

    // Closing before the end asks first (the tour-cancel modal); continuing resumes at that step.
    await user.click(within(popover()!).getByRole('button', { name: /close/i }))
    const ask = await screen.findByRole('dialog', { name: 'End the tour?' })
    await user.click(within(ask).getByRole('button', { name: 'Continue the tour' }))
    await waitFor(() => expect(popover()).toHaveTextContent('Step 2 of 16'))
    await user.click(within(popover()!).getByRole('button', { name: /close/i }))
    await user.click(within(await screen.findByRole('dialog', { name: 'End the tour?' })).getByRole('button', { name: 'End the tour' }))
    await waitFor(() => expect(popover()).toBeNull())
  })

  it('ends on any route change', async () => {
    fakeServer()
    const { router } = renderApp('/campaigns/new?tour=true', { session: signedInSession(makeUser()) })
    await waitFor(() => expect(popover()).not.toBeNull())
    await act(async () => {
      await router.navigate('/faq')
    })
    await waitFor(() => expect(popover()).toBeNull())
    expect(screen.queryByRole('dialog', { name: 'End the tour?' })).not.toBeInTheDocument()
  })

  it('the dashboard tour starts once for a user whose tour flag is on, and its end continues on /campaigns/new', async () => {
    const server = fakeServer()
    const { router } = renderApp('/dashboard', { session: signedInSession(makeUser({ tourCampaignShow: true, sign_in_count: 0 })) })
    const user = userEvent.setup()
    await waitFor(() => expect(server.called('GET', '/users/disable-tour')).toHaveLength(1))
    await waitFor(() => expect(popover()).not.toBeNull())
    for (let i = 0; i < DASHBOARD_TOUR.length - 1; i++) {
      await user.click(within(popover()!).getByRole('button', { name: 'Next' }))
    }
    await user.click(within(popover()!).getByRole('button', { name: 'Finish' }))
    await waitFor(() => expect(router.state.location.pathname).toBe('/campaigns/new'))
    // …where the new-campaign tour starts and the parameter goes away.
    await waitFor(() => expect(popover()).toHaveTextContent('Step 1 of 16'))
    expect(router.state.location.search).toBe('')
  })
})
