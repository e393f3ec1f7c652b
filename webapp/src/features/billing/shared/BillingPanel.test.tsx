import { configure, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { GatewayMsgDeclined, GatewayMsgIncorrectNumber, MsgCardAdded, MsgCardRemoved, MsgPromoNotFound, MsgPromoRedeemed } from '../../../platform/api-types/billing'
import { mockFetch, type FakeRoute } from '../../../test/fetch'
import { renderApp } from '../../../test/renderApp'
import { makeUser, signedInSession } from '../../../test/users'

// The screens load lazily and the machine may be busy: wait longer than the 1 s default.
configure({ asyncUtilTimeout: 5000 })

const visa = { id: 'card-1', brand: 'Visa', last4: '4242', exp_month: 12, exp_year: 2030, masked: 'xxxx-xxxx-xxxx-4242' }
const sandbox: Record<string, FakeRoute> = {
  'GET /api/billing/config': { body: { gateway: 'sandbox' } },
  'GET /companies/currentCompany': { body: { id: 'c1', name: 'Acme', type: 'standard', status: 'active', user_count: 1, createdAt: '2026-01-01T00:00:00Z', account_credit: 150.75 } },
}
const noCard: FakeRoute = { status: 404, body: { success: false, message: 'Card not found.' } }

async function openBillingTab() {
  const user = userEvent.setup()
  renderApp('/settings', { session: signedInSession(makeUser()) })
  await user.click(await screen.findByRole('tab', { name: 'Card and credit' }))
  return user
}

async function typeCard(user: ReturnType<typeof userEvent.setup>, number: string) {
  const dialog = await screen.findByRole('dialog', { name: 'Add a payment card' })
  await user.type(await within(dialog).findByLabelText('Card number'), number)
  await user.selectOptions(within(dialog).getByLabelText('Month'), '12')
  await user.selectOptions(within(dialog).getByLabelText('Year'), String(new Date().getFullYear() + 2))
  await user.type(within(dialog).getByLabelText('Security code'), '123')
  return dialog
}

describe('settings: card and credit (B §2)', () => {
  it('shows the card masked, with its expiry, and the credit without cents', async () => {
    mockFetch({ ...sandbox, 'GET /api/cards/me': { body: visa } })
    await openBillingTab()
    expect(await screen.findByText('xxxx-xxxx-xxxx-4242')).toBeInTheDocument()
    expect(screen.getByTestId('masked-card').nextElementSibling).toHaveTextContent('Visa · expires 12/2030')
    expect(await screen.findByTestId('account-credit')).toHaveTextContent('$150')
  })

  it('opens on the card and credit tab from /settings?tab=billing, and keeps the tab in the address', async () => {
    mockFetch({ ...sandbox, 'GET /api/cards/me': { body: visa } })
    const user = userEvent.setup()
    const app = renderApp('/settings?tab=billing', { session: signedInSession(makeUser()) })
    expect(await screen.findByText('xxxx-xxxx-xxxx-4242')).toBeInTheDocument()
    await user.click(screen.getByRole('tab', { name: 'Preferences' }))
    expect(app.router.state.location.search).toBe('')
    await user.click(screen.getByRole('tab', { name: 'Card and credit' }))
    expect(app.router.state.location.search).toBe('?tab=billing')
  })

  it('tokenises the card, sends only the token, and shows the new card', async () => {
    let card: unknown = null
    const server = mockFetch({
      ...sandbox,
      'GET /api/cards/me': () => (card ? { body: card } : noCard),
      'POST /api/sandbox/tokens': { body: { id: 'tok_abc', card: { brand: 'Visa', last4: '4242', exp_month: 12, exp_year: 2030 } } },
      'POST /api/cards': () => {
        card = visa
        return { status: 201, body: { success: true, message: MsgCardAdded, card: visa } }
      },
    })
    const user = await openBillingTab()
    await user.click(await screen.findByRole('button', { name: 'Add card' }))
    const dialog = await typeCard(user, '4242424242424242')
    expect(within(dialog).getByLabelText('Card number')).toHaveValue('4242 4242 4242 4242')
    await user.click(within(dialog).getByRole('button', { name: 'Add card' }))
    expect(await screen.findByText('Your card has been added successfully.')).toBeInTheDocument()
    expect(await screen.findByText('xxxx-xxxx-xxxx-4242')).toBeInTheDocument()
    expect(server.called('POST', '/api/sandbox/tokens')[0]!.body).toMatchObject({ number: '4242424242424242', exp_month: 12, cvc: '123' })
    expect(server.called('POST', '/api/cards')[0]!.body).toEqual({ token: 'tok_abc', exp_month: 12, exp_year: 2030 })
    expect(JSON.stringify(server.called('POST', '/api/cards')[0]!.body)).not.toContain('4242424242424242')
  })

  it('checks the number with Luhn before anything is sent, and focuses it', async () => {
    const server = mockFetch({ ...sandbox, 'GET /api/cards/me': noCard })
    const user = await openBillingTab()
    await user.click(await screen.findByRole('button', { name: 'Add card' }))
    const dialog = await typeCard(user, '4242424242424241')
    await user.click(within(dialog).getByRole('button', { name: 'Add card' }))
    expect(await within(dialog).findByText('Please confirm the Card Number is accurate and try again')).toBeInTheDocument()
    await waitFor(() => expect(within(dialog).getByLabelText('Card number')).toHaveFocus())
    expect(server.called('POST', '/api/sandbox/tokens')).toHaveLength(0)
  })

  it("maps the gateway's wrong-number error and any other card error to the spec's messages", async () => {
    let tokenAnswer: FakeRoute = { status: 402, body: { success: false, message: GatewayMsgIncorrectNumber, code: 'incorrect_number' } }
    mockFetch({
      ...sandbox,
      'GET /api/cards/me': noCard,
      'POST /api/sandbox/tokens': () => tokenAnswer as { status: number; body: unknown },
      'POST /api/cards': { status: 402, body: { success: false, message: GatewayMsgDeclined, code: 'card_declined' } },
    })
    const user = await openBillingTab()
    await user.click(await screen.findByRole('button', { name: 'Add card' }))
    const dialog = await typeCard(user, '4242424242424242')
    await user.click(within(dialog).getByRole('button', { name: 'Add card' }))
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Please confirm the Card Number is accurate and try again')

    tokenAnswer = { body: { id: 'tok_declined', card: { brand: 'Visa', last4: '0002', exp_month: 12, exp_year: 2030 } } }
    await user.click(within(dialog).getByRole('button', { name: 'Add card' }))
    await waitFor(() => expect(within(dialog).getByRole('alert')).toHaveTextContent('Please confirm the Month/Year and CVC are accurate and try again'))
    expect(screen.getByRole('dialog', { name: 'Add a payment card' })).toBeInTheDocument()
  })

  it('removes the card after a confirmation', async () => {
    let card: unknown = visa
    const server = mockFetch({
      ...sandbox,
      'GET /api/cards/me': () => (card ? { body: card } : noCard),
      'DELETE /api/cards/me': () => {
        card = null
        return { body: { success: true, message: MsgCardRemoved } }
      },
    })
    const user = await openBillingTab()
    await user.click(await screen.findByRole('button', { name: 'Remove card' }))
    const confirm = await screen.findByRole('dialog', { name: 'Remove card' })
    expect(server.called('DELETE', '/api/cards/me')).toHaveLength(0)
    await user.click(within(confirm).getByRole('button', { name: 'Remove card' }))
    expect(await screen.findByText(MsgCardRemoved)).toBeInTheDocument()
    expect(await screen.findByText(/No card on file yet/)).toBeInTheDocument()
  })
})

describe('promo redeem modal (B §2, §7, §8)', () => {
  it('refuses whitespace, disables the button during the call, and shows the amount added', async () => {
    let credit = 10
    let release: () => void = () => {}
    const server = mockFetch({
      ...sandbox,
      'GET /api/cards/me': noCard,
      'GET /companies/currentCompany': () => ({ body: { id: 'c1', name: 'Acme', account_credit: credit } }),
      'POST /api/promo/': () =>
        new Promise((resolve) => {
          release = () => {
            credit = 60
            resolve({ body: { success: true, message: MsgPromoRedeemed, amount: 50 } })
          }
        }),
    })
    const user = await openBillingTab()
    expect(await screen.findByTestId('account-credit')).toHaveTextContent('$10')
    await user.click(screen.getByRole('button', { name: 'Redeem a promo code' }))
    const dialog = await screen.findByRole('dialog', { name: 'Redeem a promo code' })
    await user.type(within(dialog).getByLabelText('Promo code'), 'SPRING 50')
    expect(within(dialog).getByLabelText('Promo code')).toHaveValue('SPRING50')
    await user.click(within(dialog).getByRole('button', { name: 'Redeem' }))
    await waitFor(() => expect(within(dialog).getByRole('button', { name: 'Redeeming…' })).toBeDisabled())
    release()
    expect(await within(dialog).findByText(MsgPromoRedeemed)).toBeInTheDocument()
    expect(within(dialog).getByText('$50 added to your account credit.')).toBeInTheDocument()
    expect(server.called('POST', '/api/promo/')[0]!.body).toEqual({ code: 'SPRING50' })
    await user.click(within(dialog).getByRole('button', { name: 'Done' }))
    await waitFor(() => expect(screen.getByTestId('account-credit')).toHaveTextContent('$60'))
  })

  it("requires a code, and keeps 'Sorry! ' plus the server message in the modal", async () => {
    const server = mockFetch({ ...sandbox, 'GET /api/cards/me': noCard, 'POST /api/promo/': { status: 404, body: { success: false, message: MsgPromoNotFound } } })
    const user = await openBillingTab()
    await user.click(await screen.findByRole('button', { name: 'Redeem a promo code' }))
    const dialog = await screen.findByRole('dialog', { name: 'Redeem a promo code' })
    await user.click(within(dialog).getByRole('button', { name: 'Redeem' }))
    expect(within(dialog).getByText('Please enter a promo code')).toBeInTheDocument()
    expect(server.called('POST', '/api/promo/')).toHaveLength(0)
    await user.type(within(dialog).getByLabelText('Promo code'), 'NOPE')
    await user.click(within(dialog).getByRole('button', { name: 'Redeem' }))
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(`Sorry! ${MsgPromoNotFound}`)
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(within(dialog).getByRole('alert')).toHaveTextContent(`Sorry! ${MsgPromoNotFound}`)
  })
})
