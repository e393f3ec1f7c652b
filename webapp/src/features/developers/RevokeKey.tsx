import { useState, type ReactNode } from 'react'
import { useDispatch } from 'react-redux'
import type { APIKey } from '../../platform/api-types/identity'
import Confirm from '../../platform/Confirm'
import { flashShown } from '../../platform/flash/flash'
import { errorMessage } from '../../platform/http'

/**
 * Revoking an API key after a confirmation, and the toast that says how it went: the company's own
 * keys (Settings → API) and every company's (/admin/api-keys) share it; only the words differ.
 */
export function useRevokeKey({
  revoke,
  busy,
  warning,
  done,
}: {
  revoke: (id: string) => { unwrap: () => Promise<unknown> }
  busy: boolean
  /** The confirmation's message for this key. */
  warning: (key: APIKey) => string
  /** The success toast for this key. */
  done: (key: APIKey) => string
}): { ask: (key: APIKey) => void; dialog: ReactNode } {
  const dispatch = useDispatch()
  const [target, setTarget] = useState<APIKey | null>(null)
  const confirm = async () => {
    if (!target) return
    try {
      await revoke(target.id).unwrap()
      dispatch(flashShown(done(target), 'success', 4000))
    } catch (error) {
      dispatch(flashShown(`Sorry! ${errorMessage(error)}`, 'danger'))
    }
    setTarget(null)
  }
  const dialog = (
    <Confirm
      open={target !== null}
      title="Revoke this API key?"
      message={target ? warning(target) : ''}
      confirmText="Revoke key"
      tone="danger"
      busy={busy}
      onConfirm={confirm}
      onCancel={() => setTarget(null)}
    />
  )
  return { ask: setTarget, dialog }
}
