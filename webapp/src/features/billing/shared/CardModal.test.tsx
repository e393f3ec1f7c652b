import { configure, render, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { Provider } from 'react-redux'
import { describe, expect, it, vi } from 'vitest'
import { makeStore } from '../../../app/store'
import { mockFetch } from '../../../test/fetch'
import { selectFlashes } from '../../../platform/flash/flash'
import CardModal from './CardModal'

// The screens load lazily and the machine may be busy: wait longer than the 1 s default.
configure({ asyncUtilTimeout: 5000 })

const visa = { id: 'card-1', brand: 'Visa', last4: '4242', exp_month: 3, exp_year: 2031, masked: 'xxxx-xxxx-xxxx-4242' }

describe('CardModal in the campaign flow (B §2, §8)', () => {
  it('hands the card back and uses the flow wording', async () => {
    mockFetch({
      'GET /api/billing/config': { body: { gateway: 'sandbox' } },
      'POST /api/sandbox/tokens': { body: { id: 'tok_1', card: { brand: 'Visa', last4: '4242', exp_month: 3, exp_year: 2031 } } },
      'POST /api/cards': { status: 201, body: { success: true, message: 'Your card has been added successfully.', card: visa } },
    })
    const store = makeStore()
    const onCardAdded = vi.fn()
    const onClose = vi.fn()
    const user = userEvent.setup()
    render(
      <Provider store={store}>
        <CardModal open inCampaignFlow onCardAdded={onCardAdded} onClose={onClose} today={new Date(2026, 0, 15)} />
      </Provider>,
    )
    const dialog = await screen.findByRole('dialog', { name: 'Add a payment card' })
    await within(dialog).findByLabelText('Card number')
    const years = within(dialog).getAllByRole('option').map((o) => o.textContent)
    expect(years).toContain('2026')
    expect(years).toContain('2035')
    expect(years).not.toContain('2036')
    await user.type(within(dialog).getByLabelText('Card number'), '4242424242424242')
    await user.selectOptions(within(dialog).getByLabelText('Month'), '3')
    await user.selectOptions(within(dialog).getByLabelText('Year'), '2031')
    await user.type(within(dialog).getByLabelText('Security code'), '123')
    await user.click(within(dialog).getByRole('button', { name: 'Add card' }))
    await waitFor(() => expect(onCardAdded).toHaveBeenCalledWith(visa))
    expect(onClose).toHaveBeenCalled()
    expect(selectFlashes(store.getState()).map((f) => f.text)).toEqual(['Your ad was successfully uploaded'])
  })

  it('marks the expiry and code fields and focuses the first one', async () => {
    mockFetch({ 'GET /api/billing/config': { body: { gateway: 'sandbox' } } })
    const user = userEvent.setup()
    render(
      <Provider store={makeStore()}>
        <CardModal open onClose={() => {}} today={new Date(2026, 0, 15)} />
      </Provider>,
    )
    const dialog = await screen.findByRole('dialog', { name: 'Add a payment card' })
    await user.type(await within(dialog).findByLabelText('Card number'), '4242424242424242')
    await user.click(within(dialog).getByRole('button', { name: 'Add card' }))
    expect(within(dialog).getByText('Please confirm the Month/Year and CVC are accurate and try again')).toBeInTheDocument()
    expect(within(dialog).getByLabelText('Month')).toHaveAttribute('aria-invalid', 'true')
    expect(within(dialog).getByLabelText('Security code')).toHaveAttribute('aria-invalid', 'true')
    await waitFor(() => expect(within(dialog).getByLabelText('Month')).toHaveFocus())
  })
})
