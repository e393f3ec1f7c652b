import { useEffect, useRef, useState, type FormEvent } from 'react'
import { useSelector } from 'react-redux'
import Alert from '../../../platform/Alert'
import { MsgHubUpdated, type Profile } from '../../../platform/api-types/partners'
import { isApiError } from '../../../platform/http'
import TextInput from '../../../platform/inputs/TextInput'
import { selectUser } from '../../../platform/session'
import { useUpdateAmbassadorMutation, useUpdateHubMutation } from './hubApi'

/** B §8: the hub update's failure, shown for 3 seconds. */
export const MSG_HUB_FAILED = 'Sorry! something went wrong, please try again'
const FAILURE_MS = 3000

interface Values {
  phone: string
  website: string
  about: string
}

const valuesOf = (p?: Profile | null): Values => ({ phone: p?.phone ?? '', website: p?.website ?? '', about: p?.about ?? '' })

/**
 * The partner's hub profile (PUT /api/special/hub/{userId}): phone, website, about. Used by the
 * update-profile modal of /admin/hub and the edit-hub tab of /profile. B §8: 'Your information has
 * been updated successfully!', or 'Sorry! something went wrong, please try again' for 3 seconds.
 */
export default function HubProfileForm({
  profile,
  formId,
  onSaved,
  via = 'hub',
}: {
  profile: Profile | null | undefined
  formId: string
  onSaved?: () => void
  /** 'ambassador' saves through PUT /users/ambassador (the ambassador's partner details on /invite). */
  via?: 'hub' | 'ambassador'
}) {
  const user = useSelector(selectUser)
  const [values, setValues] = useState<Values>(() => valuesOf(profile))
  const [errors, setErrors] = useState<Record<string, string>>({})
  const [status, setStatus] = useState<{ tone: 'success' | 'danger'; text: string } | null>(null)
  const [saveHub, hubSaving] = useUpdateHubMutation()
  const [saveAmbassador, ambassadorSaving] = useUpdateAmbassadorMutation()
  const isLoading = hubSaving.isLoading || ambassadorSaving.isLoading
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null)

  // A new profile from the server refills the form (state adjusted while rendering).
  const [valuesFor, setValuesFor] = useState(profile)
  if (profile !== valuesFor) {
    setValuesFor(profile)
    setValues(valuesOf(profile))
  }
  useEffect(() => () => {
    if (timer.current) clearTimeout(timer.current)
  }, [])

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault()
    if (!user) return
    if (timer.current) clearTimeout(timer.current)
    setErrors({})
    try {
      const body = { phone: values.phone.trim(), website: values.website.trim(), about: values.about.trim() }
      const answer = await (via === 'ambassador' ? saveAmbassador(body) : saveHub({ userId: user.id, body })).unwrap()
      setStatus({ tone: 'success', text: answer.message || MsgHubUpdated })
      onSaved?.()
    } catch (error) {
      if (isApiError(error)) setErrors(error.errors)
      setStatus({ tone: 'danger', text: MSG_HUB_FAILED })
      timer.current = setTimeout(() => setStatus(null), FAILURE_MS)
    }
  }

  return (
    <form id={formId} noValidate onSubmit={onSubmit} className="space-y-4">
      {status && <Alert tone={status.tone}>{status.text}</Alert>}
      <TextInput id={`${formId}-phone`} label="Phone" type="tel" inputMode="tel" autoComplete="tel" value={values.phone} onChange={(phone) => setValues({ ...values, phone })} maxLength={32} error={errors.phone} optional />
      <TextInput
        id={`${formId}-website`}
        label="Website"
        type="url"
        inputMode="url"
        placeholder="https://"
        value={values.website}
        onChange={(website) => setValues({ ...values, website })}
        maxLength={200}
        error={errors.website}
        optional
      />
      <TextInput id={`${formId}-about`} label="About your company" multiline rows={4} value={values.about} onChange={(about) => setValues({ ...values, about })} maxLength={1000} error={errors.about} optional />
      {/* The modal puts its own buttons in its footer (form={formId}); the tab shows this one. */}
      {!onSaved && (
        <button type="submit" className="btn-primary" disabled={isLoading}>
          {isLoading ? 'Saving…' : 'Save hub profile'}
        </button>
      )}
    </form>
  )
}
