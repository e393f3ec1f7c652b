import { useState, type FormEvent } from 'react'
import { useDispatch } from 'react-redux'
import { Link } from 'react-router'
import type { APIKey, CreatedAPIKey } from '../../platform/api-types/identity'
import { flashShown } from '../../platform/flash/flash'
import { errorMessage, isApiError } from '../../platform/http'
import Spinner from '../../platform/Spinner'
import { lastUse, shownPrefix, useApiKeysQuery, useCreateApiKeyMutation, useRevokeApiKeyMutation } from './api'
import { useRevokeKey } from './RevokeKey'

/** The new key, shown once with a copy button: only its hash is kept. */
function NewKey({ made, onDone }: { made: CreatedAPIKey; onDone: () => void }) {
  const [copied, setCopied] = useState(false)
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(made.secret)
      setCopied(true)
    } catch {
      setCopied(false)
    }
  }
  return (
    <div role="status" className="rounded-lg border border-emerald-300 bg-emerald-50 p-4">
      <p className="font-semibold text-emerald-900">Your new key “{made.key.name}”</p>
      <p className="mt-1 text-sm text-emerald-900">Copy it now: you will not see it again. We keep only a fingerprint of it.</p>
      <div className="mt-3 flex flex-col gap-2 sm:flex-row">
        <input aria-label="New API key" readOnly value={made.secret} className="field-input font-mono text-sm" onFocus={(e) => e.currentTarget.select()} />
        <button type="button" className="btn-primary shrink-0" onClick={copy}>
          {copied ? 'Copied' : 'Copy'}
        </button>
        <button type="button" className="btn-secondary shrink-0" onClick={onDone}>
          Done
        </button>
      </div>
    </div>
  )
}

function KeyRow({ k, onRevoke }: { k: APIKey; onRevoke: (k: APIKey) => void }) {
  return (
    <li className="flex flex-col gap-2 py-3 sm:flex-row sm:items-center sm:justify-between">
      <div className="min-w-0">
        <p className="font-medium text-slate-900">
          {k.name}{' '}
          <span className="ml-1 rounded bg-slate-100 px-1.5 py-0.5 text-xs font-normal text-slate-700">{k.scope === 'read' ? 'Read' : 'Read and write'}</span>
        </p>
        <p className="font-mono text-sm text-slate-600">{shownPrefix(k)}</p>
        <p className="text-sm text-slate-600" data-testid="last-used">
          Last used: {lastUse(k)}
        </p>
      </div>
      <button type="button" className="btn-danger self-start sm:self-center" onClick={() => onRevoke(k)} aria-label={`Revoke ${k.name}`}>
        Revoke
      </button>
    </li>
  )
}

/** Settings → API: the company's API keys (docs/api.md "Authentication"). */
export default function ApiKeysPanel() {
  const dispatch = useDispatch()
  const keys = useApiKeysQuery(undefined, { refetchOnMountOrArgChange: true })
  const [create, creating] = useCreateApiKeyMutation()
  const [revoke, revoking] = useRevokeApiKeyMutation()
  const [name, setName] = useState('')
  const [scope, setScope] = useState<'read' | 'read-write'>('read')
  const [errors, setErrors] = useState<Record<string, string>>({})
  const [made, setMade] = useState<CreatedAPIKey | null>(null)
  const { ask, dialog } = useRevokeKey({
    revoke,
    busy: revoking.isLoading,
    warning: (k) => `Calls made with “${k.name}” (${shownPrefix(k)}) will be refused at once. This cannot be undone.`,
    done: (k) => `The key “${k.name}” is revoked: calls with it now answer 401.`,
  })

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    setErrors({})
    try {
      setMade(await create({ name, scope }).unwrap())
      setName('')
    } catch (error) {
      if (isApiError(error) && Object.keys(error.errors).length > 0) setErrors(error.errors)
      else dispatch(flashShown(`Sorry! ${errorMessage(error)}`, 'danger'))
    }
  }


  return (
    <section aria-labelledby="api-keys-heading" className="space-y-5">
      <div>
        <h2 id="api-keys-heading" className="font-semibold text-slate-900">
          API keys
        </h2>
        <p className="mt-1 text-sm text-slate-600">
          A key lets your own tools call the Marquee API as your company: create campaigns, pull delivery and reports. Read keys cannot change anything. See the{' '}
          <Link to="/developers" className="link">
            API reference
          </Link>
          .
        </p>
      </div>

      {made && <NewKey made={made} onDone={() => setMade(null)} />}

      <form onSubmit={submit} noValidate className="grid gap-3 sm:grid-cols-[1fr_auto_auto] sm:items-end">
        <div>
          <label htmlFor="api-key-name" className="block text-sm font-medium text-slate-700">
            Key name
          </label>
          <input
            id="api-key-name"
            className="field-input"
            value={name}
            maxLength={100}
            placeholder="Reporting dashboard"
            onChange={(e) => setName(e.target.value)}
            aria-invalid={Boolean(errors.name)}
            aria-describedby={errors.name ? 'api-key-name-error' : undefined}
          />
          {errors.name && (
            <p id="api-key-name-error" className="mt-1 text-sm text-red-700">
              {errors.name}
            </p>
          )}
        </div>
        <div>
          <label htmlFor="api-key-scope" className="block text-sm font-medium text-slate-700">
            Scope
          </label>
          <select id="api-key-scope" className="field-input" value={scope} onChange={(e) => setScope(e.target.value as 'read' | 'read-write')}>
            <option value="read">Read</option>
            <option value="read-write">Read and write</option>
          </select>
        </div>
        <button type="submit" className="btn-primary" disabled={creating.isLoading}>
          Create key
        </button>
      </form>

      {keys.isLoading ? (
        <Spinner label="Loading API keys" />
      ) : keys.isError ? (
        <p role="alert" className="text-sm text-red-700">
          Sorry! {errorMessage(keys.error)}
        </p>
      ) : keys.data && keys.data.length > 0 ? (
        <ul aria-label="API keys" className="divide-y divide-slate-200">
          {keys.data.map((k) => (
            <KeyRow key={k.id} k={k} onRevoke={ask} />
          ))}
        </ul>
      ) : (
        <p className="rounded-lg border border-dashed border-slate-300 p-4 text-sm text-slate-600">No API keys yet. Create one to call the API from your own tools.</p>
      )}

      {dialog}
    </section>
  )
}
