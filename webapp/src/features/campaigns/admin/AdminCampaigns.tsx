import { useMemo, useState } from 'react'
import { useDispatch } from 'react-redux'
import { useNavigate } from 'react-router'
import Alert from '../../../platform/Alert'
import Confirm from '../../../platform/Confirm'
import DataGrid, { type Columns } from '../../../platform/DataGrid'
import { useGridSearch } from '../../../platform/useGridSearch'
import { MsgDeleted, MsgDeleteFailed, type Campaign } from '../../../platform/api-types/campaigns'
import { formatDisplayDate } from '../../../platform/dates'
import { flashShown } from '../../../platform/flash/flash'
import { errorMessage } from '../../../platform/http'
import { formatDollars } from '../../../platform/money'
import { useAdminCampaignsQuery } from '../adminApi'
import { useDeleteCampaignMutation } from '../api'
import { ADMIN_DEFAULT_SORT, ADMIN_PAGE_SIZES } from './adminRules'
import AdminMakeGoods from './AdminMakeGoods'
import { frequencyLabel } from '../list/listRules'
import StatusBadge from '../list/StatusBadge'

export const CONFIRM_DELETE = 'Are you sure you want to delete this campaign? It will no longer be listed and its unstarted weeks are released.'

// Column ids are the server's sort fields (docs/api.md "Lists"). The company's name and the max
// budget are not sortable: the company lives in identity, and the max budget is derived.
const columns: Columns<Campaign> = [
  { accessorKey: 'status', header: 'Status', cell: (c) => <StatusBadge status={c.getValue<string>()} /> },
  // Names and companies wrap, so the last column (max budget) stays on screen at 1366 px.
  { accessorKey: 'name', header: 'Name', cell: (c) => <span className="block max-w-[16rem] min-w-[8rem] font-medium whitespace-normal text-slate-900">{c.getValue<string>()}</span> },
  { accessorKey: 'campaignType', header: 'Campaign type' },
  { accessorKey: 'companyName', header: 'Company', enableSorting: false, cell: (c) => <span className="block max-w-[12rem] min-w-[6rem] whitespace-normal">{c.getValue<string>()}</span> },
  { accessorKey: 'frequency', header: 'Frequency', cell: (c) => frequencyLabel(c.getValue<string>()) },
  { accessorKey: 'start_date', header: 'Start date', cell: (c) => <span className="tabular-nums">{formatDisplayDate(c.getValue<string>())}</span> },
  { accessorKey: 'end_date', header: 'End date', cell: (c) => <span className="tabular-nums">{formatDisplayDate(c.getValue<string>())}</span> },
  {
    accessorKey: 'max_budget',
    header: 'Max budget',
    enableSorting: false,
    // A §3: max_budget is derived for every campaign (it equals the weekly budget), so it is shown
    // for every row, not only the hidden maximum-budget type's.
    cell: (c) => <span className="tabular-nums">{formatDollars(c.getValue<number>())}</span>,
  },
]

/**
 * /admin/campaigns (B §2): every company's campaigns but the deleted ones, newest start
 * first; one selected campaign can be edited, have its weeks edited or moved and its delivery
 * recorded, or be deleted after a confirmation.
 */
export default function AdminCampaigns() {
  const { grid, setGrid, text: filter, setText: setFilter, q } = useGridSearch({ page: 1, pageSize: ADMIN_PAGE_SIZES[0]!, sort: ADMIN_DEFAULT_SORT })
  const [selectedId, setSelectedId] = useState<string | null>(null)
  const [confirming, setConfirming] = useState(false)
  const [view, setView] = useState<'campaigns' | 'make-goods'>('campaigns')
  const campaigns = useAdminCampaignsQuery({ page: grid.page, page_size: grid.pageSize, sort: grid.sort, q })
  const [deleteCampaign, deleting] = useDeleteCampaignMutation()
  const dispatch = useDispatch()
  const navigate = useNavigate()

  // Deleted campaigns are hidden even if an older server answer still carries one.
  const rows = useMemo(() => (campaigns.data?.items ?? []).filter((c): c is Campaign => !!c && !c.deleted), [campaigns.data])
  const selected = rows.find((c) => c.id === selectedId) ?? null

  const onDelete = async () => {
    if (!selected) return
    try {
      await deleteCampaign({ id: selected.id }).unwrap()
      dispatch(flashShown(MsgDeleted, 'success'))
      setSelectedId(null)
    } catch {
      dispatch(flashShown(MsgDeleteFailed, 'danger'))
    } finally {
      setConfirming(false)
    }
  }

  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-semibold text-slate-900 sm:text-3xl">Campaigns</h1>
        <p className="mt-1 text-slate-600">Every company’s campaigns. Select one to edit it, move its weeks or record its delivery.</p>
      </div>
      {/* The make-goods filter shows every company's make-goods instead of the campaigns. */}
      <div className="w-full max-w-xs space-y-1.5">
        <label htmlFor="admin-campaign-show" className="block text-sm font-medium text-slate-700">
          Show
        </label>
        <select id="admin-campaign-show" className="field-input" value={view} onChange={(e) => setView(e.target.value as 'campaigns' | 'make-goods')}>
          <option value="campaigns">Campaigns</option>
          <option value="make-goods">Make-goods</option>
        </select>
      </div>
      {view === 'make-goods' ? (
        <AdminMakeGoods />
      ) : (
        <>
          <div className="flex flex-col gap-3 lg:flex-row lg:items-end lg:justify-between">
            <div className="w-full max-w-sm space-y-1.5">
              <label htmlFor="admin-campaign-filter" className="block text-sm font-medium text-slate-700">
                Search campaigns
              </label>
              <input
                id="admin-campaign-filter"
                type="search"
                className="field-input"
                placeholder="Campaign name"
                value={filter}
                onChange={(e) => setFilter(e.target.value)}
              />
            </div>
            <div className="flex flex-wrap gap-2" role="toolbar" aria-label="Selected campaign">
              <button type="button" className="btn-secondary" disabled={!selected} onClick={() => selected && navigate(`/admin/campaigns/edit/${selected.id}`)}>
                Edit campaign
              </button>
              <button type="button" className="btn-secondary" disabled={!selected} onClick={() => selected && navigate(`/admin/campaigns/edit/week/${selected.id}`)}>
                Edit weeks
              </button>
              <button type="button" className="btn-danger" disabled={!selected} onClick={() => setConfirming(true)}>
                Delete campaign
              </button>
            </div>
          </div>
          {campaigns.isError && <Alert>{errorMessage(campaigns.error)}</Alert>}
          <DataGrid
            label="Campaigns"
            columns={columns}
            data={rows}
            getRowId={(c) => c.id}
            pageSizeOptions={ADMIN_PAGE_SIZES}
            selection="single"
            selectedIds={selectedId ? [selectedId] : []}
            onSelectionChange={(ids) => setSelectedId(ids[0] ?? null)}
            loading={campaigns.isFetching}
            emptyState={q ? `No campaign matches “${q}”.` : 'No campaigns yet.'}
            server={{ total: campaigns.data?.total ?? 0, state: grid, onStateChange: setGrid }}
          />
          <Confirm
            open={confirming}
            title="Delete campaign"
            message={CONFIRM_DELETE}
            confirmText="Delete campaign"
            cancelText="Keep it"
            tone="danger"
            busy={deleting.isLoading}
            onConfirm={onDelete}
            onCancel={() => setConfirming(false)}
          />
        </>
      )}
    </div>
  )
}
