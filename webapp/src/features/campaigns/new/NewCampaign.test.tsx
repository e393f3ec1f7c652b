import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import {
  MsgCardRequired,
  MsgConflict,
  MsgCreated,
  MsgCreativeRequired,
  MsgDurationTooLong,
  MsgLocationRequired,
  type CampaignForm as CampaignFormBody,
} from '../../../platform/api-types/campaigns'
import { selectFlashes } from '../../../platform/flash/flash'
import { renderApp } from '../../../test/renderApp'
import { advertiser, chooseMarketAndFace, server } from './formServer'

// jsdom has no layout; the form scrolls invalid fields into view.
vi.setConfig({ testTimeout: 30_000 })

beforeEach(() => {
  Element.prototype.scrollIntoView = () => undefined
})

describe('/campaigns/new', () => {
  it('shows every B §5 message on the client', async () => {
    server({}, { card: false, creative: false })
    const { store } = renderApp('/campaigns/new', advertiser())
    const user = userEvent.setup()
    await user.type(await screen.findByLabelText('Campaign name'), 'Spring sale')
    await waitFor(() => expect(screen.getByLabelText('Start date (a Monday)')).toHaveValue('11/23/2026'))
    await user.click(screen.getByRole('button', { name: 'Review and confirm' }))
    expect(await screen.findByText(MsgLocationRequired)).toBeInTheDocument()
    expect(screen.getByText(MsgCreativeRequired)).toBeInTheDocument()
    // B §5: nothing chosen costs nothing, so no card is asked for yet.
    expect(screen.queryByText(MsgCardRequired)).not.toBeInTheDocument()
    await user.click(await screen.findByRole('checkbox', { name: 'SF Bay Area' }))
    const box = await within(await screen.findByRole('list', { name: 'Faces' })).findByRole('checkbox', { name: 'Broadway & 5th, North Face' })
    await waitFor(() => expect(box).toBeEnabled())
    await user.click(box)
    await user.click(screen.getByRole('button', { name: 'Review and confirm' }))
    expect((await screen.findAllByText(MsgCardRequired)).length).toBeGreaterThan(0)
    const cardFlash = selectFlashes(store.getState()).find((f) => f.text === MsgCardRequired)
    expect(cardFlash?.duration).toBe(600000)

    // Weekly with an end date 53 weeks on.
    await user.click(screen.getByRole('radio', { name: /Specified end date/ }))
    const end = screen.getByLabelText('End date (a Sunday)')
    await user.clear(end)
    await user.type(end, '11/28/2027')
    expect(screen.getByTestId('duration')).toHaveTextContent('53 weeks')
    await user.click(screen.getByRole('button', { name: 'Review and confirm' }))
    expect(await screen.findByText(MsgDurationTooLong)).toBeInTheDocument()
    expect(screen.queryByRole('dialog', { name: 'Review and confirm' })).not.toBeInTheDocument()
  })

  it('prices the chosen faces, disables the sold-out one, and creates the campaign once with an Idempotency-Key', async () => {
    let body: CampaignFormBody | undefined
    const fake = server({
      'POST /api/campaigns': (req) => {
        body = req.body as CampaignFormBody
        return { status: 201, body: { success: true, message: MsgCreated, campaign: { id: 'c1' } } }
      },
    })
    const { router } = renderApp('/campaigns/new', advertiser())
    const user = userEvent.setup()
    const faces = await chooseMarketAndFace(user)
    expect(within(faces).getByRole('checkbox', { name: 'Sold Out Ave, North Face' })).toBeDisabled()
    await user.click(within(faces).getByRole('checkbox', { name: 'Market St, North Face' }))
    expect(screen.getByTestId('weekly-budget')).toHaveTextContent('$1,250')
    expect(screen.getByTestId('impressions')).toHaveTextContent('80,000')

    await user.click(screen.getByRole('radio', { name: /Specified end date/ }))
    expect(screen.getByTestId('duration')).toHaveTextContent('2 weeks')
    expect(screen.getByTestId('total-budget')).toHaveTextContent('$2,500')

    await user.click(screen.getByRole('button', { name: 'Review and confirm' }))
    const review = await screen.findByRole('dialog', { name: 'Review and confirm' })
    expect(within(review).getByText('Spring ad (company default)')).toBeInTheDocument()
    await user.click(within(review).getByRole('button', { name: 'Confirm campaign' }))
    await waitFor(() => expect(router.state.location.pathname).toBe('/campaigns/success/submitted'))
    expect(await screen.findByRole('link', { name: 'Go to my campaigns' })).toHaveAttribute('href', '/campaigns')
    await waitFor(() => expect(screen.getByText(MsgCreated)).toBeInTheDocument())

    const posts = fake.called('POST', '/api/campaigns')
    expect(posts).toHaveLength(1)
    expect(posts[0]!.headers.get('Idempotency-Key')).toMatch(/.{8,}/)
    expect(body).toMatchObject({
      name: 'Spring sale',
      typeCampaign: 1,
      strategySelected: 1,
      marketsSelected: ['SF Bay Area'],
      places_checked: [
        { id: 'f1', price: 500 },
        { id: 'f2', price: 750 },
      ],
      startDate: '2026-11-23',
      endDate: '2026-12-06',
      frequencySelected: 'weekly',
      duration: 2,
      use_default_creative: true,
      weekly_budget: 1250,
      impression_count: 80000,
    })
    // B §3: an empty cities list is not sent.
    expect(body).not.toHaveProperty('citiesSelected')
  })

  it('opens the conflict dialog, disables the form, and resolves with the suggested dates', async () => {
    const weeks = [
      { id: 'w1', campaign_id: 'c9', product_id: 'f1', start_at: '2026-11-23', end_at: '2026-11-29', status_week: 'active', product: { location_name: 'Broadway & 5th' } },
      { id: 'w2', campaign_id: 'c9', product_id: 'f1', start_at: '2026-12-07', end_at: '2026-12-13', status_week: 'reserved', product: { location_name: 'Broadway & 5th' } },
    ]
    const fake = server({
      'POST /api/campaigns': { status: 409, body: { success: false, message: MsgConflict, campaign: { id: 'c9', name: 'Spring sale', weeks, expires_at: '2026-11-16T12:15:00Z' }, params: {} } },
      'POST /api/campaigns/c9/resolve': { body: { success: true, message: MsgCreated, campaign: { id: 'c9' } } },
    })
    const { router } = renderApp('/campaigns/new', advertiser())
    const user = userEvent.setup()
    await chooseMarketAndFace(user)
    await user.click(screen.getByRole('button', { name: 'Review and confirm' }))
    await user.click(within(await screen.findByRole('dialog', { name: 'Review and confirm' })).getByRole('button', { name: 'Confirm campaign' }))

    const dialog = await screen.findByRole('dialog', { name: 'Some locations are taken' })
    expect(within(dialog).getByText(MsgConflict)).toBeInTheDocument()
    expect(within(dialog).getByRole('region', { name: 'Your dates (available)' })).toHaveTextContent('Nov 23, 2026')
    expect(within(dialog).getByRole('region', { name: 'Suggested dates' })).toHaveTextContent('Dec 07, 2026')
    expect(screen.getByLabelText('Campaign name', { selector: 'input' })).toBeDisabled()

    await user.click(within(dialog).getByRole('button', { name: 'Use suggested dates' }))
    await waitFor(() => expect(router.state.location.pathname).toBe('/campaigns'))
    expect(fake.called('POST', '/api/campaigns/c9/resolve')[0]!.body).toEqual({ choice: 'suggested' })
  })

  it('keeps my own dates through the same dialog', async () => {
    const fake = server({
      'POST /api/campaigns': { status: 409, body: { success: false, message: MsgConflict, campaign: { id: 'c7', weeks: [], expires_at: '2026-11-16T12:15:00Z' }, params: {} } },
      'POST /api/campaigns/c7/resolve': { body: { success: true, message: 'Nothing was booked.' } },
    })
    const { router } = renderApp('/campaigns/new', advertiser())
    const user = userEvent.setup()
    await chooseMarketAndFace(user)
    await user.click(screen.getByRole('button', { name: 'Review and confirm' }))
    await user.click(within(await screen.findByRole('dialog', { name: 'Review and confirm' })).getByRole('button', { name: 'Confirm campaign' }))
    const dialog = await screen.findByRole('dialog', { name: 'Some locations are taken' })
    await user.click(within(dialog).getByRole('button', { name: 'Keep my own dates' }))
    await waitFor(() => expect(router.state.location.pathname).toBe('/campaigns'))
    expect(fake.called('POST', '/api/campaigns/c7/resolve')[0]!.body).toEqual({ choice: 'own' })
  })

  it('re-enables the form and shows Sorry! plus the message on another failure, with a new key next time', async () => {
    const fake = server({ 'POST /api/campaigns': { status: 400, body: { success: false, message: 'The prices have changed.', errors: {} } } })
    const { store } = renderApp('/campaigns/new', advertiser())
    const user = userEvent.setup()
    await chooseMarketAndFace(user)
    for (let i = 0; i < 2; i++) {
      await user.click(screen.getByRole('button', { name: 'Review and confirm' }))
      await user.click(within(await screen.findByRole('dialog', { name: 'Review and confirm' })).getByRole('button', { name: 'Confirm campaign' }))
      await waitFor(() => expect(selectFlashes(store.getState()).map((f) => f.text)).toContain('Sorry! The prices have changed.'))
      await waitFor(() => expect(screen.getByLabelText('Campaign name', { selector: 'input' })).toBeEnabled())
    }
    const keys = fake.called('POST', '/api/campaigns').map((c) => c.headers.get('Idempotency-Key'))
    expect(keys).toHaveLength(2)
    expect(keys[0]).not.toBe(keys[1])
    expect(selectFlashes(store.getState()).find((f) => f.text.startsWith('Sorry!'))?.duration).toBe(600000)
  })

  it('asks before a strategy change resets the chosen faces; cancel keeps everything', async () => {
    server()
    renderApp('/campaigns/new', advertiser())
    const user = userEvent.setup()
    const faces = await chooseMarketAndFace(user)
    await user.click(screen.getByRole('radio', { name: 'Radius around an address' }))
    const confirm = await screen.findByRole('dialog', { name: 'Change the strategy?' })
    await user.click(within(confirm).getByRole('button', { name: 'Cancel' }))
    expect(screen.getByRole('radio', { name: 'DMA market' })).toBeChecked()
    expect(within(faces).getByRole('checkbox', { name: 'Broadway & 5th, North Face' })).toBeChecked()

    await user.click(screen.getByRole('radio', { name: 'Radius around an address' }))
    await user.click(within(await screen.findByRole('dialog', { name: 'Change the strategy?' })).getByRole('button', { name: 'Yes, start over' }))
    expect(screen.getByRole('radio', { name: 'Radius around an address' })).toBeChecked()
    expect(await screen.findByLabelText('Address or place')).toBeInTheDocument()
    expect(screen.getByText('(0 chosen)')).toBeInTheDocument()
  })

  it('has an example slideshow of 9 slides', async () => {
    server()
    renderApp('/campaigns/new', advertiser())
    const user = userEvent.setup()
    await user.click(await screen.findByRole('button', { name: 'See an example campaign' }))
    const dialog = await screen.findByRole('dialog', { name: 'Example campaign' })
    expect(within(dialog).getByText('Slide 1 of 9')).toBeInTheDocument()
    for (let i = 0; i < 8; i++) await user.click(within(dialog).getByRole('button', { name: 'Next' }))
    expect(within(dialog).getByText('Slide 9 of 9')).toBeInTheDocument()
    await user.click(within(dialog).getByRole('button', { name: 'Done' }))
    expect(screen.queryByRole('dialog', { name: 'Example campaign' })).not.toBeInTheDocument()
  })
})
