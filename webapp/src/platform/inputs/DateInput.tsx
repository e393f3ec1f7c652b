import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react'
import { addDays, formatInputDate, parseInputDate, sameDay, startOfDay, WEEKDAY_NAMES } from '../dates'
import { earliestDate, isSelectable, maskDateInput, validateDate, type DateRules } from './dateRules'
import Field, { describedBy } from './Field'

export interface DateInputProps {
  id: string
  label: string
  /** The typed text, mm/dd/yyyy. */
  value: string
  onChange: (value: string) => void
  /** The earliest day; today when absent (A §5). */
  min?: Date
  max?: Date
  /** Weekday numbers (0 = Sunday … 6 = Saturday) that cannot be chosen, e.g. all but Monday. */
  disabledWeekdays?: readonly number[]
  /** Today from the caller's clock; the browser's today when absent. */
  today?: Date
  error?: string | null
  hint?: string
  disabled?: boolean
}

const MONTH_NAMES = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December']

/**
 * A date input (A §5): mm/dd/yyyy typed or picked from a calendar; days before the minimum and
 * disabled weekdays cannot be chosen; an empty date is invalid. Its rule error shows once the
 * field is left; a form shows it on submit through `error`.
 */
export default function DateInput({ id, label, value, onChange, min, max, disabledWeekdays, today, error, hint, disabled }: DateInputProps) {
  const [touched, setTouched] = useState(false)
  const [open, setOpen] = useState(false)
  const toggle = useRef<HTMLButtonElement>(null)
  const rules: DateRules = { today: today ?? new Date(), min, max, disabledWeekdays }
  const shown = error || (touched ? validateDate(value, rules) : null)
  const calendarId = `${id}-calendar`

  return (
    <Field id={id} label={label} hint={hint ?? 'mm/dd/yyyy'} error={shown}>
      <div className="relative">
        <input
          id={id}
          name={id}
          type="text"
          inputMode="numeric"
          autoComplete="off"
          placeholder="mm/dd/yyyy"
          maxLength={10}
          className="field-input pr-12 tabular-nums"
          value={value}
          disabled={disabled}
          aria-invalid={shown ? true : undefined}
          aria-describedby={describedBy(id, hint ?? 'mm/dd/yyyy', shown)}
          onChange={(e) => onChange(maskDateInput(e.target.value))}
          onBlur={() => setTouched(true)}
        />
        <button
          ref={toggle}
          type="button"
          className="absolute inset-y-0 right-0 flex items-center rounded-r-lg px-3 text-slate-500 hover:bg-slate-100 disabled:opacity-50"
          aria-label={`Choose ${label.toLowerCase()}`}
          aria-expanded={open}
          aria-controls={open ? calendarId : undefined}
          disabled={disabled}
          onClick={() => setOpen((o) => !o)}
        >
          <svg aria-hidden="true" viewBox="0 0 24 24" className="h-5 w-5" fill="none" stroke="currentColor" strokeWidth="2">
            <rect x="3" y="5" width="18" height="16" rx="2" />
            <path d="M16 3v4M8 3v4M3 11h18" />
          </svg>
        </button>
        {open && (
          <Calendar
            id={calendarId}
            label={label}
            rules={rules}
            selected={parseInputDate(value)}
            onPick={(date) => {
              onChange(formatInputDate(date))
              setTouched(true)
              setOpen(false)
              toggle.current?.focus()
            }}
            onClose={() => {
              setOpen(false)
              toggle.current?.focus()
            }}
          />
        )}
      </div>
    </Field>
  )
}

interface CalendarProps {
  id: string
  label: string
  rules: DateRules
  selected: Date | null
  onPick: (date: Date) => void
  onClose: () => void
}

function firstSelectable(from: Date, rules: DateRules): Date {
  let date = startOfDay(from)
  for (let i = 0; i < 366 && !isSelectable(date, rules); i += 1) date = addDays(date, 1)
  return date
}

