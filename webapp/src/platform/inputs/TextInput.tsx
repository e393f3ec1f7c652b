import type { Ref } from 'react'
import Field, { inputAttributes, type InputProps } from './Field'
import { counterText, validateText } from './textRules'
import { useTypedBeforeHydration } from './typedBeforeHydration'

export interface TextInputProps extends InputProps {
  /** Longer text is refused with '* Please reduce your description'; a 'length/max' counter shows. */
  maxLength?: number
  /** Only letters, digits, dot, underscore and space (A §5). */
  textOnly?: boolean
  multiline?: boolean
  rows?: number
  type?: 'text' | 'tel' | 'search' | 'url'
  disabled?: boolean
  placeholder?: string
  autoComplete?: string
  inputMode?: 'text' | 'tel' | 'numeric' | 'url'
  inputRef?: Ref<HTMLInputElement & HTMLTextAreaElement>
  onBlur?: () => void
}

/** A text input with the rules of A §5: the length counter and the text-only characters. */
export default function TextInput(props: TextInputProps) {
  const { id, label, value, onChange, maxLength, textOnly, multiline, rows = 4, type = 'text', error, hint, optional, disabled, placeholder, autoComplete, inputMode, inputRef, onBlur } = props
  useTypedBeforeHydration(id, value, onChange)
  // The character and length rules are shown as soon as the text breaks them.
  const shown = error || validateText(value, { maxLength, textOnly })
  const counterId = `${id}-counter`
  const counter =
    maxLength !== undefined ? (
      <span id={counterId} className={`text-xs tabular-nums ${[...value].length > maxLength ? 'text-red-600' : 'text-slate-500'}`}>
        {counterText(value, maxLength)}
      </span>
    ) : undefined
  const common = {
    ...inputAttributes(props, shown, maxLength !== undefined ? counterId : undefined),
    disabled,
    placeholder,
    autoComplete,
    className: 'field-input',
    onBlur,
  }
  return (
    <Field id={id} label={label} hint={hint} error={shown} aside={counter} optional={optional}>
      {multiline ? (
        <textarea {...common} ref={inputRef} rows={rows} />
      ) : (
        <input {...common} ref={inputRef} type={type} inputMode={inputMode} />
      )}
    </Field>
  )
}
