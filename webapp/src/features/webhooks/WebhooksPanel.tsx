import { useState, type FormEvent } from 'react'
import { useDispatch } from 'react-redux'
import Alert from '../../platform/Alert'
import Confirm from '../../platform/Confirm'
import Modal from '../../platform/Modal'
import Spinner from '../../platform/Spinner'
import { flashShown } from '../../platform/flash/flash'
import { errorMessage, isApiError } from '../../platform/http'
import type { Delivery, Endpoint } from '../../platform/api-types/webhooks'
import {
  useCreateWebhookEndpointMutation,
  useDeleteWebhookEndpointMutation,
  useRedeliverWebhookMutation,
  useSendWebhookTestMutation,
  useUpdateWebhookEndpointMutation,
  useWebhookDeliveriesQuery,
  useWebhookEndpointsQuery,
  useWebhookSecretMutation,
} from './api'

/** What each event type means, for the checkboxes (docs/api.md "Webhooks"). */
const EVENT_LABELS: Record<string, string> = {
  'campaign.activated': 'Campaign activated',
  'campaign.paused': 'Campaign paused',
  'campaign.completed': 'Campaign completed',
  'payment.failed': 'Payment failed',
  'week.delivered': 'Week delivered (impressions recorded)',
  'proof.added': 'Proof added',
  'report.ready': 'Report ready',
  'make_good.granted': 'Make-good granted',
}

function formatTime(iso: string | null | undefined): string {
  if (!iso) return ''
  return new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' })
}

const STATUS_STYLES: Record<string, string> = {
  succeeded: 'bg-emerald-100 text-emerald-800',
  pending: 'bg-amber-100 text-amber-900',
  failed: 'bg-red-100 text-red-800',
}

/** Shows a signing secret with a copy button (revealable again later: every delivery is signed with it). */
function SecretModal({ secret, onClose }: { secret: string; onClose: () => void }) {
  const dispatch = useDispatch()
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(secret)
      dispatch(flashShown('The secret has been copied.', 'success', 3000))
    } catch {
      dispatch(flashShown('Select the secret and copy it.', 'info', 3000))
    }
  }
  return (
    <Modal
      open={secret !== ''}
      title="Signing secret"
      onClose={onClose}
      footer={
        <>
          <button type="button" className="btn-secondary" onClick={copy}>
            Copy
          </button>
          <button type="button" className="btn-primary" onClick={onClose}>
            Done
          </button>
        </>
      }
    >
      <p className="text-sm text-slate-600">
        Verify the <code>Marquee-Signature</code> header of each delivery with this secret (see the API guide). Keep it private.
      </p>
      <p className="mt-3 rounded-lg bg-slate-100 p-3 font-mono text-sm break-all text-slate-900" data-testid="webhook-secret">
        {secret}
      </p>
    </Modal>
  )
}

