import { useState, type FormEvent } from 'react'
import { useDispatch } from 'react-redux'
import { Link, useSearchParams } from 'react-router'
import Alert from '../../../platform/Alert'
import { MsgTokenInvalid } from '../../../platform/api-types/identity'
import { useFocusFirstInvalid } from '../../../platform/forms'
import { errorMessage, isApiError } from '../../../platform/http'
import PasswordInput from '../../../platform/inputs/PasswordInput'
import { passwordError } from '../../../platform/inputs/passwordRules'
import TextInput from '../../../platform/inputs/TextInput'
import { signedIn } from '../../../platform/session'
import Spinner from '../../../platform/Spinner'
import { useAccessInfoQuery, useSetFirstPasswordMutation } from '../api'
import AuthCard from '../components/AuthCard'
import { nameError } from '../nameRules'

/** A §2 /access?token=: an invited user sets up their account, then goes to /dashboard. */
export default function Access() {
  const [params] = useSearchParams()
  const token = params.get('token') ?? ''
  const info = useAccessInfoQuery(token, { skip: !token })

  if (token && info.isLoading) {
    return (
      <AuthCard title="Set up your account">
        <Spinner label="Checking your invitation" />
      </AuthCard>
    )
  }
  if (!token || info.isError || !info.data) {
    return (
      <AuthCard title="Set up your account">
        <Alert>{info.error ? errorMessage(info.error) : MsgTokenInvalid}</Alert>
        <p className="mt-4 text-sm text-slate-600">
          Ask the person who invited you for a new link, or{' '}
          <Link to="/login" className="link">
            sign in
          </Link>{' '}
          if your account is already set up.
        </p>
      </AuthCard>
    )
  }
  return <AccessForm token={token} info={info.data} />
}

function AccessForm({ token, info }: { token: string; info: { email: string; first_name: string; last_name: string; company_name: string } }) {
  const [form, setForm] = useState({ first_name: info.first_name, last_name: info.last_name, password: '' })
  const [errors, setErrors] = useState<{ first_name?: string; last_name?: string; password?: string }>({})
  const [failure, setFailure] = useState<string | null>(null)
  const [setFirstPassword, { isLoading }] = useSetFirstPasswordMutation()
  const dispatch = useDispatch()
  const { ref, focusInvalid } = useFocusFirstInvalid()

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault()
    setFailure(null)
    const found = {
      first_name: nameError(form.first_name, 'first name'),
      last_name: nameError(form.last_name, 'last name'),
      password: passwordError(form.password) ?? undefined,
    }
    setErrors(found)
    if (found.first_name || found.last_name || found.password) {
      focusInvalid()
      return
    }
    try {
      const answer = await setFirstPassword({
        token,
        password: form.password,
        first_name: form.first_name.trim(),
        last_name: form.last_name.trim(),
      }).unwrap()
      if (answer.user) dispatch(signedIn({ user: answer.user, next: '/dashboard' }))
    } catch (error) {
      // A §8: a failure shows the server's message.
      setFailure(errorMessage(error))
      if (isApiError(error)) {
        setErrors({ first_name: error.errors.first_name, last_name: error.errors.last_name, password: error.errors.password })
        focusInvalid()
      }
    }
  }

  return (
    <AuthCard
      title="Set up your account"
      subtitle={
        <>
          {info.email}
          {info.company_name && <> · {info.company_name}</>}
        </>
      }
    >
      <form ref={ref} noValidate onSubmit={onSubmit} className="space-y-5">
        {failure && <Alert>{failure}</Alert>}
        <div className="grid gap-5 sm:grid-cols-2">
          <TextInput
            id="access-first-name"
            label="First name"
            value={form.first_name}
            onChange={(v) => setForm((f) => ({ ...f, first_name: v }))}
            error={errors.first_name}
            autoComplete="given-name"
            required
          />
          <TextInput
            id="access-last-name"
            label="Last name"
            value={form.last_name}
            onChange={(v) => setForm((f) => ({ ...f, last_name: v }))}
            error={errors.last_name}
            autoComplete="family-name"
            required
          />
        </div>
        <PasswordInput
          id="access-password"
          label="Password"
          value={form.password}
          onChange={(v) => setForm((f) => ({ ...f, password: v }))}
          error={errors.password}
          autoComplete="new-password"
          hint="At least 12 characters."
          required
        />
        <button type="submit" className="btn-primary w-full py-2.5" disabled={isLoading}>
          {isLoading ? 'Saving…' : 'Continue to your dashboard'}
        </button>
      </form>
    </AuthCard>
  )
}
