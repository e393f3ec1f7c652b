import Field, { describedBy } from '../../../platform/inputs/Field'
import TextInput from '../../../platform/inputs/TextInput'
import { US_STATES } from './usStates'

/** One address of the form; the API keeps them flat in `local` (see ProfileForm). */
export interface Address {
  street: string
  street2: string
  city: string
  state: string
  zip: string
}

export const EMPTY_ADDRESS: Address = { street: '', street2: '', city: '', state: '', zip: '' }

export type AddressErrors = Partial<Record<keyof Address, string>>

/** B §2 /profile: street, second line, city, US state (DC included) and ZIP. */
export default function AddressFields({
  idPrefix,
  legend,
  value,
  onChange,
  errors = {},
}: {
  idPrefix: string
  legend: string
  value: Address
  onChange: (value: Address) => void
  errors?: AddressErrors
}) {
  const set = (field: keyof Address) => (text: string) => onChange({ ...value, [field]: text })
  const stateId = `${idPrefix}-state`
  return (
    <fieldset className="space-y-4">
      <legend className="mb-2 font-semibold text-slate-900">{legend}</legend>
      <TextInput id={`${idPrefix}-street`} label="Street" value={value.street} onChange={set('street')} error={errors.street} maxLength={100} optional autoComplete={`${idPrefix} address-line1`} />
      <TextInput id={`${idPrefix}-street2`} label="Apartment, suite or unit" value={value.street2} onChange={set('street2')} error={errors.street2} maxLength={100} optional autoComplete={`${idPrefix} address-line2`} />
      <div className="grid gap-4 sm:grid-cols-6">
        <div className="sm:col-span-3">
          <TextInput id={`${idPrefix}-city`} label="City" value={value.city} onChange={set('city')} error={errors.city} maxLength={60} optional autoComplete={`${idPrefix} address-level2`} />
        </div>
        <div className="sm:col-span-2">
          <Field id={stateId} label="State" error={errors.state} optional>
            <select
              id={stateId}
              name={stateId}
              className="field-input"
              value={value.state}
              autoComplete={`${idPrefix} address-level1`}
              aria-invalid={errors.state ? true : undefined}
              aria-describedby={describedBy(stateId, undefined, errors.state)}
              onChange={(e) => set('state')(e.target.value)}
            >
              <option value="">Choose a state</option>
              {US_STATES.map((s) => (
                <option key={s.code} value={s.code}>
                  {s.code} – {s.name}
                </option>
              ))}
            </select>
          </Field>
        </div>
        <div className="sm:col-span-1">
          <TextInput id={`${idPrefix}-zip`} label="ZIP" value={value.zip} onChange={set('zip')} error={errors.zip} inputMode="numeric" optional autoComplete={`${idPrefix} postal-code`} />
        </div>
      </div>
    </fieldset>
  )
}
