import { useId, useState, type FormEvent } from 'react'
import { useSelector } from 'react-redux'
import Alert from '../../../platform/Alert'
import { MsgCreativeRequested, MsgCreativeRequestKO } from '../../../platform/api-types/creatives'
import { compactErrors, useFocusFirstInvalid } from '../../../platform/forms'
import EmailInput from '../../../platform/inputs/EmailInput'
import { emailError } from '../../../platform/inputs/emailRules'
import TextInput from '../../../platform/inputs/TextInput'
import { selectUser } from '../../../platform/session'
import { useRequestCreativeMutation } from './api'

type Errors = Partial<Record<'fullName' | 'email', string>>

/**
 * A §2 "request a build": ask the team to build a creative (POST /users/creative, which sends the
 * creative-request email through the outbox). A §8: the success and failure messages.
 */
export default function CreativeRequestForm({ formId, onBusyChange }: { formId: string; onBusyChange?: (busy: boolean) => void }) {
  const ids = useId()
  const user = useSelector(selectUser)
  const [fullName, setFullName] = useState(() => `${user?.local.first_name ?? ''} ${user?.local.last_name ?? ''}`.trim())
  const [email, setEmail] = useState(user?.local.email ?? '')
  const [message, setMessage] = useState('')
  const [errors, setErrors] = useState<Errors>({})
  const [outcome, setOutcome] = useState<{ ok: boolean; text: string } | null>(null)
  const [request, { isLoading }] = useRequestCreativeMutation()
  const { ref, focusInvalid } = useFocusFirstInvalid()

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault()
    if (isLoading) return
    setOutcome(null)
    const found = compactErrors({
      fullName: fullName.trim() ? null : 'Please enter your full name',
      email: email.trim() ? emailError(email) : '* Invalid email address',
    })
    setErrors(found)
    if (Object.keys(found).length) {
      focusInvalid()
      return
    }
    onBusyChange?.(true)
    try {
      await request({ email: email.trim(), full_name: fullName.trim(), ...(message.trim() ? { message: message.trim() } : {}) }).unwrap()
      setOutcome({ ok: true, text: MsgCreativeRequested })
      setMessage('')
    } catch {
      setOutcome({ ok: false, text: MsgCreativeRequestKO })
    } finally {
      onBusyChange?.(false)
    }
  }

  return (
    <form id={formId} ref={ref} noValidate onSubmit={onSubmit} className="space-y-5">
      <p className="text-sm text-slate-600">Tell us about the ad you need and our design team will build it for you.</p>
      {outcome && <Alert tone={outcome.ok ? 'success' : 'danger'}>{outcome.text}</Alert>}
      <TextInput id={`${ids}-name`} label="Full name" value={fullName} onChange={setFullName} maxLength={100} error={errors.fullName} autoComplete="name" required />
      <EmailInput id={`${ids}-email`} label="Email" value={email} onChange={setEmail} error={errors.email} required />
      <TextInput id={`${ids}-message`} label="What should the ad say?" value={message} onChange={setMessage} maxLength={1000} multiline optional />
    </form>
  )
}