/** Add or edit an endpoint: its URL, a description and the events it receives. */
function EndpointModal({ endpoint, eventTypes, open, onClose, onCreated }: {
  endpoint: Endpoint | null
  eventTypes: string[]
  open: boolean
  onClose: () => void
  onCreated: (secret: string) => void
}) {
  const dispatch = useDispatch()
  const [url, setUrl] = useState(endpoint?.url ?? '')
  const [description, setDescription] = useState(endpoint?.description ?? '')
  const [events, setEvents] = useState<string[]>(endpoint?.events ?? [])
  const [enabled, setEnabled] = useState(endpoint?.enabled ?? true)
  const [errors, setErrors] = useState<Record<string, string>>({})
  const [create, creating] = useCreateWebhookEndpointMutation()
  const [update, updating] = useUpdateWebhookEndpointMutation()
  const busy = creating.isLoading || updating.isLoading

  const toggle = (t: string) => setEvents((evs) => (evs.includes(t) ? evs.filter((e) => e !== t) : [...evs, t]))
  const submit = async (e: FormEvent) => {
    e.preventDefault()
    const local: Record<string, string> = {}
    if (!url.trim()) local.url = 'Please enter the URL of your receiver.'
    if (events.length === 0) local.events = 'Please choose at least one event.'
    setErrors(local)
    if (Object.keys(local).length > 0) return
    try {
      const body = { url: url.trim(), description, events, enabled: endpoint ? enabled : undefined }
      const answer = endpoint ? await update({ id: endpoint.id, body }).unwrap() : await create(body).unwrap()
      dispatch(flashShown(answer.message, 'success', 3000))
      onClose()
      if (answer.secret) onCreated(answer.secret)
    } catch (error) {
      if (isApiError(error) && Object.keys(error.errors).length > 0) setErrors(error.errors)
      else dispatch(flashShown(`Sorry! ${errorMessage(error)}`, 'danger'))
    }
  }

  return (
    <Modal
      open={open}
      title={endpoint ? 'Edit webhook endpoint' : 'Add webhook endpoint'}
      onClose={onClose}
      footer={
        <>
          <button type="button" className="btn-secondary" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" form="webhook-endpoint-form" className="btn-primary" disabled={busy}>
            {endpoint ? 'Save' : 'Add endpoint'}
          </button>
        </>
      }
    >
      <form id="webhook-endpoint-form" noValidate onSubmit={submit} className="space-y-4">
        <div>
          <label htmlFor="webhook-url" className="block text-sm font-medium text-slate-800">
            Endpoint URL
          </label>
          <input
            id="webhook-url"
            type="url"
            inputMode="url"
            className="field-input mt-1 w-full"
            placeholder="https://example.com/marquee/webhooks"
            value={url}
            maxLength={500}
            aria-invalid={!!errors.url}
            aria-describedby={errors.url ? 'webhook-url-hint webhook-url-error' : 'webhook-url-hint'}
            onChange={(e) => setUrl(e.target.value)}
          />
          <p id="webhook-url-hint" className="mt-1 text-xs text-slate-600">
            An https URL on a public internet address. A development server (<code>make run</code>) also accepts http and
            loopback URLs, such as the demo&rsquo;s local receiver <code>http://127.0.0.1:8090/hooks</code>{' '}
            (<code>marquee dev webhook-sink</code>).
          </p>
          {errors.url && (
            <p id="webhook-url-error" className="mt-1 text-sm text-red-700">
              {errors.url}
            </p>
          )}
        </div>
        <div>
          <label htmlFor="webhook-description" className="block text-sm font-medium text-slate-800">
            Description <span className="font-normal text-slate-500">(optional)</span>
          </label>
          <input
            id="webhook-description"
            className="field-input mt-1 w-full"
            value={description}
            maxLength={200}
            onChange={(e) => setDescription(e.target.value)}
          />
          {errors.description && <p className="mt-1 text-sm text-red-700">{errors.description}</p>}
        </div>
        <fieldset aria-describedby={errors.events ? 'webhook-events-error' : undefined}>
          <legend className="text-sm font-medium text-slate-800">Events</legend>
          <div className="mt-2 grid gap-2 sm:grid-cols-2">
            {eventTypes.map((t) => (
              <label key={t} className="flex items-center gap-2 text-sm text-slate-700">
                <input type="checkbox" checked={events.includes(t)} onChange={() => toggle(t)} />
                {EVENT_LABELS[t] ?? t}
              </label>
            ))}
          </div>
          {errors.events && (
            <p id="webhook-events-error" className="mt-1 text-sm text-red-700">
              {errors.events}
            </p>
          )}
        </fieldset>
        {endpoint && (
          <label className="flex items-center gap-2 text-sm text-slate-700">
            <input type="checkbox" checked={enabled} onChange={(e) => setEnabled(e.target.checked)} />
            Enabled
          </label>
        )}
      </form>
    </Modal>
  )
}

