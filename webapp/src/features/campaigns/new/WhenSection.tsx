import type { Dispatch } from 'react'
import { FrequencyOneTime, FrequencyOngoing, FrequencyWeekly } from '../../../platform/api-types/campaigns'
import { addDays, formatDisplayDate } from '../../../platform/dates'
import DateInput from '../../../platform/inputs/DateInput'
import { weeksOf, type FormAction, type FormState } from './formState'
import { endDateFor, type Frequency } from './rules'

const NOT_MONDAY = [0, 2, 3, 4, 5, 6] as const
const NOT_SUNDAY = [1, 2, 3, 4, 5, 6] as const

const frequencyOptions: { value: Frequency; label: string; hint: string }[] = [
  { value: FrequencyOneTime, label: 'One week', hint: 'A single Monday-to-Sunday week.' },
  { value: FrequencyWeekly, label: 'Specified end date', hint: 'Every week until the Sunday you choose (up to 52 weeks).' },
  { value: FrequencyOngoing, label: 'Ongoing', hint: 'Week after week until you stop it; each week is booked the Wednesday before.' },
]

/** When the campaign runs: the Monday start, the frequency, the Sunday end and the duration (B §4). */
export default function WhenSection({
  state: { fields, ui },
  dispatch,
  locked,
  start,
  earliest,
  today,
  startError,
  endError,
  maxWeeks,
}: {
  state: FormState
  dispatch: Dispatch<FormAction>
  locked: boolean
  /** The parsed start date, or null while it is not a date. */
  start: Date | null
  earliest: Date
  today: Date
  startError: string | null
  endError: string | null
  maxWeeks: number
}) {
  const { frequency } = fields
  const weeks = weeksOf(fields)
  const shownEnd = start ? endDateFor(start, weeks) : null
  return (
    <section className="card space-y-4 p-4 sm:p-6" aria-labelledby="when-title" data-tour="scheduling">
      <h2 id="when-title" className="text-lg font-semibold text-slate-900">
        When
      </h2>
      <div className="grid gap-4 md:grid-cols-3">
        <div data-tour="start-date" data-field="startDate">
          <DateInput id="campaign-start" label="Start date (a Monday)" value={fields.startText} onChange={(text) => dispatch({ type: 'startChanged', text })} min={earliest} disabledWeekdays={NOT_MONDAY} today={today} error={ui.errors.startDate ?? startError} disabled={locked} />
        </div>
        <fieldset data-tour="frequency">
          <legend className="text-sm font-medium text-slate-700">Frequency</legend>
          <div className="mt-1.5 space-y-1.5">
            {frequencyOptions.map((o) => (
              <label key={o.value} className="flex items-start gap-2 text-sm text-slate-700">
                <input type="radio" name="frequency" className="mt-1" checked={frequency === o.value} onChange={() => dispatch({ type: 'frequencyChanged', frequency: o.value })} />
                <span>
                  <span className="font-medium">{o.label}</span>
                  <span className="block text-xs text-slate-500">{o.hint}</span>
                </span>
              </label>
            ))}
          </div>
        </fieldset>
        <div data-tour="end-date" data-field="endDate">
          {frequency === FrequencyWeekly ? (
            <DateInput id="campaign-end" label="End date (a Sunday)" value={fields.endText} onChange={(text) => dispatch({ type: 'endChanged', text })} min={start ? addDays(start, 6) : undefined} disabledWeekdays={NOT_SUNDAY} today={today} error={ui.errors.endDate ?? endError} disabled={locked} />
          ) : (
            <div className="space-y-1.5">
              <p className="text-sm font-medium text-slate-700">End date</p>
              <p className="rounded-lg bg-slate-50 px-3 py-2 text-sm text-slate-700">{shownEnd ? `${formatDisplayDate(shownEnd)}${frequency === FrequencyOngoing ? ', then week after week' : ''}` : '—'}</p>
            </div>
          )}
        </div>
      </div>
      <p className="text-sm text-slate-700" data-field="duration" data-testid="duration">
        Duration: <strong>{weeks} {weeks === 1 ? 'week' : 'weeks'}</strong>
        {weeks <= maxWeeks && <span className="text-slate-500"> (at most {maxWeeks})</span>}
      </p>
      {ui.errors.duration && (
        <p role="alert" className="text-sm text-red-600">
          {ui.errors.duration}
        </p>
      )}
    </section>
  )
}
