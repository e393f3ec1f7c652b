import { useState, type FormEvent } from 'react'
import { useDispatch } from 'react-redux'
import { Link, useNavigate } from 'react-router'
import Alert from '../../../platform/Alert'
import { MsgInvalidEmail, MsgResetSent } from '../../../platform/api-types/identity'
import { flashShown } from '../../../platform/flash/flash'
import { useFocusFirstInvalid } from '../../../platform/forms'
import { errorMessage, isApiError } from '../../../platform/http'
import EmailInput from '../../../platform/inputs/EmailInput'
import { emailError } from '../../../platform/inputs/emailRules'
import { useResetPasswordMutation } from '../api'
import AuthCard from '../components/AuthCard'
import { useHydrated } from '../../../platform/useHydrated'

/** A §2 /forgot-password: after the request the user goes to /login with a flash message. */
export default function ForgotPassword() {
  const hydrated = useHydrated()
  const [email, setEmail] = useState('')
  const [error, setError] = useState<string | null>(null)
  const [failure, setFailure] = useState<string | null>(null)
  const [request, { isLoading }] = useResetPasswordMutation()
  const dispatch = useDispatch()
  const navigate = useNavigate()
  const { ref, focusInvalid } = useFocusFirstInvalid()

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault()
    setFailure(null)
    const local = email.trim() === '' ? 'Please enter your email' : emailError(email)
    setError(local)
    if (local) {
      focusInvalid()
      return
    }
    try {
      const answer = await request({ email: email.trim() }).unwrap()
      dispatch(flashShown(answer.message || MsgResetSent, 'success'))
      void navigate('/login')
    } catch (err) {
      // A §8: a refused address is 'Invalid email address'; a rate limit says so.
      if (isApiError(err) && err.status === 400) {
        setError(MsgInvalidEmail)
        focusInvalid()
      } else {
        setFailure(errorMessage(err))
      }
    }
  }

  return (
    <AuthCard
      title="Reset your password"
      subtitle="Enter the email you signed up with and we will send you a link to set a new password."
      footer={
        <Link to="/login" className="link">
          Back to sign in
        </Link>
      }
    >
      <form ref={ref} noValidate onSubmit={onSubmit} className="space-y-5">
        {failure && <Alert>{failure}</Alert>}
        <EmailInput id="forgot-email" label="Email" value={email} onChange={setEmail} error={error} required />
        <button type="submit" className="btn-primary w-full py-2.5" disabled={isLoading || !hydrated}>
          {isLoading ? 'Sending…' : 'Send reset link'}
        </button>
      </form>
    </AuthCard>
  )
}