/** The latest deliveries of one endpoint, refreshed while open; a finished one can be sent again. */
function DeliveryLog({ endpoint }: { endpoint: Endpoint }) {
  const dispatch = useDispatch()
  const log = useWebhookDeliveriesQuery(endpoint.id, { pollingInterval: 3000 })
  const [redeliver, redelivering] = useRedeliverWebhookMutation()
  const again = async (d: Delivery) => {
    try {
      const answer = await redeliver({ endpointId: endpoint.id, deliveryId: d.id }).unwrap()
      dispatch(flashShown(answer.message, 'success', 3000))
    } catch (error) {
      dispatch(flashShown(`Sorry! ${errorMessage(error)}`, 'danger'))
    }
  }
  if (log.isLoading) return <Spinner label="Loading the deliveries" />
  if (log.isError) return <Alert>{errorMessage(log.error)}</Alert>
  const deliveries = log.data?.deliveries ?? []
  if (deliveries.length === 0) {
    return <p className="text-sm text-slate-600">No deliveries yet. Send a test event to see one arrive.</p>
  }
  return (
    <ul className="divide-y divide-slate-200" aria-label={`Deliveries to ${endpoint.url}`}>
      {deliveries.map((d) => (
        <li key={d.id} className="flex flex-col gap-2 py-3 sm:flex-row sm:items-start sm:justify-between" data-testid="webhook-delivery">
          <div className="min-w-0 space-y-1">
            <p className="flex flex-wrap items-center gap-2 text-sm">
              <span className="font-mono text-slate-900">{d.event_type}</span>
              <span className={`rounded-full px-2 py-0.5 text-xs font-medium ${STATUS_STYLES[d.status] ?? ''}`}>{d.status}</span>
              <span className="text-slate-600">
                {d.attempts} {d.attempts === 1 ? 'attempt' : 'attempts'}
              </span>
            </p>
            <p className="text-xs text-slate-600">
              {formatTime(d.updated_at)}
              {d.last_status > 0 && <> · answered HTTP {d.last_status}</>}
              {d.status === 'pending' && d.next_attempt_at && <> · next attempt {formatTime(d.next_attempt_at)}</>}
            </p>
            {(d.last_error || d.last_response) && (
              <p className="truncate font-mono text-xs text-slate-500" title={d.last_error || d.last_response}>
                {d.last_error || d.last_response}
              </p>
            )}
          </div>
          {d.status !== 'pending' && endpoint.enabled && (
            <button type="button" className="btn-secondary shrink-0 text-sm" disabled={redelivering.isLoading} onClick={() => again(d)}>
              Redeliver
            </button>
          )}
        </li>
      ))}
    </ul>
  )
}

