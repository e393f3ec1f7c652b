import { useState, type FormEvent } from 'react'
import { useDispatch } from 'react-redux'
import Alert from '../../../platform/Alert'
import { MsgPasswordChanged } from '../../../platform/api-types/identity'
import { flashShown } from '../../../platform/flash/flash'
import { useFocusFirstInvalid } from '../../../platform/forms'
import { errorMessage, isApiError } from '../../../platform/http'
import PasswordInput from '../../../platform/inputs/PasswordInput'
import Modal from '../../../platform/Modal'
import { useChangePasswordMutation } from '../api'
import NewPasswordFields, { newPasswordErrors } from './NewPasswordFields'

type Errors = { current?: string; password?: string; confirm?: string }

/** B §2 change-password modal: PUT /users/password; a failure shows 'Sorry! ' plus the message (B §8). */
export default function ChangePasswordModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const [current, setCurrent] = useState('')
  const [password, setPassword] = useState('')
  const [confirm, setConfirm] = useState('')
  const [errors, setErrors] = useState<Errors>({})
  const [failure, setFailure] = useState<string | null>(null)
  const [change, { isLoading }] = useChangePasswordMutation()
  const dispatch = useDispatch()
  const { ref, focusInvalid } = useFocusFirstInvalid()

  const close = () => {
    setCurrent('')
    setPassword('')
    setConfirm('')
    setErrors({})
    setFailure(null)
    onClose()
  }

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault()
    setFailure(null)
    const found: Errors = {
      current: current === '' ? 'Please enter your current password' : undefined,
      ...newPasswordErrors(password, confirm),
    }
    setErrors(found)
    if (found.current || found.password || found.confirm) {
      focusInvalid()
      return
    }
    try {
      const answer = await change({ current_password: current, password }).unwrap()
      dispatch(flashShown(answer.message || MsgPasswordChanged, 'success'))
      close()
    } catch (error) {
      setFailure(`Sorry! ${errorMessage(error)}`)
      if (isApiError(error)) {
        setErrors({ current: error.errors.current_password, password: error.errors.password })
        focusInvalid()
      }
    }
  }

  return (
    <Modal
      open={open}
      title="Change password"
      onClose={close}
      footer={
        <>
          <button type="button" className="btn-secondary" onClick={close}>
            Cancel
          </button>
          <button type="submit" form="change-password-form" className="btn-primary" disabled={isLoading}>
            {isLoading ? 'Saving…' : 'Change password'}
          </button>
        </>
      }
    >
      <form id="change-password-form" ref={ref} noValidate onSubmit={onSubmit} className="space-y-5">
        {failure && <Alert>{failure}</Alert>}
        <PasswordInput id="current-password" label="Current password" value={current} onChange={setCurrent} error={errors.current} required />
        <NewPasswordFields
          idPrefix="new"
          password={password}
          confirm={confirm}
          onPassword={setPassword}
          onConfirm={setConfirm}
          errors={errors}
        />
      </form>
    </Modal>
  )
}
