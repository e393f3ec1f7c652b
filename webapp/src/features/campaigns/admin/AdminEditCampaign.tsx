import { useState, type FormEvent } from 'react'
import { useDispatch } from 'react-redux'
import { Link, useNavigate, useParams } from 'react-router'
import Alert from '../../../platform/Alert'
import Modal from '../../../platform/Modal'
import Spinner from '../../../platform/Spinner'
import {
  DefaultWeeklyDuration,
  FrequencyOneTime,
  FrequencyOngoing,
  FrequencyWeekly,
  MsgMailerSent,
  MsgUpdated,
  type CampaignDetail,
  type CampaignLocation,
} from '../../../platform/api-types/campaigns'
import { addDays, apiToInputDate, formatDisplayDate, formatInputDate, parseApiDate, parseInputDate, startOfDay } from '../../../platform/dates'
import { flash, flashShown } from '../../../platform/flash/flash'
import { useFocusFirstInvalid } from '../../../platform/forms'
import { errorMessage } from '../../../platform/http'
import DateInput from '../../../platform/inputs/DateInput'
import TextInput from '../../../platform/inputs/TextInput'
import { formatDollars } from '../../../platform/money'
import { useAdminUpdateMailerMutation } from '../adminApi'
import { useCampaignQuery, useUpdateCampaignMutation } from '../api'
import {
  ALL_BUT_MONDAY,
  ALL_BUT_SUNDAY,
  isOneTime,
  isOngoing,
  minEndDate,
  NAME_MAX,
  oneTimeEndDate,
  toCampaignForm,
  validateAdminEdit,
  type AdminEditErrors,
  type AdminEditValues,
} from './adminRules'
import StatusBadge from '../list/StatusBadge'
import { creativeImageUrl } from '../detail/detailRules'
import PreflightSection from '../new/PreflightSection'

export const MAILER_TITLE = 'Update mailer'
export const MAILER_QUESTION = 'Do you want to email the advertiser that their campaign has been updated?'
export const MSG_ENDED = 'This campaign has ended and can no longer be edited.'

const FREQUENCIES = [
  { value: FrequencyOneTime, label: 'One week' },
  { value: FrequencyWeekly, label: 'Specified end date' },
  { value: FrequencyOngoing, label: 'Ongoing' },
]

function initialValues(c: CampaignDetail): AdminEditValues {
  return {
    name: c.name,
    startDate: apiToInputDate(c.start_date),
    endDate: apiToInputDate(c.end_date),
    frequency: isOngoing(c.frequency) ? FrequencyOngoing : c.frequency,
    locations: (c.locations ?? []).map((l) => l.id),
  }
}

/**
 * Issue 29: the admin's review of the campaign's creatives: each creative's pre-flight on the faces
 * that show it, with the in-situ preview (at most three creatives, the campaign's usual case is one).
 */
function CampaignCreativesReview({ locations }: { locations: CampaignLocation[] }) {
  const groups = new Map<string, CampaignLocation[]>()
  for (const l of locations) if (l.creative_id) groups.set(l.creative_id, [...(groups.get(l.creative_id) ?? []), l])
  if (groups.size === 0) return <p className="text-sm text-slate-600">This campaign has no creative to review yet.</p>
  return (
    <div className="space-y-4">
      {[...groups.entries()].slice(0, 3).map(([id, faces]) => (
        <PreflightSection
          key={id}
          title={`Creative review: pre-flight on ${faces.length} face${faces.length === 1 ? '' : 's'}`}
          creative={{ id, name: 'The campaign’s creative', awsUrl: creativeImageUrl(faces[0]!.creativeUrl) }}
          faces={faces}
        />
      ))}
    </div>
  )
}

/** /admin/campaigns/edit/{id} (B §2, §5): an admin edits any company's campaign. */
export default function AdminEditCampaign() {
  const { id = '' } = useParams()
  const campaign = useCampaignQuery(id, { refetchOnMountOrArgChange: true })

  return (
    <div className="mx-auto max-w-3xl space-y-6">
      <div className="flex flex-col gap-2 sm:flex-row sm:items-end sm:justify-between">
        <div>
          <h1 className="text-2xl font-semibold text-slate-900 sm:text-3xl">Edit campaign</h1>
          {campaign.data && (
            <p className="mt-1 flex flex-wrap items-center gap-2 text-slate-600">
              <span>{campaign.data.companyName}</span>
              <StatusBadge status={campaign.data.status} />
              <span>{campaign.data.campaignType}</span>
            </p>
          )}
        </div>
        <div className="flex gap-2">
          <Link to={`/admin/campaigns/edit/week/${encodeURIComponent(id)}`} className="btn-secondary">
            Edit weeks
          </Link>
          <Link to="/admin/campaigns" className="btn-ghost">
            Back to campaigns
          </Link>
        </div>
      </div>
      {campaign.isLoading && <Spinner label="Loading the campaign" />}
      {campaign.isError && <Alert>{errorMessage(campaign.error)}</Alert>}
      {campaign.data && <EditForm key={campaign.data.id} campaign={campaign.data} />}
    </div>
  )
}

