import { fireEvent, screen, waitFor } from '@testing-library/react'
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { MsgStartTooSoon } from '../../../platform/api-types/campaigns'
import { renderApp } from '../../../test/renderApp'
import { advertiser, server } from './formServer'

// The form's today and Wednesday cut-off follow the business time zone the server
// names (America/New_York here), not the browser's zone (Los Angeles here) nor UTC.
vi.stubEnv('TZ', 'America/Los_Angeles')
vi.setConfig({ testTimeout: 30_000 })

beforeEach(() => {
  Element.prototype.scrollIntoView = () => undefined
  window.localStorage.clear()
  vi.useFakeTimers({ toFake: ['Date'] })
})
afterEach(() => {
  vi.useRealTimers()
})
afterAll(() => {
  vi.unstubAllEnvs()
})

// The server's calendar read at Wednesday 23:59 in New York.
const wednesdayNight = { today: '2026-11-18', earliest_start: '2026-11-23', default_start: '2026-11-30', max_weeks: 52, default_weekly_duration: 2, business_timezone: 'America/New_York' }

// Typed as one change: user-event's typing waits on a clock these tests hold still.
function typeStart(text: string) {
  const input = screen.getByLabelText('Start date (a Monday)')
  fireEvent.change(input, { target: { value: text } })
  fireEvent.blur(input)
}

describe('the Wednesday cut-off in the business time zone', () => {
  it('takes next Monday until midnight in New York, and refuses it from then on', async () => {
    vi.setSystemTime(new Date('2026-11-19T04:59:00Z')) // Wed 23:59 New York · Wed 20:59 Los Angeles · Thu 04:59 UTC
    server({ 'GET /api/campaigns/defaults': { body: wednesdayNight } })
    renderApp('/campaigns/new', advertiser())
    await waitFor(() => expect(screen.getByLabelText('Start date (a Monday)')).toHaveValue('11/30/2026'))
    typeStart('11/23/2026')
    expect(screen.queryByText(MsgStartTooSoon)).not.toBeInTheDocument()

    // Thursday 00:00:30 in New York, still Wednesday evening in the browser's zone: the form left
    // open moves on with the business day.
    vi.setSystemTime(new Date('2026-11-19T05:00:30Z'))
    typeStart('11/16/2026')
    typeStart('11/23/2026')
    expect(await screen.findByText(MsgStartTooSoon)).toBeInTheDocument()
    typeStart('11/30/2026')
    expect(screen.queryByText(MsgStartTooSoon)).not.toBeInTheDocument()
  })

  it('proposes the start from the New York date when the browser is still on Wednesday', async () => {
    // The page opens at Thu 00:30 New York (Wed 21:30 Los Angeles) with a server day that is
    // already Thursday: the default start is the Monday after next (B §4, weekday 4 → + 14).
    vi.setSystemTime(new Date('2026-11-19T05:30:00Z'))
    server({ 'GET /api/campaigns/defaults': { body: { ...wednesdayNight, today: '2026-11-19', earliest_start: '2026-11-30', default_start: '2026-12-07' } } })
    renderApp('/campaigns/new', advertiser())
    await waitFor(() => expect(screen.getByLabelText('Start date (a Monday)')).toHaveValue('12/07/2026'))
    typeStart('11/23/2026')
    expect(await screen.findByText(MsgStartTooSoon)).toBeInTheDocument()
  })
})
