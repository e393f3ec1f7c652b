import { useState } from 'react'
import Field, { inputAttributes, type InputProps } from './Field'
import { emailError } from './emailRules'
import { useTypedBeforeHydration } from './typedBeforeHydration'

export interface EmailInputProps extends InputProps {
  disabled?: boolean
  autoComplete?: string
}

/** An email input: '* Invalid email address' once a malformed address is left (A §5). */
export default function EmailInput(props: EmailInputProps) {
  const { id, label, value, onChange, error, hint, optional, disabled, autoComplete = 'email' } = props
  const [touched, setTouched] = useState(false)
  useTypedBeforeHydration(id, value, onChange)
  const shown = error || (touched ? emailError(value) : null)
  return (
    <Field id={id} label={label} hint={hint} error={shown} optional={optional}>
      <input
        {...inputAttributes(props, shown)}
        type="email"
        inputMode="email"
        autoComplete={autoComplete}
        spellCheck={false}
        className="field-input"
        disabled={disabled}
        onBlur={() => setTouched(true)}
      />
    </Field>
  )
}
