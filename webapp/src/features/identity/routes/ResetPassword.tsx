import { useState, type FormEvent } from 'react'
import { useDispatch } from 'react-redux'
import { Link, Navigate, useNavigate, useSearchParams } from 'react-router'
import Alert from '../../../platform/Alert'
import { MsgPasswordReset, MsgPasswordResetFailed, MsgTokenInvalid } from '../../../platform/api-types/identity'
import { flashShown } from '../../../platform/flash/flash'
import { useFocusFirstInvalid } from '../../../platform/forms'
import { errorMessage, isApiError } from '../../../platform/http'
import Spinner from '../../../platform/Spinner'
import { useSetPasswordMutation, useTokenInfoQuery } from '../api'
import AuthCard from '../components/AuthCard'
import NewPasswordFields, { newPasswordErrors, type NewPasswordErrors } from '../components/NewPasswordFields'

/** A §2 /reset-password: needs a token, otherwise goes to /. */
export default function ResetPassword() {
  const [params] = useSearchParams()
  const token = params.get('token') ?? ''
  if (!token) return <Navigate to="/" replace />
  return <ResetForm token={token} />
}

function ResetForm({ token }: { token: string }) {
  const info = useTokenInfoQuery(token)
  const [password, setPassword] = useState('')
  const [confirm, setConfirm] = useState('')
  const [errors, setErrors] = useState<NewPasswordErrors>({})
  const [failure, setFailure] = useState<string | null>(null)
  const [setNewPassword, { isLoading }] = useSetPasswordMutation()
  const dispatch = useDispatch()
  const navigate = useNavigate()
  const { ref, focusInvalid } = useFocusFirstInvalid()

  if (info.isLoading) {
    return (
      <AuthCard title="Reset your password">
        <Spinner label="Checking your link" />
      </AuthCard>
    )
  }
  if (info.isError || !info.data) {
    return (
      <AuthCard title="Reset your password">
        <Alert>{info.error ? errorMessage(info.error) : MsgTokenInvalid}</Alert>
        <p className="mt-4 text-sm text-slate-600">
          Reset links work once and for a limited time.{' '}
          <Link to="/forgot-password" className="link">
            Ask for a new link
          </Link>
        </p>
      </AuthCard>
    )
  }

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault()
    setFailure(null)
    const found = newPasswordErrors(password, confirm)
    setErrors(found)
    if (found.password || found.confirm) {
      focusInvalid()
      return
    }
    try {
      const answer = await setNewPassword({ token, password }).unwrap()
      dispatch(flashShown(answer.message || MsgPasswordReset, 'success'))
      void navigate('/login', { replace: true })
    } catch (error) {
      // A §8: 'Error to try reset password', with the field's own message.
      const field = isApiError(error) ? (error.errors.password ?? error.errors.token) : undefined
      setFailure(field ? `${MsgPasswordResetFailed}: ${field}` : MsgPasswordResetFailed)
      if (isApiError(error) && error.errors.password) {
        setErrors({ password: error.errors.password })
        focusInvalid()
      }
    }
  }

  return (
    <AuthCard title="Choose a new password" subtitle={<>For {info.data.email}</>}>
      <form ref={ref} noValidate onSubmit={onSubmit} className="space-y-5">
        {failure && <Alert>{failure}</Alert>}
        <NewPasswordFields
          idPrefix="reset"
          password={password}
          confirm={confirm}
          onPassword={setPassword}
          onConfirm={setConfirm}
          errors={errors}
        />
        <button type="submit" className="btn-primary w-full py-2.5" disabled={isLoading}>
          {isLoading ? 'Saving…' : 'Set new password'}
        </button>
      </form>
    </AuthCard>
  )
}
