import { useLayoutEffect, useRef } from 'react'
import Field, { describedBy } from './Field'
import { formatMoney, parseMoney } from './moneyRules'
import { useTypedBeforeHydration } from './typedBeforeHydration'

/**
 * A dollar amount (A §5): everything but digits is stripped, and leading zeros; a '$' prefix is
 * shown, and '$0' while empty. The value is whole dollars, or null when empty.
 */
export default function MoneyInput(props: {
  id: string
  label: string
  value: number | null
  onChange: (value: number | null) => void
  error?: string
  hint?: string
}) {
  const { id, label, value, onChange, error, hint } = props
  const input = useRef<HTMLInputElement>(null)
  // Digits to the left of the caret after the last edit, to put the caret back after the
  // thousands separators move.
  const digitsBeforeCaret = useRef<number | null>(null)
  const text = formatMoney(value)
  useTypedBeforeHydration(id, text, (typed) => onChange(parseMoney(typed)))

  useLayoutEffect(() => {
    const el = input.current
    const wanted = digitsBeforeCaret.current
    if (!el || wanted === null || document.activeElement !== el) return
    digitsBeforeCaret.current = null
    let position = 0
    let seen = 0
    while (position < text.length && seen < wanted) {
      if (/\d/.test(text[position]!)) seen += 1
      position += 1
    }
    el.setSelectionRange(position, position)
  }, [text])

  return (
    <Field id={id} label={label} hint={hint} error={error}>
      <div className="relative">
        <span aria-hidden="true" className="pointer-events-none absolute inset-y-0 left-0 flex items-center pl-3 text-slate-500">
          $
        </span>
        <input
          ref={input}
          id={id}
          name={id}
          type="text"
          inputMode="numeric"
          autoComplete="off"
          className="field-input pl-7 tabular-nums"
          placeholder="0"
          value={text}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy(id, hint, error)}
          onChange={(e) => {
            const typed = e.target.value
            const caret = e.target.selectionStart ?? typed.length
            // Leading zeros are dropped, so they do not count towards the caret's place.
            const before = typed.slice(0, caret).replace(/\D/g, '')
            const droppedZeros = typed.replace(/\D/g, '').length - typed.replace(/\D/g, '').replace(/^0+/, '').length
            digitsBeforeCaret.current = Math.max(0, before.length - Math.min(droppedZeros, before.length))
            onChange(parseMoney(typed))
          }}
        />
      </div>
    </Field>
  )
}