function Calendar({ id, label, rules, selected, onPick, onClose }: CalendarProps) {
  const headingId = useId()
  const start = selected ?? firstSelectable(earliestDate(rules), rules)
  const [focused, setFocused] = useState(start)
  const [month, setMonth] = useState(new Date(start.getFullYear(), start.getMonth(), 1))
  const grid = useRef<HTMLDivElement>(null)

  useEffect(() => {
    grid.current?.querySelector<HTMLButtonElement>('button[tabindex="0"]')?.focus()
  }, [focused, month])

  const move = (days: number) => {
    const next = addDays(focused, days)
    setFocused(next)
    setMonth(new Date(next.getFullYear(), next.getMonth(), 1))
  }

  const onKeyDown = (event: KeyboardEvent) => {
    const steps: Record<string, number> = { ArrowLeft: -1, ArrowRight: 1, ArrowUp: -7, ArrowDown: 7 }
    if (event.key in steps) {
      event.preventDefault()
      move(steps[event.key]!)
    } else if (event.key === 'Escape') {
      event.preventDefault()
      event.stopPropagation()
      onClose()
    }
  }

  const first = month
  const lead = first.getDay()
  const daysInMonth = new Date(first.getFullYear(), first.getMonth() + 1, 0).getDate()
  const cells: (Date | null)[] = [
    ...Array.from({ length: lead }, () => null),
    ...Array.from({ length: daysInMonth }, (_, i) => new Date(first.getFullYear(), first.getMonth(), i + 1)),
  ]
  const focusInMonth = focused.getMonth() === month.getMonth() && focused.getFullYear() === month.getFullYear()

  return (
    <div
      id={id}
      role="group"
      aria-labelledby={headingId}
      className="absolute right-0 z-40 mt-2 w-72 rounded-xl border border-slate-200 bg-white p-3 shadow-xl"
      onKeyDown={onKeyDown}
    >
      <div className="mb-2 flex items-center justify-between">
        <button type="button" className="rounded-lg p-1.5 hover:bg-slate-100" aria-label="Previous month" onClick={() => setMonth(new Date(month.getFullYear(), month.getMonth() - 1, 1))}>
          <span aria-hidden="true">‹</span>
        </button>
        <p id={headingId} className="text-sm font-semibold" aria-live="polite">
          <span className="sr-only">{label}: </span>
          {MONTH_NAMES[month.getMonth()]} {month.getFullYear()}
        </p>
        <button type="button" className="rounded-lg p-1.5 hover:bg-slate-100" aria-label="Next month" onClick={() => setMonth(new Date(month.getFullYear(), month.getMonth() + 1, 1))}>
          <span aria-hidden="true">›</span>
        </button>
      </div>
      <div className="grid grid-cols-7 text-center text-xs text-slate-500" aria-hidden="true">
        {WEEKDAY_NAMES.map((d) => (
          <span key={d}>{d.slice(0, 2)}</span>
        ))}
      </div>
      <div ref={grid} className="mt-1 grid grid-cols-7 gap-0.5">
        {cells.map((date, i) => {
          if (!date) return <span key={`lead-${i}`} />
          const allowed = isSelectable(date, rules)
          const isSelected = !!selected && sameDay(date, selected)
          const tabbable = focusInMonth ? sameDay(date, focused) : date.getDate() === 1
          return (
            <button
              key={date.getDate()}
              type="button"
              tabIndex={tabbable ? 0 : -1}
              aria-disabled={!allowed || undefined}
              aria-pressed={isSelected}
              aria-label={`${WEEKDAY_NAMES[date.getDay()]}, ${MONTH_NAMES[date.getMonth()]} ${date.getDate()}, ${date.getFullYear()}`}
              className={`h-9 rounded-lg text-sm tabular-nums ${
                isSelected ? 'bg-brand-700 text-white' : allowed ? 'hover:bg-brand-50' : 'cursor-not-allowed text-slate-300 line-through'
              }`}
              onFocus={() => setFocused(date)}
              onClick={() => allowed && onPick(date)}
            >
              {date.getDate()}
            </button>
          )
        })}
      </div>
      <div className="mt-2 flex justify-end">
        <button type="button" className="btn-ghost px-2 py-1 text-xs" onClick={onClose}>
          Close
        </button>
      </div>
    </div>
  )
}
