import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { MsgCardRequired, MsgCreated, MsgCreatedActive, type CampaignForm as CampaignFormBody } from '../../../platform/api-types/campaigns'
import { selectFlashes } from '../../../platform/flash/flash'
import { renderApp } from '../../../test/renderApp'
import { advertiser, chooseMarketAndFace, server } from './formServer'

// The money rules of the form (B §5 card, B §3 promo_code, B §9 spendable).
vi.setConfig({ testTimeout: 30_000 })

beforeEach(() => {
  Element.prototype.scrollIntoView = () => undefined
  window.localStorage.clear()
})

const review = async (user: ReturnType<typeof userEvent.setup>) => {
  await user.click(screen.getByRole('button', { name: 'Review and confirm' }))
  return screen.findByRole('dialog', { name: 'Review and confirm' })
}

describe('a card only when something is charged (B §5)', () => {
  it('lets a company whose credit pays everything create without a card, and says the campaign is active', async () => {
    let body: CampaignFormBody | undefined
    const fake = server(
      {
        'POST /api/campaigns/quote': { body: { weekly: 500, weekly_budget: 0, total: 0, card_required: false, promo_credit: 0, spendable_budget: 0 } },
        'POST /api/campaigns': (req) => {
          body = req.body as CampaignFormBody
          return { status: 201, body: { success: true, message: MsgCreatedActive, campaign: { id: 'c1', status: 'active' } } }
        },
      },
      { card: false, credit: 500 },
    )
    const { router, store } = renderApp('/campaigns/new', advertiser())
    const user = userEvent.setup()
    await chooseMarketAndFace(user)
    await waitFor(() => expect(screen.getByTestId('weekly-budget')).toHaveTextContent('$0'))
    expect(screen.getByText(/none is needed/)).toBeInTheDocument()

    const dialog = await review(user)
    expect(screen.queryByText(MsgCardRequired)).not.toBeInTheDocument()
    expect(selectFlashes(store.getState()).map((f) => f.text)).not.toContain(MsgCardRequired)
    expect(fake.called('POST', '/api/campaigns/quote')).toHaveLength(1)
    expect(within(dialog).getByText('None needed: your credit covers it')).toBeInTheDocument()
    await user.click(within(dialog).getByRole('button', { name: 'Confirm campaign' }))

    await waitFor(() => expect(router.state.location.pathname).toBe('/campaigns/success/submitted'))
    expect(await screen.findByRole('heading', { name: 'Your campaign is active' })).toBeInTheDocument()
    expect(screen.queryByText(/pending payment|confirming the payment/i)).not.toBeInTheDocument()
    expect(body?.weekly_budget).toBe(0)
  })

  it('asks for the card when the server’s quote says one is needed', async () => {
    server({ 'POST /api/campaigns/quote': { body: { card_required: true } } }, { card: false, credit: 500 })
    const { store } = renderApp('/campaigns/new', advertiser())
    const user = userEvent.setup()
    await chooseMarketAndFace(user)
    await user.click(screen.getByRole('button', { name: 'Review and confirm' }))
    expect((await screen.findAllByText(MsgCardRequired)).length).toBeGreaterThan(0)
    expect(selectFlashes(store.getState()).find((f) => f.text === MsgCardRequired)?.duration).toBe(600000)
    expect(screen.queryByRole('dialog', { name: 'Review and confirm' })).not.toBeInTheDocument()
  })

  it('keeps the pending-payment page for a campaign a card pays', async () => {
    server({ 'POST /api/campaigns': { status: 201, body: { success: true, message: MsgCreated, campaign: { id: 'c1', status: 'pending' } } } })
    renderApp('/campaigns/new', advertiser())
    const user = userEvent.setup()
    await chooseMarketAndFace(user)
    await user.click(within(await review(user)).getByRole('button', { name: 'Confirm campaign' }))
    expect(await screen.findByRole('heading', { name: 'Your campaign is submitted' })).toBeInTheDocument()
    expect(screen.getByText(/confirming the payment/)).toBeInTheDocument()
  })
})

describe('a promo redeemed in the flow (B §3 promo_code, B §9 spendable budget)', () => {
  it('shows the spendable budget and sends promo_code {value} with the form', async () => {
    let credit = 0
    let body: CampaignFormBody | undefined
    server({
      'GET /companies/currentCompany': () => ({ body: { account_credit: credit } }),
      'POST /api/promo/': () => {
        credit = 50
        return { body: { success: true, message: 'Promo redeemed.', amount: 50 } }
      },
      'POST /api/campaigns': (req) => {
        body = req.body as CampaignFormBody
        return { status: 201, body: { success: true, message: MsgCreated, campaign: { id: 'c1', status: 'pending' } } }
      },
    })
    renderApp('/campaigns/new', advertiser())
    const user = userEvent.setup()
    await chooseMarketAndFace(user)
    expect(screen.getByTestId('spendable-budget')).toHaveTextContent('$500')

    await user.click(screen.getByRole('button', { name: 'Redeem a promo code' }))
    const promo = await screen.findByRole('dialog', { name: 'Redeem a promo code' })
    await user.type(within(promo).getByLabelText('Promo code'), 'spring50')
    await user.click(within(promo).getByRole('button', { name: 'Redeem' }))
    await user.click(await within(promo).findByRole('button', { name: 'Done' }))

    // $500 face, $50 of credit: the card pays $450, the promo adds its $50 back to what is spent.
    await waitFor(() => expect(screen.getByTestId('weekly-budget')).toHaveTextContent('$450'))
    expect(screen.getByTestId('spendable-budget')).toHaveTextContent('$500')
    expect(screen.getByText('Promo SPRING50 of $50 added to your credit')).toBeInTheDocument()

    const dialog = await review(user)
    expect(within(dialog).getByText('SPRING50')).toBeInTheDocument()
    await user.click(within(dialog).getByRole('button', { name: 'Confirm campaign' }))
    await waitFor(() => expect(body).toBeDefined())
    expect(body?.promo_code).toEqual({ value: 'SPRING50' })
  })

  it('sends no promo_code when none was redeemed', async () => {
    let body: CampaignFormBody | undefined
    server({
      'POST /api/campaigns': (req) => {
        body = req.body as CampaignFormBody
        return { status: 201, body: { success: true, message: MsgCreated } }
      },
    })
    renderApp('/campaigns/new', advertiser())
    const user = userEvent.setup()
    await chooseMarketAndFace(user)
    await user.click(within(await review(user)).getByRole('button', { name: 'Confirm campaign' }))
    await waitFor(() => expect(body).toBeDefined())
    expect(body).not.toHaveProperty('promo_code')
  })
})
