import type { FormEvent, ReactNode, RefObject } from 'react'
import Alert from '../../../platform/Alert'
import Modal from '../../../platform/Modal'

export interface FormModalProps {
  title: string
  formId: string
  submitLabel: string
  busy: boolean
  failure: string | null
  formRef: RefObject<HTMLFormElement | null>
  onSubmit: (event: FormEvent) => void
  onClose: () => void
  children: ReactNode
}

/** The content modals' frame: a form in a large dialog, its failure on top, Cancel and submit below. */
export default function FormModal({ title, formId, submitLabel, busy, failure, formRef, onSubmit, onClose, children }: FormModalProps) {
  return (
    <Modal
      open
      title={title}
      onClose={onClose}
      size="lg"
      closeOnBackdrop={false}
      footer={
        <>
          <button type="button" className="btn-secondary" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" form={formId} className="btn-primary" disabled={busy}>
            {busy ? 'Saving…' : submitLabel}
          </button>
        </>
      }
    >
      <form id={formId} ref={formRef} noValidate onSubmit={onSubmit} className="space-y-5">
        {failure && <Alert>{failure}</Alert>}
        {children}
      </form>
    </Modal>
  )
}
