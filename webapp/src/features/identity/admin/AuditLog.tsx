import { useEffect, useState } from 'react'
import { Link, useSearchParams } from 'react-router'
import Alert from '../../../platform/Alert'
import DataGrid, { type Columns, type GridState } from '../../../platform/DataGrid'
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
  AuditTeamRemove,
  AuditTeamResend,
  AuditUserCertify,
  AuditUserDisable,
  AuditUserEnable,
  AuditUserUpdate,
  AuditUserUpgrade,
} from '../../../platform/api-types/identity'
import { useAuditLogQuery } from '../adminApi'
import { ADMIN_PAGE_SIZES } from './adminRules'

// platform/audit's entry of every write in a moderated session, and its object type (the route).
const ActionModeratedWrite = 'moderate.write'
const ObjectRequest = 'request'

const when = (value: string) => {
  const d = new Date(value)
  return Number.isNaN(d.getTime()) ? value : d.toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'short' })
}

const show = (v: unknown) => (v === undefined || v === null || v === '' ? '—' : typeof v === 'string' ? v : JSON.stringify(v))

const asRecord = (v: unknown): Record<string, unknown> | null =>
  v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null

export interface FieldChange {
  field: string
  before: unknown
  after: unknown
}

/**
 * The fields an entry changed: those whose value differs between before and after (a value that
 * is not an object is one field, "value"). a readable diff, not two JSON blobs.
 */
export function changedFields(before: unknown, after: unknown): FieldChange[] {
  const b = asRecord(before)
  const a = asRecord(after)
  if (!b && !a) {
    if ((before ?? null) === null && (after ?? null) === null) return []
    return JSON.stringify(before) === JSON.stringify(after) ? [] : [{ field: 'value', before, after }]
  }
  const keys = [...new Set([...Object.keys(b ?? {}), ...Object.keys(a ?? {})])].sort()
  return keys
    .filter((k) => JSON.stringify(b?.[k] ?? null) !== JSON.stringify(a?.[k] ?? null))
    .map((k) => ({ field: k, before: b?.[k], after: a?.[k] }))
}

function Change({ entry }: { entry: Entry }) {
  const fields = changedFields(entry.before, entry.after)
  if (fields.length === 0) return <span className="text-slate-400">No field changed</span>
  return (
    <details className="w-72 whitespace-normal">
      <summary className="cursor-pointer text-brand-700">
        {fields.length === 1 ? `1 field: ${fields[0]!.field}` : `${fields.length} fields changed`}
      </summary>
      {/* Named by aria-label, not an sr-only caption: an absolutely placed caption would escape
          the grid's scrolling box and widen the page on a phone. */}
      <table aria-label="Changed fields" className="mt-2 w-full table-fixed border-collapse text-xs">
        <thead>
          <tr className="text-left text-slate-500">
            <th scope="col" className="w-1/4 py-1 pr-2 font-medium">
              Field
            </th>
            <th scope="col" className="py-1 pr-2 font-medium">
              Before
            </th>
            <th scope="col" className="py-1 font-medium">
              After
            </th>
          </tr>
        </thead>
        <tbody>
          {fields.map((f) => (
            <tr key={f.field} className="border-t border-slate-100 align-top">
              <th scope="row" className="py-1 pr-2 text-left font-mono font-normal break-words">
                {f.field}
              </th>
              <td className="py-1 pr-2 break-words whitespace-normal text-rose-800">
                <del className="no-underline">{show(f.before)}</del>
              </td>
              <td className="py-1 break-words whitespace-normal text-emerald-800">
                <ins className="no-underline">{show(f.after)}</ins>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </details>
  )
}

/** Where an entry's object is shown: its page or grid when there is one, else its own history. */
export function objectLink(e: Entry): string {
  const rec = asRecord(e.after) ?? asRecord(e.before)
  const email = typeof rec?.email === 'string' ? rec.email : ''
  switch (e.object_type) {
    case AuditObjectUser:
      if (email) return `/admin/users?q=${encodeURIComponent(email)}`
      break
    case AuditObjectCompany:
      if (e.object_name) return `/admin/companies?q=${encodeURIComponent(e.object_name)}`
      break
    case 'campaign':
      return `/admin/campaigns/edit/${encodeURIComponent(e.object_id)}`
  }
  return `/admin/audit?object_type=${encodeURIComponent(e.object_type)}&object_id=${encodeURIComponent(e.object_id)}`
}

function Who({ entry }: { entry: Entry }) {
  const name = entry.actor_name && entry.actor_name !== entry.actor_email ? entry.actor_name : ''
  return (
    <span className="block w-56 whitespace-normal">
      <span className="block font-medium break-words text-slate-900">{name || entry.actor_email}</span>
      {name && <span className="block text-xs text-slate-500">{entry.actor_email}</span>}
      {entry.moderator_id && (
        // A change made while an admin was signed in as the user names that admin.
        <span className="mt-1 block text-xs text-amber-900">
          by admin <strong>{entry.moderator_name || entry.moderator_email || entry.moderator_id}</strong>
          {entry.moderator_email && entry.moderator_name !== entry.moderator_email ? ` (${entry.moderator_email})` : ''}, signed in as this user
        </span>
      )}
    </span>
  )
}

const columns: Columns<Entry> = [
  { accessorKey: 'created_at', header: 'When', cell: (c) => <span className="tabular-nums">{when(c.getValue<string>())}</span> },
  { accessorKey: 'actor_email', header: 'Who', cell: (c) => <Who entry={c.row.original} /> },
  { accessorKey: 'action', header: 'Action', cell: (c) => <span className="font-mono text-xs">{c.getValue<string>()}</span> },
  {
    accessorKey: 'object_type',
    header: 'Object',
    // By name, with a link; the id stays in the link's title for support.
    cell: (c) => {
      const e = c.row.original
      return (
        <span className="block w-40 whitespace-normal break-words">
          <span className="block text-xs text-slate-500 capitalize">{e.object_type.replace('_', ' ')}</span>
          <Link to={objectLink(e)} title={e.object_id} className="font-medium text-brand-700 hover:underline">
            {e.object_name || e.object_id}
          </Link>
        </span>
      )
    },
  },
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
  AuditTeamRemove,
  AuditTeamResend,
  ActionModeratedWrite,
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
const OBJECT_TYPES = [AuditObjectUser, AuditObjectCompany, 'campaign', 'campaign_week', 'promo', ObjectRequest]

/**
 * The admin audit log: who changed what, on which object, before and after, including
 * every sign-in as another user; filtered by actor, action, object and dates, newest first.
 */
export default function AuditLog() {
  const [grid, setGrid] = useState<GridState>({ page: 1, pageSize: ADMIN_PAGE_SIZES[0]!, sort: '-created_at' })
  // A link can open the log filtered (an object's history: ?object_type=&object_id=).
  const [params] = useSearchParams()
  const fromURL: Filters = { ...EMPTY, ...Object.fromEntries(Object.keys(EMPTY).map((k) => [k, params.get(k) ?? ''])) }
  const [typed, setTyped] = useState<Filters>(fromURL)
  const [filters, setFilters] = useState<Filters>(fromURL)
  const urlKey = params.toString()
  useEffect(() => {
    setTyped(fromURL)
    setFilters(fromURL)
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the URL's filters, when it changes
  }, [urlKey])
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
        {input('actor', 'Who', 'search', 'Email or id (admin or user)')}
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
