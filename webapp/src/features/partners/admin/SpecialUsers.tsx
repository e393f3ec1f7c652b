import { useMemo, useState } from 'react'
import { useDispatch } from 'react-redux'
import Alert from '../../../platform/Alert'
import type { BonusRow, FlaggedCharge, LinkedCompany, SpecialUser } from '../../../platform/api-types/partners'
import Confirm from '../../../platform/Confirm'
import DataGrid, { type Columns, type GridState } from '../../../platform/DataGrid'
import { formatDisplayDate } from '../../../platform/dates'
import { flashShown } from '../../../platform/flash/flash'
import { errorMessage } from '../../../platform/http'
import Modal from '../../../platform/Modal'
import { formatDollars } from '../../../platform/money'
import { useSetCertificationMutation } from '../../identity/shared/certificationApi'
import { useBonusListQuery, useFlaggedChargesQuery, useLinkedCompaniesQuery, useSpecialUsersQuery } from '../api'
import { CONFIRM_CERT_OFF, CONFIRM_CERT_ON, inviteStatusLabel, MSG_CERT_OFF, MSG_CERT_ON, SPECIAL_PAGE_SIZES } from '../rules'

const money = (c: { getValue: () => unknown }) => <span className="tabular-nums">{formatDollars(Number(c.getValue() ?? 0))}</span>

// B §2: Type, Linked, Email, Full Name, Last Login, Bonus. Column ids are the server's sort fields
// (type, linked, bonus); email, name and last login come from identity per page.
const columns: Columns<SpecialUser> = [
  {
    id: 'type',
    accessorKey: 'type',
    header: 'Type',
    cell: (c) => (
      <span className="inline-flex items-center gap-1.5 capitalize">
        {c.getValue<string>()}
        {c.row.original.certified && <span className="rounded-full bg-emerald-100 px-2 py-0.5 text-xs font-medium text-emerald-800 normal-case">Certified user</span>}
      </span>
    ),
  },
  { id: 'linked', accessorKey: 'linked', header: 'Linked', cell: (c) => <span className="tabular-nums">{c.getValue<number>()}</span> },
  { id: 'email', accessorKey: 'email', header: 'Email', enableSorting: false },
  {
    id: 'full_name',
    accessorKey: 'full_name',
    header: 'Full Name',
    enableSorting: false,
    cell: (c) => (
      <span>
        <span className="font-medium text-slate-900">{c.getValue<string>()}</span>
        <span className="block text-xs text-slate-600">{c.row.original.company_name}</span>
      </span>
    ),
  },
  {
    id: 'last_login',
    accessorKey: 'last_login',
    header: 'Last Login',
    enableSorting: false,
    cell: (c) => (c.getValue<string>() ? <span className="tabular-nums">{formatDisplayDate(c.getValue<string>())}</span> : <span className="text-slate-600">Never</span>),
  },
  { id: 'bonus', accessorKey: 'bonus', header: 'Bonus', cell: money },
  {
    id: 'flagged',
    accessorKey: 'flagged',
    header: 'Held for review',
    enableSorting: false,
    cell: (c) =>
      c.getValue<number>() > 0 ? (
        <span className="rounded-full bg-amber-100 px-2 py-0.5 text-xs font-medium text-amber-900 tabular-nums">{c.getValue<number>()} charges</span>
      ) : (
        <span className="text-slate-500">—</span>
      ),
  },
]

const REASONS: Record<string, string> = {
  own_card: "Paid with a card the partner's company saved",
  partner_card: "Paid with a card of the partner's own partner",
}

const flagColumns: Columns<FlaggedCharge> = [
  { id: 'created_at', accessorKey: 'created_at', header: 'Date', cell: (c) => <span className="tabular-nums">{formatDisplayDate(c.getValue<string>())}</span> },
  { id: 'partner_name', accessorKey: 'partner_name', header: 'Partner', cell: (c) => <span className="font-medium text-slate-900">{c.getValue<string>()}</span> },
  { id: 'client_name', accessorKey: 'client_name', header: 'Client' },
  { id: 'amount', accessorKey: 'amount', header: 'Charge', cell: money },
  { id: 'reason', accessorKey: 'reason', header: 'Why no bonus', enableSorting: false, cell: (c) => REASONS[c.getValue<string>()] ?? c.getValue<string>() },
]

