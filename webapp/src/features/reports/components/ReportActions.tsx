import { useState } from 'react'
import { useDispatch } from 'react-redux'
import { Link } from 'react-router'
import { ConfirmRemove, MsgRemoveFailed, MsgRemoved, type Report } from '../../../platform/api-types/reports'
import Confirm from '../../../platform/Confirm'
import { FLASH_MEDIUM_MS, flashShown } from '../../../platform/flash/flash'
import { useRemoveReportMutation } from '../api'
import MailerDialog from './MailerDialog'

export interface ReportActionsProps {
  /** The report the grid's radio button selected, or null (the actions are then disabled). */
  selected: Report | null
  /** Where a report opens: /reports or /admin/reports. */
  base: string
  /** Admins also email the advertiser (B §2 'new report mailer'). */
  admin?: boolean
  onRemoved: () => void
}

/**
 * What the report grid's selection acts on (B §2: the admin list had radio buttons and
 * no action): open, download the PDF, email the advertiser (admins), and remove after a confirm.
 */
export default function ReportActions({ selected, base, admin = false, onRemoved }: ReportActionsProps) {
  const [confirming, setConfirming] = useState(false)
  const [mailing, setMailing] = useState(false)
  const [remove, removing] = useRemoveReportMutation()
  const dispatch = useDispatch()

  const onRemove = async () => {
    if (!selected) return
    try {
      await remove(selected.id).unwrap()
      onRemoved()
      dispatch(flashShown(MsgRemoved, 'success', FLASH_MEDIUM_MS))
    } catch {
      // B §8: a removal that fails says this, whatever the cause.
      dispatch(flashShown(MsgRemoveFailed, 'danger', FLASH_MEDIUM_MS))
    } finally {
      setConfirming(false)
    }
  }

  const disabledLink = 'pointer-events-none opacity-50'
  return (
    <>
      <div className="flex flex-wrap items-center justify-end gap-2" role="toolbar" aria-label="Selected report">
        {!selected && <span className="mr-auto text-sm text-slate-600">Select a report to act on it.</span>}
        {selected && (
          <span className="mr-auto min-w-0 truncate text-sm text-slate-600" aria-live="polite">
            Selected: <span className="font-medium text-slate-900">{selected.name}</span>
          </span>
        )}
        <Link
          to={selected ? `${base}/${encodeURIComponent(selected.id)}` : base}
          className={`btn-secondary ${selected ? '' : disabledLink}`}
          aria-disabled={!selected || undefined}
          tabIndex={selected ? undefined : -1}
        >
          Open
        </Link>
        <a
          href={selected ? `${selected.url}?download=1` : undefined}
          download={selected?.filename}
          className={`btn-secondary ${selected ? '' : disabledLink}`}
          aria-disabled={!selected || undefined}
          tabIndex={selected ? undefined : -1}
        >
          Download PDF
        </a>
        {admin && (
          <button type="button" className="btn-secondary" disabled={!selected} onClick={() => setMailing(true)}>
            Email the advertiser
          </button>
        )}
        <button type="button" className="btn-danger" disabled={!selected} onClick={() => setConfirming(true)}>
          Remove report
        </button>
      </div>
      <Confirm
        open={confirming}
        title="Remove report"
        message={ConfirmRemove}
        confirmText="Remove report"
        cancelText="Keep it"
        tone="danger"
        busy={removing.isLoading}
        onConfirm={onRemove}
        onCancel={() => setConfirming(false)}
      />
      {admin && <MailerDialog reportId={mailing && selected ? selected.id : null} campaignName={selected?.campaign_name ?? ''} onClose={() => setMailing(false)} />}
    </>
  )
}
