import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { MsgCreated, TypeMaximumBudget, type CampaignForm as CampaignFormBody } from '../../../platform/api-types/campaigns'
import { renderApp } from '../../../test/renderApp'
import { advertiser, face, server } from './formServer'

// The maximum-budget type with its flag on (DESIGN §1.7, VITE_MAX_BUDGET_CAMPAIGNS),
// so that turning the flag on gives a correct product (B §4, §5, §9).
vi.stubEnv('VITE_MAX_BUDGET_CAMPAIGNS', 'true')
vi.setConfig({ testTimeout: 30_000 })
afterAll(() => {
  vi.unstubAllEnvs()
})

beforeEach(() => {
  Element.prototype.scrollIntoView = () => undefined
  window.localStorage.clear()
})

const likelyFaces = { 'GET /api/od/locations/': { body: [face('f1', 'Broadway & 5th', 'Oakland', { likely: true }), face('f2', 'Market St', 'San Jose', { likely: true })] } }

async function setUp(overrides = {}) {
  const fake = server({ ...likelyFaces, ...overrides })
  renderApp('/campaigns/new', advertiser())
  const user = userEvent.setup()
  await user.type(await screen.findByLabelText('Campaign name'), 'Max it')
  await user.click(screen.getByRole('radio', { name: 'Maximize Budget' }))
  await user.click(await screen.findByRole('checkbox', { name: 'SF Bay Area' }))
  const box = (name: string) => within(screen.getByRole('list', { name: 'Faces' })).getByRole('checkbox', { name })
  await waitFor(() => expect(box('Broadway & 5th, North Face')).toBeEnabled())
  return { fake, user, box }
}

describe('the maximum-budget type (flag on)', () => {
  it('takes a daily budget, raised to 20 by a selection and blanked when none is left; weekly = daily × 7', async () => {
    const { user, box } = await setUp()
    const daily = screen.getByLabelText('Daily budget')
    expect(daily).toHaveValue('')
    await user.click(box('Broadway & 5th, North Face'))
    expect(daily).toHaveValue('20')
    expect(screen.getByTestId('weekly-budget')).toHaveTextContent('$140')
    // $140 of a $500 face's 40,000 impressions.
    expect(screen.getByTestId('impressions')).toHaveTextContent('11,200')
    expect(screen.getByText(/Suggested daily budget: \$20 for 1 location/)).toBeInTheDocument()

    await user.clear(daily)
    await user.type(daily, '100')
    expect(screen.getByTestId('weekly-budget')).toHaveTextContent('$700')
    // Capped at the face's total.
    expect(screen.getByTestId('impressions')).toHaveTextContent('40,000')
    await user.click(box('Market St, North Face'))
    expect(daily).toHaveValue('100')

    await user.click(box('Broadway & 5th, North Face'))
    await user.click(box('Market St, North Face'))
    expect(daily).toHaveValue('')
  })

  it('below the suggested daily budget: 0 impressions, no likely flag, and the review is blocked silently', async () => {
    const { user, box, fake } = await setUp()
    await user.click(box('Broadway & 5th, North Face'))
    expect(screen.getByText('Likely to run')).toBeInTheDocument()
    const daily = screen.getByLabelText('Daily budget')
    await user.clear(daily)
    await user.type(daily, '19')
    expect(screen.getByTestId('impressions')).toHaveTextContent(/^0$/)
    expect(screen.queryByText('Likely to run')).not.toBeInTheDocument()

    await user.click(screen.getByRole('button', { name: 'Review and confirm' }))
    await new Promise((r) => setTimeout(r, 300))
    expect(screen.queryByRole('dialog', { name: 'Review and confirm' })).not.toBeInTheDocument()
    expect(screen.queryAllByRole('alert')).toHaveLength(0)
    expect(fake.called('POST', '/api/campaigns')).toHaveLength(0)
  })

  it('sends the daily budget as maxBudget and daily × 7 as the weekly budget', async () => {
    let body: CampaignFormBody | undefined
    const { user, box } = await setUp({
      'POST /api/campaigns': (req: { body: unknown }) => {
        body = req.body as CampaignFormBody
        return { status: 201, body: { success: true, message: MsgCreated } }
      },
    })
    await user.click(box('Broadway & 5th, North Face'))
    const daily = screen.getByLabelText('Daily budget')
    await user.clear(daily)
    await user.type(daily, '$50')
    await user.click(screen.getByRole('button', { name: 'Review and confirm' }))
    const dialog = await screen.findByRole('dialog', { name: 'Review and confirm' })
    expect(within(dialog).getByText('$50')).toBeInTheDocument()
    await user.click(within(dialog).getByRole('button', { name: 'Confirm campaign' }))
    await waitFor(() => expect(body).toBeDefined())
    expect(body).toMatchObject({ typeCampaign: TypeMaximumBudget, maxBudget: '$50', weekly_budget: 350, impression_count: 28_000 })
  })
})
