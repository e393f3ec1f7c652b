import { useEffect, useRef, useState, type FormEvent } from 'react'
import { useDispatch } from 'react-redux'
import { Link } from 'react-router'
import Alert from '../../../platform/Alert'
import {
  MsgCompanyTaken,
  MsgEmailTaken,
  MsgInvalidCompanyName,
  type SignUpRequest,
} from '../../../platform/api-types/identity'
import { flashShown } from '../../../platform/flash/flash'
import { useFocusFirstInvalid } from '../../../platform/forms'
import { errorMessage, isApiError } from '../../../platform/http'
import EmailInput from '../../../platform/inputs/EmailInput'
import { emailError } from '../../../platform/inputs/emailRules'
import PasswordInput from '../../../platform/inputs/PasswordInput'
import { passwordError } from '../../../platform/inputs/passwordRules'
import { phoneError } from '../../../platform/inputs/phoneRules'
import TextInput from '../../../platform/inputs/TextInput'
import { validateText } from '../../../platform/inputs/textRules'
import Modal from '../../../platform/Modal'
import { signedIn } from '../../../platform/session'
import { useLazyCompanyExistsQuery, useSignupMutation } from '../api'
import AuthCard from '../components/AuthCard'
import { useHydrated } from '../../../platform/useHydrated'

// A §8: the sign-up consent answers.
export const MSG_CALL_YES = 'Great, someone will be in touch with you soon'
export const MSG_CALL_NO = 'No problem, but feel free to reach out to us anytime'

export const COMPANY_MAX_LENGTH = 100

type Field = 'company' | 'email' | 'phone' | 'password'
type Errors = Partial<Record<Field, string>>

function companyError(name: string): string | null {
  if (name.trim() === '') return 'Please enter your company name'
  return validateText(name, { maxLength: COMPANY_MAX_LENGTH })
}

