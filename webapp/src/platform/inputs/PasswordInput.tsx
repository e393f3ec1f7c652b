import { useState } from 'react'
import Field, { describedBy } from './Field'
import { useTypedBeforeHydration } from './typedBeforeHydration'

export interface PasswordInputProps {
  id: string
  label: string
  value: string
  onChange: (value: string) => void
  error?: string | null
  hint?: string
  required?: boolean
  /** Shows 'Optional' beside the label. */
  optional?: boolean
  autoComplete?: 'current-password' | 'new-password'
}

/** A password input with a show/hide toggle. */
export default function PasswordInput({ id, label, value, onChange, error, hint, required, optional, autoComplete = 'current-password' }: PasswordInputProps) {
  const [visible, setVisible] = useState(false)
  useTypedBeforeHydration(id, value, onChange)
  return (
    <Field id={id} label={label} hint={hint} error={error} optional={optional}>
      <div className="relative">
        <input
          id={id}
          name={id}
          type={visible ? 'text' : 'password'}
          autoComplete={autoComplete}
          spellCheck={false}
          className="field-input pr-16"
          value={value}
          required={required}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy(id, hint, error)}
          onChange={(e) => onChange(e.target.value)}
        />
        <button
          type="button"
          className="absolute inset-y-0 right-0 flex items-center rounded-r-lg px-3 text-sm font-medium text-brand-700 hover:bg-brand-50"
          aria-label={visible ? `Hide ${label.toLowerCase()}` : `Show ${label.toLowerCase()}`}
          aria-controls={id}
          aria-pressed={visible}
          onClick={() => setVisible((v) => !v)}
        >
          {visible ? 'Hide' : 'Show'}
        </button>
      </div>
    </Field>
  )
}
