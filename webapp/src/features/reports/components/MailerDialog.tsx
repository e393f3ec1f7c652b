import { useState } from 'react'
import { useDispatch } from 'react-redux'
import Alert from '../../../platform/Alert'
import { MsgMailerSent } from '../../../platform/api-types/reports'
import { flashShown } from '../../../platform/flash/flash'
import { errorMessage } from '../../../platform/http'
import Modal from '../../../platform/Modal'
import { useSendReportMailerMutation } from '../api'

/** The 'new report mailer' (B §2): offers to email the report's advertiser a link to it. */
export default function MailerDialog({ reportId, campaignName, onClose }: { reportId: string | null; campaignName: string; onClose: () => void }) {
  const [message, setMessage] = useState('')
  const [error, setError] = useState<string | null>(null)
  const [send, sending] = useSendReportMailerMutation()
  const dispatch = useDispatch()

  const onSend = async () => {
    if (!reportId) return
    setError(null)
    try {
      await send({ report_id: reportId, message: message.trim() }).unwrap()
      dispatch(flashShown(MsgMailerSent, 'success'))
      onClose()
    } catch (err) {
      setError(errorMessage(err))
    }
  }

  return (
    <Modal
      open={reportId !== null}
      title="New report mailer"
      description={`Email the advertiser of ${campaignName} that their report is ready, with a link to it.`}
      onClose={onClose}
      footer={
        <>
          <button type="button" className="btn-secondary" onClick={onClose} disabled={sending.isLoading}>
            Not now
          </button>
          <button type="button" className="btn-primary" onClick={onSend} disabled={sending.isLoading}>
            {sending.isLoading ? 'Sending…' : 'Email the advertiser'}
          </button>
        </>
      }
    >
      <div className="space-y-3">
        <label htmlFor="mailer-message" className="block text-sm font-medium text-slate-700">
          A note for the advertiser <span className="font-normal text-slate-500">(optional)</span>
        </label>
        <textarea id="mailer-message" className="field-input" rows={4} maxLength={2000} value={message} onChange={(e) => setMessage(e.target.value)} />
        {error && <Alert>{error}</Alert>}
      </div>
    </Modal>
  )
}
