import type { ColumnDef } from '@tanstack/react-table'
import { useEffect, useState } from 'react'
import Alert from '../../../platform/Alert'
import DataGrid, { type GridState } from '../../../platform/DataGrid'
import { flashShown } from '../../../platform/flash/flash'
import { errorMessage } from '../../../platform/http'
import { SEARCH_DELAY_MS } from '../../../platform/useGridSearch'
import { useDispatch } from 'react-redux'
import type { Entry } from '../../../platform/api-types/audit'
import { AuditPromoCreate, AuditPromoRemove, AuditPromoStatus } from '../../../platform/api-types/billing'
import { AuditCreativeForCompany } from '../../../platform/api-types/creatives'
import {
  AuditCompanyUpdate,
  AuditModerateSignIn,
  AuditModerateSignOut,
  AuditObjectCompany,
  AuditObjectUser,
  AuditTeamInvite,
  AuditUserCertify,
  AuditUserDisable,
  AuditUserEnable,
  AuditUserUpdate,
  AuditUserUpgrade,
} from '../../../platform/api-types/identity'
import { useAuditLogQuery } from '../adminApi'
import { ADMIN_PAGE_SIZES } from './adminRules'

const when = (value: string) => {
  const d = new Date(value)
  return Number.isNaN(d.getTime()) ? value : d.toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'short' })
}

function Change({ entry }: { entry: Entry }) {
  if (entry.before === undefined && entry.after === undefined) return <span className="text-slate-400">—</span>
  const show = (v: unknown) => (v === undefined || v === null ? '—' : typeof v === 'string' ? v : JSON.stringify(v))
  return (
    <details>
      <summary className="cursor-pointer text-brand-700">Show</summary>
      <dl className="mt-1 max-w-md text-xs whitespace-normal">
        <dt className="font-medium">Before</dt>
        <dd className="break-all font-mono">{show(entry.before)}</dd>
        <dt className="mt-1 font-medium">After</dt>
        <dd className="break-all font-mono">{show(entry.after)}</dd>
      </dl>
    </details>
  )
}

const columns: ColumnDef<Entry, any>[] = [
  { accessorKey: 'created_at', header: 'When', cell: (c) => <span className="tabular-nums">{when(c.getValue<string>())}</span> },
  {
    accessorKey: 'actor_email',
    header: 'Who',
    // An action taken while signed in as another user names both (the moderator is the admin).
    cell: (c) => (
      <span>
        {c.getValue<string>()}
        {c.row.original.moderator_id && <span className="block text-xs text-slate-500">through a sign-in as another user</span>}
      </span>
    ),
  },
  { accessorKey: 'action', header: 'Action', cell: (c) => <span className="font-mono text-xs">{c.getValue<string>()}</span> },
  { accessorKey: 'object_type', header: 'Object', cell: (c) => `${c.getValue<string>()} ${c.row.original.object_id}`.trim() },
  { id: 'change', header: 'Change', enableSorting: false, cell: (c) => <Change entry={c.row.original} /> },
  { accessorKey: 'ip', header: 'Address', enableSorting: false },
]

interface Filters {
  actor: string
  action: string
  object_type: string
  object_id: string
  from: string
  to: string
}

const EMPTY: Filters = { actor: '', action: '', object_type: '', object_id: '', from: '', to: '' }

// The actions recorded (docs/identity.md "Audit log"), offered as suggestions: the field takes any
// text. The campaign ones are not in the generated types (modules/campaigns/audit.go).
export const KNOWN_ACTIONS = [
  AuditUserUpdate,
  AuditUserCertify,
  AuditUserUpgrade,
  AuditUserDisable,
  AuditUserEnable,
  AuditCompanyUpdate,
  AuditModerateSignIn,
  AuditModerateSignOut,
  AuditTeamInvite,
  AuditPromoCreate,
  AuditPromoStatus,
  AuditPromoRemove,
  AuditCreativeForCompany,
  'campaign.update',
  'campaign.status',
  'campaign.delete',
  'campaign.weeks',
  'campaign.creative',
  'campaign_week.delivery',
  'campaign_week.proofs',
  'campaign_week.proof_delete',
]
const OBJECT_TYPES = [AuditObjectUser, AuditObjectCompany, 'campaign', 'campaign_week', 'promo']

