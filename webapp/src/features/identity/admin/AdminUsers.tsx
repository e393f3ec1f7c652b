import { useMemo, useState } from 'react'
import { useSearchParams } from 'react-router'
import { useDispatch } from 'react-redux'
import Alert from '../../../platform/Alert'
import { CompanyAmbassador, CompanyCertified, type User } from '../../../platform/api-types/identity'
import Confirm from '../../../platform/Confirm'
import DataGrid, { type Columns } from '../../../platform/DataGrid'
import { formatDisplayDate } from '../../../platform/dates'
import { flashShown } from '../../../platform/flash/flash'
import { errorMessage } from '../../../platform/http'
import Modal from '../../../platform/Modal'
import Spinner from '../../../platform/Spinner'
import { useGridSearch } from '../../../platform/useGridSearch'
import { useAdminUsersQuery, useSetUserEnabledMutation, useUpgradeUserMutation } from '../adminApi'
import { useSetCertificationMutation } from '../shared/certificationApi'
import UserStatus from '../components/UserStatus'
import ProfileForm from '../profile/ProfileForm'
import {
  ADMIN_PAGE_SIZES,
  canUpgrade,
  CONFIRM_CERT_OFF,
  CONFIRM_CERT_ON,
  confirmUpgrade,
  isDisabled,
  MSG_CERT_OFF,
  MSG_CERT_ON,
  MSG_UPGRADED,
  type UpgradeType,
} from './adminRules'

const date = (value?: string) => (value ? <span className="tabular-nums">{formatDisplayDate(value)}</span> : <span className="text-slate-500">Never</span>)

// Column ids are the server's sort fields (docs/api.md "Identity": GET /api/admin/users/); the phone,
// company and call-back are not sortable there.
const columns: Columns<User> = [
  { id: 'status', header: 'Status', accessorFn: (u) => u.local.status, cell: (c) => <UserStatus status={c.getValue<string>()} /> },
  { id: 'first_name', header: 'First name', accessorFn: (u) => u.local.first_name },
  { id: 'last_name', header: 'Last name', accessorFn: (u) => u.local.last_name },
  { id: 'email', header: 'Email', accessorFn: (u) => u.local.email },
  { id: 'phone', header: 'Phone', enableSorting: false, accessorFn: (u) => u.local.phone },
  { id: 'company', header: 'Company', enableSorting: false, accessorFn: (u) => u.company?.name },
  // B §2: call-back YES or NO (the phone consent of sign-up).
  { id: 'callback', header: 'Call-back', enableSorting: false, accessorFn: (u) => (u.sendPhoneZoho ? 'YES' : 'NO') },
  { id: 'created_at', header: 'Signed up', accessorFn: (u) => u.created_at, cell: (c) => date(c.getValue<string>()) },
  { id: 'last_login', header: 'Last login', accessorFn: (u) => u.last_login, cell: (c) => date(c.getValue<string>()) },
  { id: 'sign_in_count', header: 'Sign-ins', accessorFn: (u) => u.sign_in_count, cell: (c) => <span className="tabular-nums">{c.getValue<number>()}</span> },
]

type Pending =
  | { kind: 'upgrade'; type: UpgradeType }
  | { kind: 'certification'; on: boolean }
  | null

/**
 * /admin/users (B §2, B §6): every user, searched, sorted and paged on the server; several may be
 * selected. Upgrade (standard companies only), enable or disable, certification on or off, and the
 * user edit act on the selection; every grid shows what the server answers.
 */