/**
 * B §5: a one-time (or ongoing) campaign always ends 6 days after its start; a specified end date
 * is at least a week after it (a new one defaults to the weekly duration, B §4).
 */
function withEndDate(values: AdminEditValues): AdminEditValues {
  const start = parseInputDate(values.startDate)
  if (!start) return values
  if (isOneTime(values.frequency) || isOngoing(values.frequency)) {
    const end = formatInputDate(oneTimeEndDate(start))
    return values.endDate === end ? values : { ...values, endDate: end }
  }
  const end = parseInputDate(values.endDate)
  return !end || end < minEndDate(start, values.frequency) ? { ...values, endDate: formatInputDate(addDays(start, 7 * DefaultWeeklyDuration - 1)) } : values
}

function EditForm({ campaign }: { campaign: CampaignDetail }) {
  const [values, setValues] = useState<AdminEditValues>(() => withEndDate(initialValues(campaign)))
  const [errors, setErrors] = useState<AdminEditErrors>({})
  const [formError, setFormError] = useState<string | null>(null)
  const [mailerOpen, setMailerOpen] = useState(false)
  const [update, updating] = useUpdateCampaignMutation()
  const { ref, focusInvalid } = useFocusFirstInvalid<HTMLFormElement>()
  const dispatch = useDispatch()
  const navigate = useNavigate()
  const today = startOfDay(new Date())
  // A running campaign keeps its start, which is already past: the picker allows it.
  const campaignStart = parseApiDate(campaign.start_date)
  const earliest = campaignStart && campaignStart < today ? campaignStart : today
  const start = parseInputDate(values.startDate)
  const locations = campaign.locations ?? []

  const set = <K extends keyof AdminEditValues>(key: K, value: AdminEditValues[K]) => {
    // Only a change of start or frequency moves the end date.
    setValues((v) => (key === 'startDate' || key === 'frequency' ? withEndDate({ ...v, [key]: value }) : { ...v, [key]: value }))
    setErrors((e) => ({ ...e, [key]: undefined }))
  }


  const toggleLocation = (faceId: string, checked: boolean) =>
    set('locations', checked ? [...values.locations, faceId] : values.locations.filter((l) => l !== faceId))

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault()
    const found = validateAdminEdit(values)
    setErrors(found)
    setFormError(found.locations ?? null)
    if (Object.keys(found).length > 0) {
      focusInvalid()
      return
    }
    try {
      const answer = await update({ id: campaign.id, form: toCampaignForm(campaign, values) }).unwrap()
      dispatch(flashShown(answer?.message || MsgUpdated, 'success'))
      setMailerOpen(true)
    } catch (error) {
      const message = errorMessage(error)
      dispatch(flashShown(`Sorry! ${message}`, 'danger'))
      setFormError(`Sorry! ${message}`)
      window.scrollTo?.({ top: 0 })
    }
  }

  return (
    <>
      <form ref={ref} noValidate onSubmit={onSubmit} className="card space-y-6 p-4 sm:p-6" aria-label="Edit campaign">
        {formError && <Alert>{formError}</Alert>}
        {!campaign.editable && <Alert tone="info">{MSG_ENDED}</Alert>}
        <TextInput id="campaign-name" label="Campaign name" value={values.name} maxLength={NAME_MAX} onChange={(v) => set('name', v)} error={errors.name} />

        <div className="space-y-1.5">
          <label htmlFor="campaign-frequency" className="block text-sm font-medium text-slate-700">
            Frequency
          </label>
          <select id="campaign-frequency" className="field-input" value={values.frequency} onChange={(e) => set('frequency', e.target.value)}>
            {FREQUENCIES.map((f) => (
              <option key={f.value} value={f.value}>
                {f.label}
              </option>
            ))}
          </select>
        </div>

        <div className="grid gap-4 sm:grid-cols-2">
          <DateInput
            id="campaign-start"
            label="Start date"
            value={values.startDate}
            onChange={(v) => set('startDate', v)}
            disabledWeekdays={ALL_BUT_MONDAY}
            min={earliest}
            today={today}
            hint="mm/dd/yyyy, a Monday"
            error={errors.startDate}
          />
          {isOneTime(values.frequency) || isOngoing(values.frequency) ? (
            <div className="space-y-1.5">
              <span className="block text-sm font-medium text-slate-700">End date</span>
              <p className="rounded-lg border border-slate-200 bg-slate-50 px-3 py-2 text-slate-700" aria-live="polite">
                {start ? formatDisplayDate(oneTimeEndDate(start)) : '—'}
              </p>
              <p className="text-xs text-slate-500">
                {isOneTime(values.frequency) ? 'A one-week campaign ends 6 days after it starts.' : 'An ongoing campaign is extended each week until it is stopped.'}
              </p>
            </div>
          ) : (
            <DateInput
              id="campaign-end"
              label="End date"
              value={values.endDate}
              onChange={(v) => set('endDate', v)}
              disabledWeekdays={ALL_BUT_SUNDAY}
              min={start ? minEndDate(start, values.frequency) : today}
              today={today}
              hint="mm/dd/yyyy, a Sunday at least a week after the start"
              error={errors.endDate}
            />
          )}
        </div>

        <fieldset className="space-y-2" aria-describedby={errors.locations ? 'campaign-locations-error' : undefined}>
          <legend className="text-sm font-medium text-slate-700">Locations</legend>
          {locations.length === 0 && <p className="text-sm text-slate-500">This campaign has no locations.</p>}
          <ul className="divide-y divide-slate-100 rounded-lg border border-slate-200">
            {locations.map((l) => {
              const checked = values.locations.includes(l.id)
              return (
                <li key={l.id} className="flex items-center gap-3 px-3 py-2">
                  <input
                    id={`location-${l.id}`}
                    type="checkbox"
                    className="h-4 w-4 accent-brand-700"
                    checked={checked}
                    aria-invalid={errors.locations ? true : undefined}
                    onChange={(e) => toggleLocation(l.id, e.target.checked)}
                  />
                  <label htmlFor={`location-${l.id}`} className="flex-1 text-sm text-slate-700">
                    <span className="font-medium text-slate-900">{l.location_name}</span>
                    {l.face ? ` (${l.face})` : ''} · {[l.city, l.market].filter(Boolean).join(', ')}
                  </label>
                </li>
              )
            })}
          </ul>
          {errors.locations && (
            <p id="campaign-locations-error" className="text-sm text-red-600">
              {errors.locations}
            </p>
          )}
        </fieldset>

        <dl className="grid gap-2 text-sm text-slate-600 sm:grid-cols-3">
          <div>
            <dt className="font-medium text-slate-700">Weekly budget</dt>
            <dd className="tabular-nums">{formatDollars(campaign.weekly_budget)}</dd>
          </div>
          <div>
            <dt className="font-medium text-slate-700">Market</dt>
            <dd>{(campaign.market ?? []).join(', ') || campaign.place_name || '—'}</dd>
          </div>
          <div>
            <dt className="font-medium text-slate-700">Company</dt>
            <dd>{campaign.companyName}</dd>
          </div>
        </dl>

        <div className="flex flex-wrap justify-end gap-2">
          <Link to="/admin/campaigns" className="btn-secondary">
            Cancel
          </Link>
          <button type="submit" className="btn-primary" disabled={updating.isLoading || !campaign.editable}>
            {updating.isLoading ? 'Updating…' : 'Update campaign'}
          </button>
        </div>
      </form>
      <CampaignCreativesReview locations={locations} />
      <UpdateMailer
        open={mailerOpen}
        campaignId={campaign.id}
        onDone={() => {
          setMailerOpen(false)
          navigate('/admin/campaigns')
        }}
        onFlash={(text, type) => dispatch(flash(text, type, { nextPage: true }))}
      />
    </>
  )
}

