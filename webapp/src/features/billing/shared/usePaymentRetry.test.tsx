import { act, renderHook } from '@testing-library/react'
import type { ReactNode } from 'react'
import { Provider } from 'react-redux'
import { describe, expect, it } from 'vitest'
import { makeStore } from '../../../app/store'
import { mockFetch } from '../../../test/fetch'
import { FLASH_MEDIUM_MS, selectFlashes } from '../../../platform/flash/flash'
import { usePaymentRetry } from './usePaymentRetry'

describe('usePaymentRetry (B §8: a failed payment shows the server message for 5000 ms)', () => {
  it("flashes the gateway's message for 5000 ms", async () => {
    const server = mockFetch({ 'PUT /api/transactions/tx-1': { status: 402, body: { success: false, message: 'Your card was declined.', code: 'card_declined' } } })
    const store = makeStore()
    const wrapper = ({ children }: { children: ReactNode }) => <Provider store={store}>{children}</Provider>
    const { result } = renderHook(() => usePaymentRetry(), { wrapper })
    let ok = true
    await act(async () => {
      ok = await result.current.retryPayment('tx-1')
    })
    expect(ok).toBe(false)
    expect(server.called('PUT', '/api/transactions/tx-1')).toHaveLength(1)
    expect(selectFlashes(store.getState())).toMatchObject([{ text: 'Your card was declined.', type: 'danger', duration: FLASH_MEDIUM_MS }])
  })

  it('resolves true when the payment goes through', async () => {
    mockFetch({ 'PUT /api/transactions/tx-2': { body: { id: 'tx-2', status: 'succeeded' } } })
    const store = makeStore()
    const wrapper = ({ children }: { children: ReactNode }) => <Provider store={store}>{children}</Provider>
    const { result } = renderHook(() => usePaymentRetry(), { wrapper })
    let ok = false
    await act(async () => {
      ok = await result.current.retryPayment('tx-2')
    })
    expect(ok).toBe(true)
    expect(selectFlashes(store.getState())).toEqual([])
  })
})
