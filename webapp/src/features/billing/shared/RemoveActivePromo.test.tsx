import { configure, render, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { Provider } from 'react-redux'
import { describe, expect, it } from 'vitest'
import { makeStore } from '../../../app/store'
import { MsgActivePromoGone, MsgNoActivePromo } from '../../../platform/api-types/billing'
import { selectFlashes } from '../../../platform/flash/flash'
import { mockFetch } from '../../../test/fetch'
import RemoveActivePromo from './RemoveActivePromo'

// The screens load lazily and the machine may be busy: wait longer than the 1 s default.
configure({ asyncUtilTimeout: 5000 })

async function removeFor(companyId: string) {
  const store = makeStore()
  const user = userEvent.setup()
  render(
    <Provider store={store}>
      <RemoveActivePromo companyId={companyId} companyName="Acme" />
    </Provider>,
  )
  await user.click(screen.getByRole('button', { name: 'Remove active promo' }))
  const confirm = await screen.findByRole('dialog', { name: 'Remove active promo' })
  await user.click(within(confirm).getByRole('button', { name: 'Remove promo' }))
  return store
}

describe('RemoveActivePromo (B §2, §8)', () => {
  it("says 'Active promo removed'", async () => {
    const server = mockFetch({ 'DELETE /api/admin/companies/c1/promo': { body: { success: true, message: MsgActivePromoGone } } })
    const store = await removeFor('c1')
    await screen.findByRole('button', { name: 'Remove active promo' })
    expect(server.called('DELETE', '/api/admin/companies/c1/promo')).toHaveLength(1)
    expect(selectFlashes(store.getState())).toMatchObject([{ text: 'Active promo removed', type: 'success' }])
  })

  it('shows what the server answered on failure', async () => {
    mockFetch({ 'DELETE /api/admin/companies/c2/promo': { status: 404, body: { success: false, message: MsgNoActivePromo } } })
    const store = await removeFor('c2')
    await screen.findByRole('button', { name: 'Remove active promo' })
    expect(selectFlashes(store.getState())).toMatchObject([{ text: MsgNoActivePromo, type: 'danger' }])
  })
})