export default function AdminUsers() {
  const { grid, setGrid, text, setText, q } = useGridSearch({ page: 1, pageSize: ADMIN_PAGE_SIZES[0]!, sort: '-created_at' }, useSearchParams()[0].get('q') ?? '')
  const users = useAdminUsersQuery({ page: grid.page, page_size: grid.pageSize, sort: grid.sort, q })
  const [selectedIds, setSelectedIds] = useState<string[]>([])
  const [pending, setPending] = useState<Pending>(null)
  const [editing, setEditing] = useState<User | null>(null)
  const [setEnabled, enabling] = useSetUserEnabledMutation()
  const [upgrade, upgrading] = useUpgradeUserMutation()
  const [certify, certifying] = useSetCertificationMutation()
  const dispatch = useDispatch()

  const rows = useMemo(() => users.data?.items ?? [], [users.data])
  const selected = rows.filter((u) => selectedIds.includes(u.id))
  const one = selected.length === 1 ? selected[0]! : null
  const busy = enabling.isLoading || upgrading.isLoading || certifying.isLoading
  const upgradable = selected.length > 0 && selected.every(canUpgrade)

  // Each selected user in turn; the first failure stops and shows the server's message (B §8).
  const forEachSelected = async (act: (u: User) => Promise<{ message?: string }>, success: string, serverFirst = false) => {
    let last: string | undefined
    for (const u of selected) {
      try {
        last = (await act(u)).message
      } catch (error) {
        dispatch(flashShown(errorMessage(error), 'danger'))
        return
      }
    }
    dispatch(flashShown((serverFirst && last) || success, 'success'))
  }

  const onEnable = (enable: boolean) =>
    forEachSelected((u) => setEnabled({ id: u.id, enable }).unwrap(), enable ? 'The user is enabled.' : 'The user is disabled.', true)

  const onConfirm = async () => {
    if (!pending) return
    if (pending.kind === 'upgrade') await forEachSelected((u) => upgrade({ id: u.id, type: pending.type }).unwrap(), MSG_UPGRADED)
    else await forEachSelected((u) => certify({ id: u.id, certified: pending.on }).unwrap(), pending.on ? MSG_CERT_ON : MSG_CERT_OFF)
    setPending(null)
  }

  // B §2: the list is loaded before the screen shows.
  if (!users.data && !users.isError) {
    return (
      <div className="flex min-h-[50vh] items-center justify-center">
        <Spinner label="Loading users" className="h-8 w-8" />
      </div>
    )
  }

  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-semibold text-slate-900 sm:text-3xl">Users</h1>
        <p className="mt-1 text-slate-600">Every user of every company. Select users to enable or disable them, upgrade their company or change their certification.</p>
      </div>
      <div className="flex flex-col gap-3 xl:flex-row xl:items-end xl:justify-between">
        <div className="w-full max-w-sm space-y-1.5">
          <label htmlFor="admin-user-search" className="block text-sm font-medium text-slate-700">
            Search users
          </label>
          <input id="admin-user-search" type="search" className="field-input" placeholder="Name, email, phone or company" value={text} onChange={(e) => setText(e.target.value)} />
        </div>
        <div className="flex flex-wrap gap-2" role="toolbar" aria-label="Selected users">
          <button type="button" className="btn-secondary" disabled={!one || busy} onClick={() => one && setEditing(one)}>
            Edit user
          </button>
          <button type="button" className="btn-secondary" disabled={selected.length === 0 || busy || selected.every((u) => !isDisabled(u))} onClick={() => onEnable(true)}>
            Enable
          </button>
          <button type="button" className="btn-danger" disabled={selected.length === 0 || busy || selected.every(isDisabled)} onClick={() => onEnable(false)}>
            Disable
          </button>
          <button type="button" className="btn-secondary" disabled={!upgradable || busy} onClick={() => setPending({ kind: 'upgrade', type: CompanyCertified })}>
            Upgrade to certified
          </button>
          <button type="button" className="btn-secondary" disabled={!upgradable || busy} onClick={() => setPending({ kind: 'upgrade', type: CompanyAmbassador })}>
            Upgrade to ambassador
          </button>
          <button type="button" className="btn-secondary" disabled={selected.length === 0 || busy} onClick={() => setPending({ kind: 'certification', on: true })}>
            Activate certification
          </button>
          <button type="button" className="btn-secondary" disabled={selected.length === 0 || busy} onClick={() => setPending({ kind: 'certification', on: false })}>
            Remove certification
          </button>
        </div>
      </div>
      {users.isError && <Alert>{errorMessage(users.error)}</Alert>}
      <DataGrid
        label="Users"
        columns={columns}
        data={rows}
        getRowId={(u) => u.id}
        pageSizeOptions={ADMIN_PAGE_SIZES}
        selection="multi"
        selectedIds={selectedIds}
        onSelectionChange={setSelectedIds}
        loading={users.isFetching}
        emptyState={q ? `No user matches “${q}”.` : 'No users yet.'}
        server={{ total: users.data?.total ?? 0, state: grid, onStateChange: setGrid }}
      />
      <Confirm
        open={pending !== null}
        title={pending?.kind === 'upgrade' ? 'Upgrade user' : pending?.on ? 'Activate certification' : 'Remove certification'}
        message={pending?.kind === 'upgrade' ? confirmUpgrade(pending.type) : pending?.on ? CONFIRM_CERT_ON : CONFIRM_CERT_OFF}
        confirmText={pending?.kind === 'upgrade' ? 'Upgrade' : pending?.on ? 'Activate' : 'Remove'}
        tone={pending?.kind === 'certification' && !pending.on ? 'danger' : 'primary'}
        busy={busy}
        onConfirm={onConfirm}
        onCancel={() => setPending(null)}
      />
      <Modal open={editing !== null} title="Edit user" size="lg" onClose={() => setEditing(null)}>
        {editing && <ProfileForm userId={editing.id} onSaved={() => setEditing(null)} />}
      </Modal>
    </div>
  )
}