/** A §2 /register: step 1 checks the company name, step 2 is the rest of the form. */
export default function Register() {
  const hydrated = useHydrated()
  const [step, setStep] = useState<1 | 2>(1)
  const [form, setForm] = useState({ company: '', email: '', phone: '', password: '' })
  const [errors, setErrors] = useState<Errors>({})
  const [failure, setFailure] = useState<string | null>(null)
  const [askConsent, setAskConsent] = useState(false)
  const [checkCompany, { isFetching: checking }] = useLazyCompanyExistsQuery()
  const [signup, { isLoading: sending }] = useSignupMutation()
  const dispatch = useDispatch()
  const { ref: step1Ref, focusInvalid: focusStep1 } = useFocusFirstInvalid()
  const { ref: step2Ref, focusInvalid: focusStep2 } = useFocusFirstInvalid()
  const yesButton = useRef<HTMLButtonElement>(null)

  // Moving between the steps puts the focus on the step's first field to fill.
  const firstStep = useRef(true)
  useEffect(() => {
    if (firstStep.current) {
      firstStep.current = false
      return
    }
    document.getElementById(step === 1 ? 'register-company' : 'register-email')?.focus()
  }, [step])

  const set = (field: Field) => (value: string) => setForm((f) => ({ ...f, [field]: value }))

  const onCheckCompany = async (event: FormEvent) => {
    event.preventDefault()
    const local = companyError(form.company)
    if (local) {
      setErrors({ company: local })
      focusStep1()
      return
    }
    const result = await checkCompany(form.company.trim())
    if (result.error || !result.data) {
      setErrors({ company: MsgInvalidCompanyName })
      focusStep1()
      return
    }
    if (result.data.exists) {
      setErrors({ company: MsgCompanyTaken })
      focusStep1()
      return
    }
    setErrors({})
    setStep(2)
  }

  const validate = (): Errors => {
    const found: Errors = {}
    const company = companyError(form.company)
    if (company) found.company = company
    const email = form.email.trim() === '' ? 'Please enter your email' : emailError(form.email)
    if (email) found.email = email
    const phone = phoneError(form.phone)
    if (phone) found.phone = phone
    const password = passwordError(form.password)
    if (password) found.password = password
    return found
  }

  const send = async (sendPhoneZoho: boolean) => {
    setAskConsent(false)
    setFailure(null)
    const request: SignUpRequest = {
      company: form.company.trim(),
      email: form.email.trim(),
      phone: form.phone.trim(),
      password: form.password,
      sendPhoneZoho,
    }
    try {
      const answer = await signup(request).unwrap()
      if (request.phone) dispatch(flashShown(sendPhoneZoho ? MSG_CALL_YES : MSG_CALL_NO, 'success'))
      if (answer.user) dispatch(signedIn({ user: answer.user, next: '/thank-you' }))
    } catch (error) {
      // A §8: 'Sorry! ' plus the server message; field errors show inline.
      setFailure(`Sorry! ${errorMessage(error)}`)
      const fields: Errors = {}
      if (isApiError(error)) {
        for (const key of ['company', 'email', 'phone', 'password'] as const) {
          if (error.errors[key]) fields[key] = error.errors[key]
        }
        if (error.message === MsgCompanyTaken) fields.company ??= MsgCompanyTaken
        if (error.message === MsgEmailTaken) fields.email ??= MsgEmailTaken
      }
      setErrors(fields)
      if (Object.keys(fields).length) focusStep2()
    }
  }

  const onSubmit = (event: FormEvent) => {
    event.preventDefault()
    const found = validate()
    setErrors(found)
    setFailure(null)
    if (Object.keys(found).length) {
      focusStep2()
      return
    }
    // A §5: a phone number triggers the consent dialog; the answer is sent as sendPhoneZoho.
    if (form.phone.trim()) setAskConsent(true)
    else void send(false)
  }

  const footer = (
    <>
      Already have an account?{' '}
      <Link to="/login" className="link">
        Sign in
      </Link>
    </>
  )

  if (step === 1) {
    return (
      <AuthCard title="Create your account" subtitle={<StepLabel step={1} text="Your company" />} footer={footer}>
        <form ref={step1Ref} noValidate onSubmit={onCheckCompany} className="space-y-5">
          <TextInput
            id="register-company"
            label="Company name"
            value={form.company}
            onChange={(value) => {
              set('company')(value)
              setErrors({})
            }}
            maxLength={COMPANY_MAX_LENGTH}
            error={errors.company}
            autoComplete="organization"
            required
          />
          <button type="submit" className="btn-primary w-full py-2.5" disabled={checking || !hydrated}>
            {checking ? 'Checking…' : 'Continue'}
          </button>
        </form>
      </AuthCard>
    )
  }

  return (
    <AuthCard title="Create your account" subtitle={<StepLabel step={2} text="Your details" />} footer={footer}>
      <form ref={step2Ref} noValidate onSubmit={onSubmit} className="space-y-5">
        {failure && <Alert>{failure}</Alert>}
        <TextInput
          id="register-company"
          label="Company name"
          value={form.company}
          onChange={set('company')}
          maxLength={COMPANY_MAX_LENGTH}
          error={errors.company}
          autoComplete="organization"
          required
        />
        <EmailInput id="register-email" label="Email" value={form.email} onChange={set('email')} error={errors.email} required />
        <TextInput
          id="register-phone"
          label="Phone"
          type="tel"
          inputMode="tel"
          value={form.phone}
          onChange={set('phone')}
          error={errors.phone}
          autoComplete="tel"
          hint="If you leave a number, we can call you to help plan your first campaign."
          optional
        />
        <PasswordInput
          id="register-password"
          label="Password"
          value={form.password}
          onChange={set('password')}
          error={errors.password}
          autoComplete="new-password"
          hint="At least 12 characters."
          required
        />
        <div className="flex flex-col-reverse gap-3 sm:flex-row">
          <button
            type="button"
            className="btn-secondary sm:flex-1"
            onClick={() => {
              setErrors({})
              setFailure(null)
              setStep(1)
            }}
          >
            Back
          </button>
          <button type="submit" className="btn-primary py-2.5 sm:flex-[2]" disabled={sending}>
            {sending ? 'Creating your account…' : 'Create account'}
          </button>
        </div>
      </form>
      <Modal
        open={askConsent}
        title="May we give you a call?"
        onClose={() => setAskConsent(false)}
        initialFocus={yesButton}
        size="sm"
        footer={
          <>
            <button type="button" className="btn-secondary" onClick={() => void send(false)}>
              No, thanks
            </button>
            <button ref={yesButton} type="button" className="btn-primary" onClick={() => void send(true)}>
              Yes, call me
            </button>
          </>
        }
      >
        <p className="text-slate-700">
          Someone from our team can call you at <strong>{form.phone.trim()}</strong> to help you plan your first campaign. Is that all right?
        </p>
      </Modal>
    </AuthCard>
  )
}

function StepLabel({ step, text }: { step: 1 | 2; text: string }) {
  return (
    <span>
      Step {step} of 2 · {text}
    </span>
  )
}