/**
 * The admin audit log (issue 13): who changed what, on which object, before and after, including
 * every sign-in as another user; filtered by actor, action, object and dates, newest first.
 */
export default function AuditLog() {
  const [grid, setGrid] = useState<GridState>({ page: 1, pageSize: ADMIN_PAGE_SIZES[0]!, sort: '-created_at' })
  const [typed, setTyped] = useState<Filters>(EMPTY)
  const [filters, setFilters] = useState<Filters>(EMPTY)
  const dispatch = useDispatch()
  // Typing pauses before the search, as in the other grids; each new search starts at page 1.
  useEffect(() => {
    const timer = setTimeout(() => {
      setFilters(typed)
      setGrid((g) => ({ ...g, page: 1 }))
    }, SEARCH_DELAY_MS)
    return () => clearTimeout(timer)
  }, [typed])
  const badRange = filters.from !== '' && filters.to !== '' && filters.from > filters.to
  useEffect(() => {
    if (badRange) dispatch(flashShown('The start date must be on or before the end date.', 'danger', 5000))
  }, [badRange, dispatch])
  const log = useAuditLogQuery(
    { page: grid.page, page_size: grid.pageSize, sort: grid.sort, ...filters, actor: filters.actor.trim(), action: filters.action.trim(), object_id: filters.object_id.trim() },
    { skip: badRange },
  )
  const set = (key: keyof Filters) => (event: { target: { value: string } }) => setTyped({ ...typed, [key]: event.target.value })
  const label = (key: keyof Filters, text: string) => (
    <label htmlFor={`audit-${key}`} className="block text-sm font-medium text-slate-700">
      {text}
    </label>
  )

  const input = (key: keyof Filters, text: string, type = 'search', placeholder?: string, list?: string) => (
    <div className="space-y-1.5">
      {label(key, text)}
      <input id={`audit-${key}`} type={type} className="field-input" value={typed[key]} placeholder={placeholder} list={list} onChange={set(key)} />
    </div>
  )

  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-semibold text-slate-900 sm:text-3xl">Audit log</h1>
        <p className="mt-1 text-slate-600">Every change an admin made, and every sign-in as another user.</p>
      </div>
      <form role="search" aria-label="Filter the audit log" className="grid gap-3 sm:grid-cols-2 lg:grid-cols-6" onSubmit={(e) => e.preventDefault()}>
        {input('actor', 'Who', 'search', 'Admin email or id')}
        {input('action', 'Action', 'search', 'e.g. user.disable', 'audit-actions')}
        <datalist id="audit-actions">
          {KNOWN_ACTIONS.map((a) => (
            <option key={a} value={a} />
          ))}
        </datalist>
        <div className="space-y-1.5">
          {label('object_type', 'Object type')}
          <select id="audit-object_type" className="field-input" value={typed.object_type} onChange={set('object_type')}>
            <option value="">Any</option>
            {OBJECT_TYPES.map((t) => (
              <option key={t} value={t}>
                {t}
              </option>
            ))}
          </select>
        </div>
        {input('object_id', 'Object id', 'search')}
        {input('from', 'From', 'date')}
        {input('to', 'To', 'date')}
      </form>
      {log.isError && <Alert>{errorMessage(log.error)}</Alert>}
      <DataGrid
        label="Audit log"
        columns={columns}
        data={log.data?.items ?? []}
        getRowId={(e) => e.id}
        pageSizeOptions={ADMIN_PAGE_SIZES}
        loading={log.isFetching}
        emptyState="No entry matches these filters."
        server={{ total: log.data?.total ?? 0, state: grid, onStateChange: setGrid }}
      />
    </div>
  )
}
