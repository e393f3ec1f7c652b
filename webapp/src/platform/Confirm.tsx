import { useRef } from 'react'
import Modal from './Modal'

/**
 * B §8: "a default confirm offering a call for a free dashboard tour". A Confirm given no title
 * is that one, with these words.
 */
export const DEFAULT_CONFIRM = {
  title: 'A free tour of your dashboard',
  message: 'Would you like a call from our team? We will walk you through your dashboard and your first campaign, free of charge.',
  confirmText: 'Yes, call me',
  cancelText: 'No, thanks',
}

export interface ConfirmProps {
  open: boolean
  /** Without a title, the default confirm of B §8 (DEFAULT_CONFIRM). */
  title?: string
  message?: string
  /** The confirm button's text (A §2: optional confirm text). */
  confirmText?: string
  cancelText?: string
  tone?: 'primary' | 'danger'
  busy?: boolean
  onConfirm: () => void
  onCancel: () => void
}

/** The confirm dialog of A §2: a title, a message and an optional confirm text. */
export default function Confirm(props: ConfirmProps) {
  const isDefault = props.title === undefined
  const {
    open,
    title = DEFAULT_CONFIRM.title,
    message = isDefault ? DEFAULT_CONFIRM.message : '',
    confirmText = isDefault ? DEFAULT_CONFIRM.confirmText : 'Confirm',
    cancelText = isDefault ? DEFAULT_CONFIRM.cancelText : 'Cancel',
    tone = 'primary',
    busy = false,
    onConfirm,
    onCancel,
  } = props
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