/**
 * The charges that earned no bonus because they were paid with the partner's own card (DESIGN
 * §1.13): listed here for an admin's review; each one is also in the audit log.
 */
function FlaggedCharges() {
  const flags = useFlaggedChargesQuery()
  const rows = flags.data ?? []
  return (
    <section aria-labelledby="flagged-heading" className="space-y-3">
      <div>
        <h2 id="flagged-heading" className="text-lg font-semibold text-slate-900">
          Charges held for review
        </h2>
        <p className="text-sm text-slate-600">Client charges paid with a card the partner's own company saved earn no bonus and are listed here.</p>
      </div>
      {flags.isError && <Alert>{errorMessage(flags.error)}</Alert>}
      <DataGrid
        label="Charges held for review"
        columns={flagColumns}
        data={rows}
        getRowId={(r) => r.transaction_id}
        pageSizeOptions={[10, 50, 0]}
        loading={flags.isFetching}
        emptyState="No charge is held for review."
      />
    </section>
  )
}

const linkedColumns: Columns<LinkedCompany> = [
  { id: 'company_name', accessorKey: 'company_name', header: 'Company', cell: (c) => <span className="font-medium text-slate-900">{c.getValue<string>()}</span> },
  { id: 'email', accessorKey: 'email', header: 'Email' },
  { id: 'status', accessorKey: 'status', header: 'Status', cell: (c) => inviteStatusLabel(c.getValue<string>()) },
  { id: 'expiration', header: 'Linked until', accessorFn: (l) => l.linked.expiration, cell: (c) => <span className="tabular-nums">{formatDisplayDate(c.getValue<string>())}</span> },
  { id: 'active', header: 'Active', accessorFn: (l) => l.linked.active, cell: (c) => (c.getValue<boolean>() ? 'Yes' : 'No') },
  { id: 'bonus', accessorKey: 'bonus', header: 'Bonus', cell: money },
]

const bonusColumns: Columns<BonusRow> = [
  { id: 'label', accessorKey: 'label', header: 'For', cell: (c) => <span className="font-medium text-slate-900">{c.getValue<string>() || c.row.original.key}</span> },
  { id: 'billed', accessorKey: 'billed', header: 'Billed', cell: money },
  { id: 'bonus', accessorKey: 'bonus', header: 'Bonus', cell: money },
]

/** The linked-companies modal (GET /api/special/invite?company=). */
function LinkedModal({ partner, onClose }: { partner: SpecialUser | null; onClose: () => void }) {
  const list = useLinkedCompaniesQuery(partner?.company_id ?? '', { skip: !partner })
  return (
    <Modal open={partner !== null} title={`Linked companies of ${partner?.company_name ?? ''}`} size="lg" onClose={onClose} footer={<button type="button" className="btn-secondary" onClick={onClose}>Close</button>}>
      {list.isError && <Alert>{errorMessage(list.error)}</Alert>}
      <DataGrid
        label="Linked companies"
        columns={linkedColumns}
        data={list.data ?? []}
        getRowId={(l) => l.id}
        pageSizeOptions={[10, 20, 50, 0]}
        loading={list.isFetching}
        emptyState="This partner has no linked company yet."
      />
    </Modal>
  )
}

/** The bonus-list modal (GET /api/special/{companyId}/bonus?type=month|client|campaign). */
function BonusModal({ partner, onClose }: { partner: SpecialUser | null; onClose: () => void }) {
  const [type, setType] = useState('month')
  const list = useBonusListQuery({ companyId: partner?.company_id, type }, { skip: !partner })
  return (
    <Modal open={partner !== null} title={`Bonus of ${partner?.company_name ?? ''}`} size="lg" onClose={onClose} footer={<button type="button" className="btn-secondary" onClick={onClose}>Close</button>}>
      <div className="mb-4 space-y-1.5">
        <label htmlFor="bonus-type" className="block text-sm font-medium text-slate-700">
          Group by
        </label>
        <select id="bonus-type" className="field-input w-auto" value={type} onChange={(e) => setType(e.target.value)}>
          <option value="month">Month</option>
          <option value="client">Client company</option>
          <option value="campaign">Campaign</option>
        </select>
      </div>
      {list.isError && <Alert>{errorMessage(list.error)}</Alert>}
      <DataGrid
        label="Bonus list"
        columns={bonusColumns}
        data={list.data ?? []}
        getRowId={(r) => r.key}
        pageSizeOptions={[10, 20, 50, 0]}
        loading={list.isFetching}
        emptyState="No bonus earned yet."
      />
    </Modal>
  )
}

