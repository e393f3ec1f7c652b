import { useState } from 'react'
import { useDispatch } from 'react-redux'
import { MsgActivePromoGone } from '../../../platform/api-types/billing'
import Confirm from '../../../platform/Confirm'
import { flashShown } from '../../../platform/flash/flash'
import { errorMessage } from '../../../platform/http'
import { useRemoveActivePromoMutation } from './api'

/**
 * B §2 /admin/companies (in platform: the identity feature's company grid shows it, billing owns the call): an admin removes a company's active promo. Success says 'Active promo
 * removed'; a failure shows what the server answered (B §8).
 */
export default function RemoveActivePromo({
  companyId,
  companyName,
  disabled = false,
  onNoCompany,
}: {
  companyId: string | null
  companyName?: string
  disabled?: boolean
  /** Called instead of asking when no company is selected (B §5: 'You first must select a Company'). */
  onNoCompany?: () => void
}) {
  const [confirming, setConfirming] = useState(false)
  const [remove, { isLoading }] = useRemoveActivePromoMutation()
  const dispatch = useDispatch()

  const onConfirm = async () => {
    if (!companyId) return
    try {
      const answer = await remove(companyId).unwrap()
      dispatch(flashShown(answer.message || MsgActivePromoGone, 'success'))
    } catch (error) {
      dispatch(flashShown(errorMessage(error), 'danger'))
    } finally {
      setConfirming(false)
    }
  }

  return (
    <>
      <button type="button" className="btn-secondary" disabled={disabled || (!companyId && !onNoCompany) || isLoading} onClick={() => (companyId ? setConfirming(true) : onNoCompany?.())}>
        Remove active promo
      </button>
      <Confirm
        open={confirming}
        title="Remove active promo"
        message={`Are you sure you want to remove the active promo of ${companyName ?? 'this company'}?`}
        confirmText="Remove promo"
        tone="danger"
        busy={isLoading}
        onConfirm={onConfirm}
        onCancel={() => setConfirming(false)}
      />
    </>
  )
}
