import { useState, type FormEvent } from 'react'
import { useDispatch } from 'react-redux'
import { Link } from 'react-router'
import Alert from '../../../platform/Alert'
import { MsgInvalidCredentials } from '../../../platform/api-types/identity'
import { useFocusFirstInvalid } from '../../../platform/forms'
import { errorMessage, isApiError } from '../../../platform/http'
import EmailInput from '../../../platform/inputs/EmailInput'
import { emailError } from '../../../platform/inputs/emailRules'
import PasswordInput from '../../../platform/inputs/PasswordInput'
import { signedIn } from '../../../platform/session'
import { useSigninMutation } from '../api'
import AuthCard from '../components/AuthCard'
import { useHydrated } from '../../../platform/useHydrated'

/** A §2 /login: on success the user goes to /dashboard (the public-only guard sends them). */
export default function Login() {
  const hydrated = useHydrated()
  const [email, setEmail] = useState('')
  const [password, setPassword] = useState('')
  const [errors, setErrors] = useState<{ email?: string; password?: string }>({})
  const [failure, setFailure] = useState<string | null>(null)
  const [signin, { isLoading }] = useSigninMutation()
  const dispatch = useDispatch()
  const { ref, focusInvalid } = useFocusFirstInvalid()

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault()
    const found = {
      email: email.trim() === '' ? 'Please enter your email' : (emailError(email) ?? undefined),
      password: password === '' ? 'Please enter your password' : undefined,
    }
    setErrors(found)
    setFailure(null)
    if (found.email || found.password) {
      focusInvalid()
      return
    }
    try {
      const answer = await signin({ email: email.trim(), password }).unwrap()
      if (answer.user) dispatch(signedIn({ user: answer.user, next: '/dashboard' }))
    } catch (error) {
      // A §8: 'Invalid email or password'; a rate limit (429) or a disabled account says why.
      const status = isApiError(error) ? error.status : 0
      setFailure(status === 401 ? MsgInvalidCredentials : errorMessage(error))
    }
  }

  return (
    <AuthCard
      title="Welcome back"
      subtitle="Sign in to plan and follow your billboard campaigns."
      footer={
        <>
          New to Marquee?{' '}
          <Link to="/register" className="link">
            Create an account
          </Link>
        </>
      }
    >
      <form ref={ref} noValidate onSubmit={onSubmit} className="space-y-5">
        {failure && <Alert>{failure}</Alert>}
        <EmailInput id="login-email" label="Email" value={email} onChange={setEmail} error={errors.email} required />
        <PasswordInput id="login-password" label="Password" value={password} onChange={setPassword} error={errors.password} required />
        <div className="flex justify-end text-sm">
          <Link to="/forgot-password" className="link">
            Forgot your password?
          </Link>
        </div>
        <button type="submit" className="btn-primary w-full py-2.5" disabled={isLoading || !hydrated}>
          {isLoading ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
    </AuthCard>
  )
}
