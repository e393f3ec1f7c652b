import { useCallback } from 'react'
import { useDispatch } from 'react-redux'
import { flashShown, FLASH_MEDIUM_MS } from '../../../platform/flash/flash'
import { errorMessage } from '../../../platform/http'
import { useRetryPaymentMutation } from './api'

/**
 * Processes a transaction's payment again (PUT /api/transactions/{id}). B §8: a failed payment
 * shows the gateway's message for 5000 ms. Resolves to true when the payment went through.
 */
export function usePaymentRetry() {
  const [retry, state] = useRetryPaymentMutation()
  const dispatch = useDispatch()
  const retryPayment = useCallback(
    async (transactionId: string): Promise<boolean> => {
      try {
        await retry(transactionId).unwrap()
        return true
      } catch (error) {
        dispatch(flashShown(errorMessage(error), 'danger', FLASH_MEDIUM_MS))
        return false
      }
    },
    [retry, dispatch],
  )
  return { retryPayment, isRetrying: state.isLoading }
}
