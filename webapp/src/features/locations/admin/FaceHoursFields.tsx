import { useId, useMemo, useState, type FormEvent } from 'react'
import Alert from '../../../platform/Alert'
import { useFocusFirstInvalid } from '../../../platform/forms'
import { errorMessage, isApiError } from '../../../platform/http'
import Field, { describedBy } from '../../../platform/inputs/Field'
import { useUpdateFaceHoursMutation, type FaceWithGeometry } from './faceAdminApi'
import { nowIn, validateHours, type HoursDraft, type HoursErrors } from './faceHoursRules'

/** The zones the browser knows, for the time zone's suggestions (any IANA name may be typed). */
function zoneSuggestions(): string[] {
  const intl = Intl as typeof Intl & { supportedValuesOf?: (key: 'timeZone') => string[] }
  return intl.supportedValuesOf?.('timeZone') ?? []
}

/**
 * Issue 28: a face's time zone and daily operating hours. Its screen plays only within them, in
 * its zone; the screen health alerts and the impressions of a play follow them (docs/screens.md
 * "Hours and time zone"). Saved on its own (PUT /api/admin/faces/{id}/hours), audited.
 */
export default function FaceHoursFields({ face }: { face: FaceWithGeometry }) {
  const ids = useId()
  const [draft, setDraft] = useState<HoursDraft>(() => ({
    timezone: face.hours?.timezone ?? '',
    open: face.hours?.open ?? '06:00',
    close: face.hours?.close ?? '24:00',
  }))
  const [errors, setErrors] = useState<HoursErrors>({})
  const [failure, setFailure] = useState<string | null>(null)
  const [saved, setSaved] = useState(false)
  const [save, { isLoading }] = useUpdateFaceHoursMutation()
  const { ref, focusInvalid } = useFocusFirstInvalid()
  const zones = useMemo(() => zoneSuggestions(), [])
  const set = (patch: Partial<HoursDraft>) => {
    setSaved(false)
    setErrors({})
    setDraft((d) => ({ ...d, ...patch }))
  }

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault()
    setFailure(null)
    const next = validateHours(draft)
    setErrors(next)
    if (next.timezone || next.open || next.close) {
      focusInvalid()
      return
    }
    try {
      await save({ id: face.id, body: draft }).unwrap()
      setSaved(true)
    } catch (error) {
      const fields = isApiError(error) ? error.errors : {}
      setErrors({ timezone: fields.timezone, open: fields.open, close: fields.close })
      setFailure(errorMessage(error))
    }
  }

  const localNow = nowIn(draft.timezone)
  const clockField = (key: 'open' | 'close', label: string, hint: string) => (
    <Field id={`${ids}-${key}`} label={label} hint={hint} error={errors[key]}>
      <input
        id={`${ids}-${key}`}
        name={key}
        type="text"
        inputMode="numeric"
        autoComplete="off"
        placeholder="HH:MM"
        maxLength={5}
        className="field-input"
        value={draft[key]}
        aria-invalid={errors[key] ? true : undefined}
        aria-describedby={describedBy(`${ids}-${key}`, hint, errors[key])}
        onChange={(e) => set({ [key]: e.target.value })}
      />
    </Field>
  )

  return (
    <form ref={ref} noValidate onSubmit={onSubmit} className="space-y-4 border-t border-slate-200 pt-5" aria-labelledby={`${ids}-title`}>
      <div>
        <h3 id={`${ids}-title`} className="text-base font-semibold text-slate-900">
          Operating hours
        </h3>
        <p className="mt-1 text-sm text-slate-600">The screen plays only within these hours, on the face&apos;s own clock. A screen silent for an hour within them alerts the operations inbox.</p>
      </div>
      {failure && <Alert>{failure}</Alert>}
      {saved && <Alert tone="success">The hours are saved.</Alert>}
      <Field id={`${ids}-zone`} label="Time zone" hint={localNow ? `Now ${localNow} there.` : 'An IANA name, such as America/Los_Angeles.'} error={errors.timezone}>
        <input
          id={`${ids}-zone`}
          name="timezone"
          type="text"
          list={`${ids}-zones`}
          autoComplete="off"
          spellCheck={false}
          maxLength={64}
          className="field-input"
          value={draft.timezone}
          aria-invalid={errors.timezone ? true : undefined}
          aria-describedby={describedBy(`${ids}-zone`, true, errors.timezone)}
          onChange={(e) => set({ timezone: e.target.value })}
        />
      </Field>
      <datalist id={`${ids}-zones`}>
        {zones.map((z) => (
          <option key={z} value={z} />
        ))}
      </datalist>
      <div className="grid grid-cols-2 gap-3">
        {clockField('open', 'Opens', 'HH:MM, 00:00 for midnight.')}
        {clockField('close', 'Closes', 'HH:MM, 24:00 for midnight.')}
      </div>
      <div className="flex justify-end">
        <button type="submit" className="btn-primary" disabled={isLoading}>
          {isLoading ? 'Saving…' : 'Save hours'}
        </button>
      </div>
    </form>
  )
}