/** B §2: the 'update mailer' confirm: email the advertiser through the outbox, or not. */
function UpdateMailer({
  open,
  campaignId,
  onDone,
  onFlash,
}: {
  open: boolean
  campaignId: string
  onDone: () => void
  onFlash: (text: string, type: 'success' | 'danger') => void
}) {
  const [note, setNote] = useState('')
  const [send, sending] = useAdminUpdateMailerMutation()
  const onSend = async () => {
    try {
      const answer = await send({ campaign_id: campaignId, message: note.trim() }).unwrap()
      onFlash(answer?.message || MsgMailerSent, 'success')
    } catch (error) {
      onFlash(`Sorry! ${errorMessage(error)}`, 'danger')
    }
    onDone()
  }
  return (
    <Modal
      open={open}
      title={MAILER_TITLE}
      onClose={onDone}
      size="sm"
      closeOnBackdrop={false}
      footer={
        <>
          <button type="button" className="btn-secondary" onClick={onDone} disabled={sending.isLoading}>
            Don’t email
          </button>
          <button type="button" className="btn-primary" onClick={onSend} disabled={sending.isLoading}>
            Email the advertiser
          </button>
        </>
      }
    >
      <div className="space-y-3">
        <p className="text-slate-700">{MAILER_QUESTION}</p>
        <TextInput id="mailer-note" label="A note for the advertiser" value={note} onChange={setNote} multiline rows={3} maxLength={1000} optional />
      </div>
    </Modal>
  )
}
