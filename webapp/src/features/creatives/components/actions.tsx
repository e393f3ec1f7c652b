import { useState } from 'react'
import { useDispatch } from 'react-redux'
import Confirm from '../../../platform/Confirm'
import { flashShown } from '../../../platform/flash/flash'
import { errorMessage } from '../../../platform/http'

/** Runs a list action and reports it with a flash: its success text, or the server's message. */
export function useFlashedAction() {
  const dispatch = useDispatch()
  return async (action: () => Promise<unknown>, success: string) => {
    try {
      await action()
      dispatch(flashShown(success, 'success'))
    } catch (error) {
      dispatch(flashShown(errorMessage(error), 'danger'))
    }
  }
}

/**
 * A delete that waits for the user's yes (A §8 confirmations): `ask(item)` opens the dialog, and
 * the dialog's Delete runs `remove` and flashes the outcome.
 */
export function useConfirmedDelete<T extends { id: string; name: string }>(options: {
  title: string
  message: string
  remove: (id: string) => Promise<unknown>
  deleted: (item: T) => string
}) {
  const [pending, setPending] = useState<T | null>(null)
  const [busy, setBusy] = useState(false)
  const run = useFlashedAction()

  const confirm = async () => {
    if (!pending) return
    setBusy(true)
    await run(() => options.remove(pending.id), options.deleted(pending))
    setBusy(false)
    setPending(null)
  }

  const dialog = (
    <Confirm
      open={pending !== null}
      title={options.title}
      message={options.message}
      confirmText="Delete"
      tone="danger"
      busy={busy}
      onConfirm={() => void confirm()}
      onCancel={() => setPending(null)}
    />
  )
  return { ask: setPending, dialog }
}