function EndpointCard({ endpoint, onEdit, onSecret }: { endpoint: Endpoint; onEdit: () => void; onSecret: (s: string) => void }) {
  const dispatch = useDispatch()
  const [showLog, setShowLog] = useState(false)
  const [confirming, setConfirming] = useState(false)
  const [remove, removing] = useDeleteWebhookEndpointMutation()
  const [sendTest, testing] = useSendWebhookTestMutation()
  const [reveal, revealing] = useWebhookSecretMutation()
  const run = async <T,>(p: Promise<T>) => {
    try {
      const answer = await p
      const message = (answer as { message?: string }).message
      if (message) dispatch(flashShown(message, 'success', 3000))
      return answer
    } catch (error) {
      dispatch(flashShown(`Sorry! ${errorMessage(error)}`, 'danger'))
      return null
    }
  }
  return (
    <li className="rounded-xl border border-slate-200 p-4" data-testid="webhook-endpoint">
      <div className="flex flex-col gap-3">
        <div className="min-w-0">
          <p className="font-mono text-sm break-all text-slate-900">{endpoint.url}</p>
          {endpoint.description && <p className="text-sm text-slate-600">{endpoint.description}</p>}
          <p className="mt-1 text-xs text-slate-600">{endpoint.events.map((e) => EVENT_LABELS[e] ?? e).join(' · ')}</p>
          {!endpoint.enabled ? (
            <p className="mt-1 text-sm text-red-700">
              Disabled{endpoint.disabled_reason ? `: ${endpoint.disabled_reason}` : ''}. Edit it to enable it again.
            </p>
          ) : endpoint.failing_since ? (
            <p className="mt-1 text-sm text-amber-800">Failing since {formatTime(endpoint.failing_since)}.</p>
          ) : null}
        </div>
        <div className="flex flex-wrap gap-2">
          <button type="button" className="btn-secondary text-sm" aria-expanded={showLog} onClick={() => setShowLog((v) => !v)}>
            {showLog ? 'Hide deliveries' : 'Deliveries'}
          </button>
          <button
            type="button"
            className="btn-secondary text-sm"
            disabled={!endpoint.enabled || testing.isLoading}
            onClick={async () => {
              if (await run(sendTest(endpoint.id).unwrap())) setShowLog(true)
            }}
          >
            Send test event
          </button>
          <button
            type="button"
            className="btn-secondary text-sm"
            disabled={revealing.isLoading}
            onClick={async () => {
              const answer = await run(reveal(endpoint.id).unwrap())
              if (answer) onSecret(answer.secret)
            }}
          >
            Reveal secret
          </button>
          <button type="button" className="btn-secondary text-sm" onClick={onEdit}>
            Edit
          </button>
          <button type="button" className="btn-danger text-sm" onClick={() => setConfirming(true)}>
            Delete
          </button>
        </div>
      </div>
      {showLog && (
        <div className="mt-3 border-t border-slate-200 pt-3">
          <DeliveryLog endpoint={endpoint} />
        </div>
      )}
      <Confirm
        open={confirming}
        title="Delete webhook endpoint"
        message={`Delete ${endpoint.url} and its delivery log? Events will no longer be sent to it.`}
        confirmText="Delete endpoint"
        tone="danger"
        busy={removing.isLoading}
        onConfirm={async () => {
          await run(remove(endpoint.id).unwrap())
          setConfirming(false)
        }}
        onCancel={() => setConfirming(false)}
      />
    </li>
  )
}

/** /settings → API: the company's webhook endpoints (docs/api.md "Webhooks"). */
export default function WebhooksPanel() {
  const list = useWebhookEndpointsQuery()
  const [editing, setEditing] = useState<Endpoint | null>(null)
  const [adding, setAdding] = useState(false)
  const [secret, setSecret] = useState('')
  const eventTypes = list.data?.event_types ?? []
  const endpoints = list.data?.endpoints ?? []
  return (
    <section aria-labelledby="webhooks-heading" className="space-y-3">
      <div className="flex flex-col gap-2 sm:flex-row sm:items-center sm:justify-between">
        <div>
          <h2 id="webhooks-heading" className="font-semibold text-slate-900">
            Webhooks
          </h2>
          <p className="text-sm text-slate-600">We POST signed JSON to your endpoints when your campaigns change.</p>
        </div>
        <button type="button" className="btn-primary" onClick={() => setAdding(true)} disabled={list.isLoading}>
          Add endpoint
        </button>
      </div>
      {list.isLoading ? (
        <Spinner label="Loading your webhook endpoints" />
      ) : list.isError ? (
        <Alert>{errorMessage(list.error)}</Alert>
      ) : endpoints.length === 0 ? (
        <p className="rounded-xl border border-dashed border-slate-300 p-4 text-slate-600">No webhook endpoints yet. Add one to receive events.</p>
      ) : (
        <ul className="space-y-3">
          {endpoints.map((e) => (
            <EndpointCard key={e.id} endpoint={e} onEdit={() => setEditing(e)} onSecret={setSecret} />
          ))}
        </ul>
      )}
      {adding && <EndpointModal endpoint={null} eventTypes={eventTypes} open onClose={() => setAdding(false)} onCreated={setSecret} />}
      {editing && (
        <EndpointModal key={editing.id} endpoint={editing} eventTypes={eventTypes} open onClose={() => setEditing(null)} onCreated={setSecret} />
      )}
      <SecretModal secret={secret} onClose={() => setSecret('')} />
    </section>
  )
}
