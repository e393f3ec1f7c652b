import { useState } from 'react'
import Field, { describedBy } from './Field'
import { emailError } from './emailRules'
import { useTypedBeforeHydration } from './typedBeforeHydration'

export interface EmailInputProps {
  id: string
  label: string
  value: string
  onChange: (value: string) => void
  error?: string | null
  hint?: string
  required?: boolean
  /** Shows 'Optional' beside the label. */
  optional?: boolean
  disabled?: boolean
  autoComplete?: string
}

/** An email input: '* Invalid email address' once a malformed address is left (A §5). */
export default function EmailInput({ id, label, value, onChange, error, hint, required, optional, disabled, autoComplete = 'email' }: EmailInputProps) {
  const [touched, setTouched] = useState(false)
  useTypedBeforeHydration(id, value, onChange)
  const shown = error || (touched ? emailError(value) : null)
  return (
    <Field id={id} label={label} hint={hint} error={shown} optional={optional}>
      <input
        id={id}
        name={id}
        type="email"
        inputMode="email"
        autoComplete={autoComplete}
        spellCheck={false}
        className="field-input"
        value={value}
        required={required}
        disabled={disabled}
        aria-invalid={shown ? true : undefined}
        aria-describedby={describedBy(id, hint, shown)}
        onChange={(e) => onChange(e.target.value)}
        onBlur={() => setTouched(true)}
      />
    </Field>
  )
}
