import { useMemo, useState } from 'react'
import { useDispatch } from 'react-redux'
import { Link } from 'react-router'
import Alert from '../../../platform/Alert'
import Confirm from '../../../platform/Confirm'
import DataGrid, { type Columns } from '../../../platform/DataGrid'
import { useGridSearch } from '../../../platform/useGridSearch'
import { flashShown } from '../../../platform/flash/flash'
import { errorMessage } from '../../../platform/http'
import type { Promo } from '../../../platform/api-types/billing'
import { currency } from '../shared/promoRules'
import Tabs from '../../../platform/Tabs'
import { useCancelPromoMutation, useEnablePromoMutation, usePromosQuery } from '../api'
import Ledger from '../components/Ledger'
import PromoCompaniesModal from '../components/PromoCompaniesModal'
import { promoActionFor, promoConfirmText, promoStatusMessage, type PromoAction } from '../promoActions'

/** B §2 /admin/promos page sizes; 0 is All. */
export const PROMO_PAGE_SIZES = [50, 75, 100, 0]

const statusTone: Record<string, string> = {
  active: 'bg-emerald-100 text-emerald-800',
  cancelled: 'bg-slate-200 text-slate-700',
  exhausted: 'bg-amber-100 text-amber-800',
}

const columns: Columns<Promo> = [
  { accessorKey: 'code', header: 'Code', cell: (c) => <span className="font-mono font-medium text-slate-900">{c.getValue<string>()}</span> },
  { accessorKey: 'value', header: 'Amount', cell: (c) => <span className="tabular-nums">{currency(c.getValue<number>())}</span> },
  { accessorKey: 'redeem_count', header: 'Redeemed', cell: (c) => <span className="tabular-nums">{c.getValue<number>()}</span> },
  { accessorKey: 'remaining', header: 'Remaining', enableSorting: false, cell: (c) => <span className="tabular-nums">{c.getValue<number>()}</span> },
  {
    accessorKey: 'status',
    header: 'Status',
    enableSorting: false,
    cell: (c) => {
      const status = c.getValue<string>()
      return <span className={`rounded-full px-2 py-0.5 text-xs font-semibold capitalize ${statusTone[status] ?? 'bg-slate-100 text-slate-700'}`}>{status}</span>
    },
  },
]

/** The promo grid, cancel or enable, and who redeemed (B §2). */
function PromoList() {
  const { grid, setGrid, text: filter, setText: setFilter, q } = useGridSearch({ page: 1, pageSize: PROMO_PAGE_SIZES[0]!, sort: '' })
  const [selectedId, setSelectedId] = useState<string | null>(null)
  const [confirming, setConfirming] = useState<PromoAction | null>(null)
  const [viewing, setViewing] = useState<Promo | null>(null)
  const promos = usePromosQuery({ page: grid.page, page_size: grid.pageSize, q, sort: grid.sort })
  const [cancelPromo, cancelling] = useCancelPromoMutation()
  const [enablePromo, enabling] = useEnablePromoMutation()
  const dispatch = useDispatch()

  const rows = useMemo(() => promos.data?.items ?? [], [promos.data])
  const selected = rows.find((p) => p.id === selectedId) ?? null
  const action = selected ? promoActionFor(selected.status) : null

  const onConfirm = async () => {
    if (!selected || !confirming) return
    try {
      const answer = await (confirming === 'cancel' ? cancelPromo(selected.id) : enablePromo(selected.id)).unwrap()
      if (answer.success) dispatch(flashShown(promoStatusMessage(answer.status), 'success'))
    } catch (error) {
      dispatch(flashShown(`Sorry! ${errorMessage(error)}`, 'danger'))
    } finally {
      setConfirming(null)
    }
  }

  return (
    <div className="space-y-6 pt-4">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-end sm:justify-between">
        <div className="w-full max-w-sm space-y-1.5">
          <label htmlFor="promo-filter" className="block text-sm font-medium text-slate-700">
            Filter promos
          </label>
          <input id="promo-filter" type="search" className="field-input" placeholder="Code" value={filter} onChange={(e) => setFilter(e.target.value)} />
        </div>
        <div className="flex flex-wrap gap-2" role="toolbar" aria-label="Selected promo">
          <button type="button" className="btn-secondary" disabled={!selected} onClick={() => setViewing(selected)}>
            View companies
          </button>
          <button
            type="button"
            className={action === 'enable' ? 'btn-primary' : 'btn-danger'}
            disabled={!selected}
            onClick={() => action && setConfirming(action)}
          >
            {action === 'enable' ? 'Enable promo' : 'Cancel promo'}
          </button>
        </div>
      </div>
      {promos.isError && <Alert>{errorMessage(promos.error)}</Alert>}
      <DataGrid
        label="Promos"
        columns={columns}
        data={rows}
        getRowId={(p) => p.id}
        pageSizeOptions={PROMO_PAGE_SIZES}
        selection="single"
        selectedIds={selectedId ? [selectedId] : []}
        onSelectionChange={(ids) => setSelectedId(ids[0] ?? null)}
        loading={promos.isFetching}
        emptyState={q ? `No promo matches “${q}”.` : 'No promos yet. Create the first one with New promo.'}
        server={{ total: promos.data?.total ?? 0, state: grid, onStateChange: setGrid }}
      />
      <Confirm
        open={confirming !== null}
        title={confirming === 'enable' ? 'Enable promo' : 'Cancel promo'}
        message={promoConfirmText(confirming ?? 'cancel')}
        confirmText={confirming === 'enable' ? 'Enable promo' : 'Cancel promo'}
        cancelText="Keep it"
        tone={confirming === 'enable' ? 'primary' : 'danger'}
        busy={cancelling.isLoading || enabling.isLoading}
        onConfirm={onConfirm}
        onCancel={() => setConfirming(null)}
      />
      <PromoCompaniesModal promo={viewing} onClose={() => setViewing(null)} />
    </div>
  )
}

/** B §2 /admin/promos (super admin): the promos, and a read-only ledger of what they and cards moved. */
export default function Promos() {
  const [tab, setTab] = useState('promos')
  return (
    <div className="space-y-6">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-end sm:justify-between">
        <div>
          <h1 className="text-2xl font-semibold text-slate-900 sm:text-3xl">Promos</h1>
          <p className="mt-1 text-slate-600">Promo codes give companies account credit.</p>
        </div>
        <Link to="/admin/promos/new" className="btn-primary self-start">
          New promo
        </Link>
      </div>
      <Tabs
        label="Promos and ledger"
        selected={tab}
        onSelect={setTab}
        tabs={[
          { id: 'promos', label: 'Promo codes', content: <PromoList /> },
          { id: 'ledger', label: 'Ledger', content: <Ledger /> },
        ]}
      />
    </div>
  )
}
