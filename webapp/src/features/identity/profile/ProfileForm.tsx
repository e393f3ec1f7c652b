import { useEffect, useState, type FormEvent } from 'react'
import { useDispatch } from 'react-redux'
import Alert from '../../../platform/Alert'
import type { User } from '../../../platform/api-types/identity'
import { flashShown } from '../../../platform/flash/flash'
import { useFocusFirstInvalid } from '../../../platform/forms'
import { errorMessage, isApiError } from '../../../platform/http'
import { phoneError } from '../../../platform/inputs/phoneRules'
import TextInput from '../../../platform/inputs/TextInput'
import { userUpdated } from '../../../platform/session'
import Spinner from '../../../platform/Spinner'
import { useUpdateUserMutation, useUserProfileQuery } from '../accountApi'
import type { Address, UserProfile, UserUpdate } from '../accountTypes'
import { MSG_USER_UPDATED } from '../admin/adminRules'
import { NAME_MAX_LENGTH, nameError } from '../nameRules'
import AddressFields, { EMPTY_ADDRESS, type AddressErrors } from './AddressFields'
import { zipError } from './usStates'

type FieldErrors = { first_name?: string; last_name?: string; phone?: string; email?: string; address: AddressErrors; billing_address: AddressErrors }

const noErrors = (): FieldErrors => ({ address: {}, billing_address: {} })

function formFrom(user: UserProfile): UserUpdate {
  return {
    first_name: user.local.first_name ?? '',
    last_name: user.local.last_name ?? '',
    phone: user.local.phone ?? '',
    email: user.local.email,
    address: { ...EMPTY_ADDRESS, ...(user.address ?? {}) },
    billing_address: { ...EMPTY_ADDRESS, ...(user.billing_address ?? {}) },
  }
}

/** The server's field errors ('address.zip', 'first_name', ...) on the form's fields. */
function fromServer(errors: Record<string, string>): FieldErrors {
  const out = noErrors()
  for (const [key, message] of Object.entries(errors)) {
    const [head, tail] = key.split('.') as [string, string | undefined]
    if ((head === 'address' || head === 'billing_address') && tail) out[head][tail as keyof Address] = message
    else if (head === 'first_name' || head === 'last_name' || head === 'phone' || head === 'email') out[head] = message
  }
  return out
}

const anyError = (e: FieldErrors) =>
  !!(e.first_name || e.last_name || e.phone || e.email || Object.values(e.address).some(Boolean) || Object.values(e.billing_address).some(Boolean))

/**
 * The user's details and addresses, saved with PUT /api/users/{id} (B §2 /profile); the answer's
 * message ('User data updated!', B §8) is shown. Admins use the same form for any user, with the
 * email (`withEmail`).
 */
export default function ProfileForm({ userId, withEmail = false, onSaved, self = false }: { userId: string; withEmail?: boolean; onSaved?: () => void; self?: boolean }) {
  const profile = useUserProfileQuery(userId)
  const [form, setForm] = useState<UserUpdate | null>(null)
  const [errors, setErrors] = useState<FieldErrors>(noErrors)
  const [failure, setFailure] = useState<string | null>(null)
  const [save, { isLoading }] = useUpdateUserMutation()
  const dispatch = useDispatch()
  const { ref, focusInvalid } = useFocusFirstInvalid()

  useEffect(() => {
    if (profile.data) setForm(formFrom(profile.data))
  }, [profile.data])

  if (profile.isLoading || (!form && !profile.isError)) return <Spinner label="Loading the profile" />
  if (profile.isError || !form) return <Alert>{errorMessage(profile.error)}</Alert>

  const set = (patch: Partial<UserUpdate>) => setForm({ ...form, ...patch })

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault()
    setFailure(null)
    const found: FieldErrors = {
      first_name: nameError(form.first_name, 'first name'),
      last_name: nameError(form.last_name, 'last name'),
      phone: phoneError(form.phone) ?? undefined,
      address: { zip: zipError(form.address.zip) ?? undefined },
      billing_address: { zip: zipError(form.billing_address.zip) ?? undefined },
    }
    setErrors(found)
    if (anyError(found)) {
      focusInvalid()
      return
    }
    const body: UserUpdate = { ...form }
    if (!withEmail) delete body.email
    try {
      const answer = await save({ id: userId, body }).unwrap()
      dispatch(flashShown(answer.message || MSG_USER_UPDATED, 'success'))
      // The header shows the signed-in user's name: keep it in step.
      if (self && answer.user) dispatch(userUpdated(answer.user as User))
      onSaved?.()
    } catch (error) {
      setFailure(`Sorry! ${errorMessage(error)}`)
      if (isApiError(error)) {
        setErrors(fromServer(error.errors))
        focusInvalid()
      }
    }
  }

  return (
    <form ref={ref} noValidate onSubmit={onSubmit} className="space-y-8" aria-label="Profile details">
      {failure && <Alert>{failure}</Alert>}
      <fieldset className="space-y-4">
        <legend className="mb-2 font-semibold text-slate-900">Your details</legend>
        <div className="grid gap-4 sm:grid-cols-2">
          <TextInput id="profile-first-name" label="First name" value={form.first_name} onChange={(v) => set({ first_name: v })} error={errors.first_name} maxLength={NAME_MAX_LENGTH} required autoComplete="given-name" />
          <TextInput id="profile-last-name" label="Last name" value={form.last_name} onChange={(v) => set({ last_name: v })} error={errors.last_name} maxLength={NAME_MAX_LENGTH} required autoComplete="family-name" />
        </div>
        {withEmail && (
          <TextInput id="profile-email" label="Email" value={form.email ?? ''} onChange={(v) => set({ email: v })} error={errors.email} required autoComplete="off" />
        )}
        <TextInput id="profile-phone" label="Phone" type="tel" inputMode="tel" value={form.phone} onChange={(v) => set({ phone: v })} error={errors.phone} optional autoComplete="tel" />
      </fieldset>
      <AddressFields idPrefix="shipping" legend="Address" value={form.address} onChange={(address) => set({ address })} errors={errors.address} />
      <div className="space-y-3">
        <AddressFields idPrefix="billing" legend="Billing address" value={form.billing_address} onChange={(billing_address) => set({ billing_address })} errors={errors.billing_address} />
        <button type="button" className="btn-secondary" onClick={() => set({ billing_address: { ...form.address } })}>
          Same as address
        </button>
      </div>
      <div className="flex justify-end">
        <button type="submit" className="btn-primary" disabled={isLoading}>
          {isLoading ? 'Saving…' : 'Save profile'}
        </button>
      </div>
    </form>
  )
}
