import { useState } from 'react'
import { errorMessage } from '../../platform/http'
import Spinner from '../../platform/Spinner'
import { lastUse, shownPrefix, useAdminApiKeysQuery, useAdminRevokeApiKeyMutation } from './api'
import { useRevokeKey } from './RevokeKey'

/** /admin/api-keys: every company's live API keys; an admin revokes any (audited). */
export default function AdminApiKeys() {
  const [page, setPage] = useState(1)
  const keys = useAdminApiKeysQuery({ page }, { refetchOnMountOrArgChange: true })
  const [revoke, revoking] = useAdminRevokeApiKeyMutation()
  const { ask, dialog } = useRevokeKey({
    revoke,
    busy: revoking.isLoading,
    warning: (k) => `${k.company_name}'s key “${k.name}” (${shownPrefix(k)}) will stop working at once.`,
    done: (k) => `The key “${k.name}” of ${k.company_name} is revoked.`,
  })
  const data = keys.data
  const pages = data && data.page_size > 0 ? Math.max(1, Math.ceil(data.total / data.page_size)) : 1

  return (
    <div className="mx-auto max-w-5xl space-y-6">
      <div>
        <h1 className="text-2xl font-semibold text-slate-900 sm:text-3xl">API keys</h1>
        <p className="mt-1 text-slate-600">Every company's live API keys. Revoking one refuses its calls at once and is recorded in the audit log.</p>
      </div>
      <div className="card p-5 sm:p-6">
        {keys.isLoading ? (
          <Spinner label="Loading API keys" />
        ) : keys.isError ? (
          <p role="alert" className="text-sm text-red-700">
            Sorry! {errorMessage(keys.error)}
          </p>
        ) : data && data.items.length > 0 ? (
          <>
            <ul aria-label="API keys" className="divide-y divide-slate-200">
              {data.items.map((k) => (
                <li key={k.id} className="flex flex-col gap-2 py-3 sm:flex-row sm:items-center sm:justify-between">
                  <div className="min-w-0">
                    <p className="font-medium text-slate-900">
                      {k.company_name} · {k.name}
                    </p>
                    <p className="text-sm text-slate-600">
                      <span className="font-mono">{shownPrefix(k)}</span> · {k.scope === 'read' ? 'Read' : 'Read and write'} · made {new Date(k.created_at).toLocaleDateString()}
                    </p>
                    <p className="text-sm text-slate-600">Last used: {lastUse(k)}</p>
                  </div>
                  <button type="button" className="btn-danger self-start sm:self-center" aria-label={`Revoke ${k.name} of ${k.company_name}`} onClick={() => ask(k)}>
                    Revoke
                  </button>
                </li>
              ))}
            </ul>
            {pages > 1 && (
              <nav aria-label="Pages" className="mt-4 flex items-center justify-between">
                <button type="button" className="btn-secondary" disabled={page <= 1} onClick={() => setPage(page - 1)}>
                  Previous
                </button>
                <span className="text-sm text-slate-600">
                  Page {page} of {pages}
                </span>
                <button type="button" className="btn-secondary" disabled={page >= pages} onClick={() => setPage(page + 1)}>
                  Next
                </button>
              </nav>
            )}
          </>
        ) : (
          <p className="text-sm text-slate-600">No company has a live API key.</p>
        )}
      </div>
      {dialog}
    </div>
  )
}
