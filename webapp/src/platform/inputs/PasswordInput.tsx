import { useState } from 'react'
import Field, { inputAttributes, type InputProps } from './Field'
import { useTypedBeforeHydration } from './typedBeforeHydration'

export interface PasswordInputProps extends InputProps {
  autoComplete?: 'current-password' | 'new-password'
}

/** A password input with a show/hide toggle. */
export default function PasswordInput(props: PasswordInputProps) {
  const { id, label, value, onChange, error, hint, optional, autoComplete = 'current-password' } = props
  const [visible, setVisible] = useState(false)
  useTypedBeforeHydration(id, value, onChange)
  return (
    <Field id={id} label={label} hint={hint} error={error} optional={optional}>
      <div className="relative">
        <input {...inputAttributes(props, error)} type={visible ? 'text' : 'password'} autoComplete={autoComplete} spellCheck={false} className="field-input pr-16" />
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
