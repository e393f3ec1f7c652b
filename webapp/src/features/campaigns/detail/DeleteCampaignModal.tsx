import { useId, useState } from 'react'
import Modal from '../../../platform/Modal'

/** The longest reason the form takes. */
export const REASON_MAX = 500

export interface DeleteCampaignModalProps {
  open: boolean
  campaignName: string
  busy: boolean
  onCancel: () => void
  onDelete: (reason: string, refund: boolean) => void
}

/**
 * B §2: the delete-campaign modal asks for a reason and a refund flag (B §3). The spec leaves the
 * reason optional: an empty one is sent as "".
 */
export default function DeleteCampaignModal({ open, campaignName, busy, onCancel, onDelete }: DeleteCampaignModalProps) {
  const [reason, setReason] = useState('')
  const [refund, setRefund] = useState(true)
  const id = useId()

  const close = () => {
    setReason('')
    setRefund(true)
    onCancel()
  }

  const submit = () => onDelete(reason.trim(), refund)

  return (
    <Modal
      open={open}
      title="Delete campaign"
      onClose={close}
      closeOnBackdrop={false}
      description={`“${campaignName}” will be removed from your campaigns and its billboard weeks that have not started are released.`}
      footer={
        <>
          <button type="button" className="btn-secondary" onClick={close} disabled={busy}>
            Keep campaign
          </button>
          <button type="submit" form={`${id}-form`} className="btn-danger" disabled={busy}>
            {busy ? 'Deleting…' : 'Delete campaign'}
          </button>
        </>
      }
    >
      <form
        id={`${id}-form`}
        noValidate
        className="space-y-4"
        onSubmit={(e) => {
          e.preventDefault()
          submit()
        }}
      >
        <div className="space-y-1.5">
          <label htmlFor={`${id}-reason`} className="block text-sm font-medium text-slate-700">
            Reason <span className="font-normal text-slate-500">(optional)</span>
          </label>
          <textarea
            id={`${id}-reason`}
            className="field-input min-h-24"
            maxLength={REASON_MAX}
            value={reason}
            aria-describedby={`${id}-reason-count`}
            onChange={(e) => setReason(e.target.value)}
          />
          <div className="flex justify-end text-xs">
            <span id={`${id}-reason-count`} className="text-slate-500">
              {reason.length}/{REASON_MAX}
            </span>
          </div>
        </div>
        <label className="flex items-start gap-3 text-sm text-slate-700">
          <input type="checkbox" className="mt-0.5 h-4 w-4 accent-brand-700" checked={refund} onChange={(e) => setRefund(e.target.checked)} />
          <span>
            Refund the weeks that have not started
            <span className="block text-slate-500">What was charged for them goes back to your card.</span>
          </span>
        </label>
      </form>
    </Modal>
  )
}
