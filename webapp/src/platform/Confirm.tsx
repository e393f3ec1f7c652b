import { useRef } from 'react'
import Modal from './Modal'

export interface ConfirmProps {
  open: boolean
  title: string
  message: string
  /** The confirm button's text (A §2: optional confirm text). */
  confirmText?: string
  cancelText?: string
  tone?: 'primary' | 'danger'
  busy?: boolean
  onConfirm: () => void
  onCancel: () => void
}

/** The confirm dialog of A §2: a title, a message and an optional confirm text. */
export default function Confirm({
  open,
  title,
  message,
  confirmText = 'Confirm',
  cancelText = 'Cancel',
  tone = 'primary',
  busy = false,
  onConfirm,
  onCancel,
}: ConfirmProps) {
  const cancel = useRef<HTMLButtonElement>(null)
  return (
    <Modal
      open={open}
      title={title}
      onClose={onCancel}
      size="sm"
      initialFocus={cancel}
      footer={
        <>
          <button ref={cancel} type="button" className="btn-secondary" onClick={onCancel} disabled={busy}>
            {cancelText}
          </button>
          <button type="button" className={tone === 'danger' ? 'btn-danger' : 'btn-primary'} onClick={onConfirm} disabled={busy}>
            {confirmText}
          </button>
        </>
      }
    >
      <p className="text-slate-700">{message}</p>
    </Modal>
  )
}
