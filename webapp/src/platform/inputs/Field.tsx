import type { ReactNode } from 'react'

export interface FieldProps {
  id: string
  label: string
  hint?: ReactNode
  error?: string | null
  /** Shown at the right of the label, e.g. the 'length/max' counter. */
  aside?: ReactNode
  /** Says 'Optional' beside the label; fields are required unless marked so. */
  optional?: boolean
  children: ReactNode
}

export const hintId = (id: string) => `${id}-hint`
export const errorId = (id: string) => `${id}-error`

/** The ids an input points to with aria-describedby. */
export function describedBy(id: string, hint: unknown, error: unknown, extra?: string): string | undefined {
  const ids = [error ? errorId(id) : null, hint && !error ? hintId(id) : null, extra ?? null].filter(Boolean)
  return ids.length ? ids.join(' ') : undefined
}

/** What every text-like input of the app takes: a labelled field holding a string. */
export interface InputProps {
  id: string
  label: string
  value: string
  onChange: (value: string) => void
  error?: string | null
  hint?: string
  required?: boolean
  /** Shows 'Optional' beside the label. */
  optional?: boolean
}

/**
 * The attributes every such input sets from its props: its id and name, its value and change, and
 * the error (`shown`) and hint it is described by.
 */
export function inputAttributes({ id, value, onChange, required, hint }: InputProps, shown: string | null | undefined, extra?: string) {
  return {
    id,
    name: id,
    value,
    required,
    'aria-invalid': shown ? true : undefined,
    'aria-describedby': describedBy(id, hint, shown, extra),
    onChange: (e: { target: { value: string } }) => onChange(e.target.value),
  }
}

/** A label, the input, a hint and an inline error, tied together for assistive technology. */
export default function Field({ id, label, hint, error, aside, optional, children }: FieldProps) {
  return (
    <div className="space-y-1.5">
      <div className="flex items-baseline justify-between gap-2">
        <label htmlFor={id} className="block text-sm font-medium text-slate-700">
          {label}
        </label>
        {aside ?? (optional && <span className="text-xs text-slate-500">Optional</span>)}
      </div>
      {children}
      {hint && !error && (
        <p id={hintId(id)} className="text-xs text-slate-500">
          {hint}
        </p>
      )}
      {error && (
        <p id={errorId(id)} className="text-sm text-red-600">
          {error}
        </p>
      )}
    </div>
  )
}
