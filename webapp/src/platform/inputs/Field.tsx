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
