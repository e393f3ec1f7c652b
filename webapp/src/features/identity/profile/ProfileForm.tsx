import { useState, type FormEvent } from 'react'
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
import type { UpdateUserRequest } from '../../../platform/api-types/identity'
import type { AddressFieldsOfLocal } from '../accountTypes'
import { MSG_USER_UPDATED } from '../admin/adminRules'
import { NAME_MAX_LENGTH, nameError } from '../nameRules'
import AddressFields, { type Address, type AddressErrors } from './AddressFields'
import { zipError } from './usStates'

interface Form {
  first_name: string
  last_name: string
  phone: string
  address: Address
  billing: Address
}

type FieldErrors = { first_name?: string; last_name?: string; phone?: string; address: AddressErrors; billing: AddressErrors }

const noErrors = (): FieldErrors => ({ address: {}, billing: {} })

// The API keeps both addresses flat in `local` (docs/api.md "Identity"); the form groups them.
const ADDRESS_KEYS: Record<'address' | 'billing', Record<keyof Address, keyof AddressFieldsOfLocal>> = {
  address: { street: 'address', street2: 'sub_address', city: 'address_city', state: 'address_state', zip: 'address_zipcode' },
  billing: { street: 'billing_address', street2: 'sub_billing_address', city: 'billing_city', state: 'billing_state', zip: 'billing_zipcode' },
}

function addressOf(local: Partial<AddressFieldsOfLocal>, which: 'address' | 'billing'): Address {
  const keys = ADDRESS_KEYS[which]
  return { street: local[keys.street] ?? '', street2: local[keys.street2] ?? '', city: local[keys.city] ?? '', state: local[keys.state] ?? '', zip: local[keys.zip] ?? '' }
}

function formFrom(user: User): Form {
  const local = user.local as User['local'] & Partial<AddressFieldsOfLocal>
  return {
    first_name: local.first_name ?? '',
    last_name: local.last_name ?? '',
    phone: local.phone ?? '',
    address: addressOf(local, 'address'),
    billing: addressOf(local, 'billing'),
  }
}

export function requestFrom(form: Form): UpdateUserRequest {
  const body: UpdateUserRequest = { first_name: form.first_name.trim(), last_name: form.last_name.trim(), phone: form.phone.trim() }
  for (const which of ['address', 'billing'] as const) {
    for (const [field, key] of Object.entries(ADDRESS_KEYS[which]) as [keyof Address, keyof AddressFieldsOfLocal][]) {
      body[key] = form[which][field].trim()
    }
  }
  return body
}

/** The server's field errors ('address_zipcode', 'first_name', ...) on the form's fields. */
function fromServer(errors: Record<string, string>): FieldErrors {
  const out = noErrors()
  for (const [key, message] of Object.entries(errors)) {
    if (key === 'first_name' || key === 'last_name' || key === 'phone') out[key] = message
    for (const which of ['address', 'billing'] as const) {
      for (const [field, flat] of Object.entries(ADDRESS_KEYS[which]) as [keyof Address, string][]) {
        if (flat === key) out[which][field] = message
      }
    }
  }
  return out
}

const anyError = (e: FieldErrors) =>
  !!(e.first_name || e.last_name || e.phone || Object.values(e.address).some(Boolean) || Object.values(e.billing).some(Boolean))

/**
 * The user's details and addresses, saved with PUT /api/users/{id} (B §2 /profile); the answer's
 * message ('User data updated!', B §8) is shown. Admins edit any user with the same form.
 */
export default function ProfileForm({ userId, onSaved, self }: { userId: string; onSaved?: () => void; self?: User }) {
  // One's own profile is the session's user (sign-in and /users/currentUser carry the addresses),
  // so opening /profile costs no call; an admin's edit reads the user.
  const fetched = useUserProfileQuery(userId, { skip: !!self })
  const profile = self ? { data: self, isError: false, error: undefined } : fetched
  const [form, setForm] = useState<Form | null>(null)
  const [errors, setErrors] = useState<FieldErrors>(noErrors)
  const [failure, setFailure] = useState<string | null>(null)
  const [save, { isLoading }] = useUpdateUserMutation()
  const dispatch = useDispatch()
  const { ref, focusInvalid } = useFocusFirstInvalid()

  // The form follows the profile as it is read or saved (state adjusted while rendering).
  const [formOf, setFormOf] = useState<User | undefined>(undefined)
  if (profile.data && profile.data !== formOf) {
    setFormOf(profile.data)
    setForm(formFrom(profile.data))
  }

  if (profile.isError) return <Alert>{errorMessage(profile.error)}</Alert>
  if (!form) return <Spinner label="Loading the profile" />

  const set = (patch: Partial<Form>) => setForm({ ...form, ...patch })

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault()
    setFailure(null)
    const found: FieldErrors = {
      first_name: nameError(form.first_name, 'first name'),
      last_name: nameError(form.last_name, 'last name'),
      phone: phoneError(form.phone) ?? undefined,
      address: { zip: zipError(form.address.zip) ?? undefined },
      billing: { zip: zipError(form.billing.zip) ?? undefined },
    }
    setErrors(found)
    if (anyError(found)) {
      focusInvalid()
      return
    }
    try {
      const answer = await save({ id: userId, body: requestFrom(form) }).unwrap()
      dispatch(flashShown(answer.message || MSG_USER_UPDATED, 'success'))
      // The header shows the signed-in user's name: keep it in step.
      if (self && answer.user) dispatch(userUpdated(answer.user))
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
        <legend className="mb-2 font-semibold text-slate-900">Details</legend>
        <div className="grid gap-4 sm:grid-cols-2">
          <TextInput id="profile-first-name" label="First name" value={form.first_name} onChange={(v) => set({ first_name: v })} error={errors.first_name} maxLength={NAME_MAX_LENGTH} required autoComplete="given-name" />
          <TextInput id="profile-last-name" label="Last name" value={form.last_name} onChange={(v) => set({ last_name: v })} error={errors.last_name} maxLength={NAME_MAX_LENGTH} required autoComplete="family-name" />
        </div>
        <TextInput id="profile-phone" label="Phone" type="tel" inputMode="tel" value={form.phone} onChange={(v) => set({ phone: v })} error={errors.phone} optional autoComplete="tel" />
      </fieldset>
      <AddressFields idPrefix="shipping" legend="Address" value={form.address} onChange={(address) => set({ address })} errors={errors.address} />
      <div className="space-y-3">
        <AddressFields idPrefix="billing" legend="Billing address" value={form.billing} onChange={(billing) => set({ billing })} errors={errors.billing} />
        <button type="button" className="btn-secondary" onClick={() => set({ billing: { ...form.address } })}>
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
