import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react'
import { PlacesAttribution, type PlacePrediction } from '../../../platform/api-types/locations'
import { errorMessage } from '../../../platform/http'
import Field, { describedBy } from '../../../platform/inputs/Field'
import Spinner from '../../../platform/Spinner'
import { usePlacePredictionsQuery } from './api'
import { PLACE_BLUR_DEBOUNCE_MS, PLACE_DEBOUNCE_MS } from '../../../platform/map/viewRules'

// Fewer letters than this match too many places to be useful.
const MIN_INPUT = 2

export interface PlaceSearchProps {
  id: string
  label: string
  onPick: (place: PlacePrediction) => void
  /** An error about the picked place (its details failed), shown under the field. */
  error?: string | null
  /** The place already chosen (the edit form's); it is not looked up until the user types. */
  initial?: string
  disabled?: boolean
}

/**
 * A US place by name or street address (B §3 "Map place"), on the locations page and as the campaign form's address
 * of strategy 0 (B §2): predictions are asked 500 ms after the typing stops and
 * the list closes 250 ms after the field is left (B §9), so a click on a prediction still lands.
 * Arrow keys move through the list, Enter picks, Escape closes (WAI-ARIA combobox). A street
 * address that the server could not look up comes back as the town it names, marked approximate:
 * the list says so, and once picked its note stays under the field.
 */
export default function PlaceSearch({ id, label, onPick, error, initial, disabled }: PlaceSearchProps) {
  const [text, setText] = useState(initial ?? '')
  const [term, setTerm] = useState('')
  const [typed, setTyped] = useState(false)
  const [open, setOpen] = useState(false)
  const [active, setActive] = useState(-1)
  const [note, setNote] = useState<string | null>(null)
  const blurTimer = useRef<number | undefined>(undefined)
  const listId = useId()

  useEffect(() => {
    const timer = window.setTimeout(() => setTerm(text.trim()), PLACE_DEBOUNCE_MS)
    return () => window.clearTimeout(timer)
  }, [text])
  useEffect(() => () => window.clearTimeout(blurTimer.current), [])

  const skip = term.length < MIN_INPUT || !typed
  const predictions = usePlacePredictionsQuery(term, { skip })
  const options = skip ? [] : (predictions.data ?? [])
  const waiting = text.trim() !== term || predictions.isFetching
  // B §8: prediction errors reject with the service status; the field shows its message.
  const shownError = error ?? (predictions.isError && !skip ? errorMessage(predictions.error) : null)
  const expanded = open && !skip && !waiting && (options.length > 0 || predictions.isSuccess)

  const pick = (place: PlacePrediction) => {
    setText(place.value)
    setTerm(place.value)
    setOpen(false)
    setActive(-1)
    setNote(place.approximate && place.note ? place.note : null)
    onPick(place)
  }

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault()
      setOpen(true)
      if (options.length === 0) return
      const step = event.key === 'ArrowDown' ? 1 : -1
      setActive((i) => (i + step + options.length) % options.length)
    } else if (event.key === 'Enter') {
      const choice = options[active] ?? (options.length === 1 ? options[0] : undefined)
      // Enter never submits the surrounding form (the campaign form's): it picks, or does nothing.
      event.preventDefault()
      if (expanded && choice) pick(choice)
    } else if (event.key === 'Escape' && open) {
      event.preventDefault()
      setOpen(false)
      setActive(-1)
    }
  }

  const hint = 'Type a city, a town or a street address, then choose it from the list'
  const noteId = `${id}-note`
  return (
    <Field id={id} label={label} hint={hint} error={shownError}>
      <div className="relative">
        <input
          id={id}
          type="text"
          role="combobox"
          autoComplete="off"
          className="field-input pr-10"
          placeholder="e.g. San Francisco"
          value={text}
          disabled={disabled}
          aria-autocomplete="list"
          aria-expanded={expanded}
          aria-controls={listId}
          aria-activedescendant={expanded && active >= 0 ? `${listId}-${active}` : undefined}
          aria-invalid={shownError ? true : undefined}
          aria-describedby={describedBy(id, hint, shownError, note ? noteId : undefined)}
          onChange={(e) => {
            setText(e.target.value)
            setNote(null)
            setTyped(true)
            setOpen(true)
            setActive(-1)
          }}
          onFocus={() => {
            window.clearTimeout(blurTimer.current)
            setOpen(true)
          }}
          onBlur={() => {
            blurTimer.current = window.setTimeout(() => setOpen(false), PLACE_BLUR_DEBOUNCE_MS)
          }}
          onKeyDown={onKeyDown}
        />
        {open && !skip && waiting && (
          <span className="absolute inset-y-0 right-3 flex items-center">
            <Spinner label="Looking up places" className="h-4 w-4" />
          </span>
        )}
        <div hidden={!expanded} className="absolute z-[1100] mt-1 w-full overflow-hidden rounded-lg border border-slate-200 bg-white shadow-lg">
          <ul id={listId} role="listbox" aria-label={`${label} suggestions`} className="max-h-72 overflow-auto py-1">
            {options.map((place, i) => (
              <li
                key={place.id}
                id={`${listId}-${i}`}
                role="option"
                aria-selected={i === active}
                className={`cursor-pointer px-3 py-2 text-sm ${i === active ? 'bg-brand-50 text-brand-800' : 'text-slate-700 hover:bg-slate-50'}`}
                onMouseDown={(e) => e.preventDefault()}
                onClick={() => pick(place)}
              >
                {place.value}
                {place.approximate && <span className="block text-xs text-slate-500">Approximate: the town of this address</span>}
              </li>
            ))}
            {expanded && options.length === 0 && <li role="option" aria-selected={false} aria-disabled="true" className="px-3 py-2 text-sm text-slate-500">No US place matches “{term}”.</li>}
          </ul>
          {/* The place data's licence asks for this credit wherever predictions are shown. */}
          <p className="border-t border-slate-100 px-3 py-1.5 text-xs text-slate-500">{PlacesAttribution}</p>
        </div>
      </div>
      {note && (
        <p id={noteId} role="status" className="text-xs text-amber-800">
          {note}
        </p>
      )}
    </Field>
  )
}