/**
 * /admin/special-users (B §2, super admin): the partner companies, default sort bonus descending.
 * For the selected one: its linked companies, its bonus list, and activate or remove the
 * certification of its user (the accounts issue's call, PUT /api/users/{id}; B §8 confirms).
 */
export default function SpecialUsers() {
  const [grid, setGrid] = useState<GridState>({ page: 1, pageSize: 50, sort: '-bonus' })
  const list = useSpecialUsersQuery({ page: grid.page, page_size: grid.pageSize, sort: grid.sort })
  const [selectedId, setSelectedId] = useState<string | null>(null)
  const [modal, setModal] = useState<'linked' | 'bonus' | 'cert-on' | 'cert-off' | null>(null)
  const [certify, certifying] = useSetCertificationMutation()
  const dispatch = useDispatch()
  const rows = useMemo(() => list.data?.items ?? [], [list.data])
  const selected = rows.find((r) => r.company_id === selectedId) ?? null

  const open = (which: NonNullable<typeof modal>) => {
    if (!selected) {
      dispatch(flashShown('You first must select a special user', 'danger', 5000))
      return
    }
    setModal(which)
  }

  const onCertification = async (on: boolean) => {
    if (!selected) return
    try {
      await certify({ id: selected.user_id, certified: on }).unwrap()
      dispatch(flashShown(on ? MSG_CERT_ON : MSG_CERT_OFF, 'success'))
      void list.refetch()
    } catch (error) {
      dispatch(flashShown(errorMessage(error), 'danger'))
    } finally {
      setModal(null)
    }
  }

  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-semibold text-slate-900 sm:text-3xl">Special users</h1>
        <p className="mt-1 text-slate-600">Ambassador and certified partner companies, with the companies linked to them and the bonus they earned.</p>
      </div>
      <div className="flex flex-wrap gap-2" role="toolbar" aria-label="Selected special user">
        <button type="button" className="btn-secondary" onClick={() => open('linked')}>
          Linked companies
        </button>
        <button type="button" className="btn-secondary" onClick={() => open('bonus')}>
          View bonus
        </button>
        <button type="button" className="btn-secondary" disabled={selected?.certified === true} onClick={() => open('cert-on')}>
          Activate certification
        </button>
        <button type="button" className="btn-danger" disabled={selected !== null && !selected.certified} onClick={() => open('cert-off')}>
          Remove certification
        </button>
      </div>
      {list.isError && <Alert>{errorMessage(list.error)}</Alert>}
      <DataGrid
        label="Special users"
        columns={columns}
        data={rows}
        getRowId={(r) => r.company_id}
        pageSizeOptions={SPECIAL_PAGE_SIZES}
        selection="single"
        selectedIds={selectedId ? [selectedId] : []}
        onSelectionChange={(ids) => setSelectedId(ids[0] ?? null)}
        loading={list.isFetching}
        emptyState="No ambassador or certified company yet. Upgrade a company from Users."
        server={{ total: list.data?.total ?? 0, state: grid, onStateChange: setGrid }}
      />
      <FlaggedCharges />
      <LinkedModal partner={modal === 'linked' ? selected : null} onClose={() => setModal(null)} />
      <BonusModal partner={modal === 'bonus' ? selected : null} onClose={() => setModal(null)} />
      <Confirm
        open={modal === 'cert-on' || modal === 'cert-off'}
        title={modal === 'cert-on' ? 'Activate certification' : 'Remove certification'}
        message={modal === 'cert-on' ? CONFIRM_CERT_ON : CONFIRM_CERT_OFF}
        confirmText={modal === 'cert-on' ? 'Activate certification' : 'Remove certification'}
        tone={modal === 'cert-off' ? 'danger' : 'primary'}
        busy={certifying.isLoading}
        onConfirm={() => void onCertification(modal === 'cert-on')}
        onCancel={() => setModal(null)}
      />
    </div>
  )
}
