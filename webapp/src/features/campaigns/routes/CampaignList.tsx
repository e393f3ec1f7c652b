import { useMemo } from 'react'
import { Link, useNavigate, useSearchParams } from 'react-router'
import Alert from '../../../platform/Alert'
import type { Campaign } from '../../../platform/api-types/campaigns'
import DataGrid, { type Columns } from '../../../platform/DataGrid'
import { useGridSearch } from '../../../platform/useGridSearch'
import { formatDisplayDate } from '../../../platform/dates'
import { errorMessage } from '../../../platform/http'
import { formatCount, formatDollars } from '../../../platform/money'
import { useCampaignsQuery } from '../api'
import { campaignType, frequencyLabel, LIST_PAGE_SIZES, STATUS_FILTERS, statusFromQuery } from '../list/listRules'
import StatusBadge from '../list/StatusBadge'


const columns: Columns<Campaign> = [
  { accessorKey: 'status', header: 'Status', cell: (c) => <StatusBadge status={c.getValue<string>()} /> },
  {
    accessorKey: 'name',
    header: 'Name',
    cell: (c) => (
      <Link
        to={`/campaigns/${encodeURIComponent(c.row.original.id)}`}
        className="font-medium text-brand-700 hover:underline"
        // The row click selects too; the link alone is enough.
        onClick={(e) => e.stopPropagation()}
      >
        {c.getValue<string>()}
      </Link>
    ),
  },
  { id: 'campaignType', accessorFn: (c) => campaignType(c), header: 'Type' },
  { accessorKey: 'frequency', header: 'Frequency', cell: (c) => frequencyLabel(c.getValue<string>()) },
  { accessorKey: 'start_date', header: 'Start date', cell: (c) => formatDisplayDate(c.getValue<string>()) },
  { accessorKey: 'end_date', header: 'End date', cell: (c) => formatDisplayDate(c.getValue<string>()) },
  { accessorKey: 'weekly_budget', header: 'Weekly budget', cell: (c) => <span className="tabular-nums">{formatDollars(c.getValue<number>())}</span> },
  { accessorKey: 'total_budget', header: 'Total budget', cell: (c) => <span className="tabular-nums">{formatDollars(c.getValue<number>())}</span> },
  { accessorKey: 'totalActImp', header: 'Actual impressions', cell: (c) => <span className="tabular-nums">{formatCount(c.getValue<number>() ?? 0)}</span> },
]

/**
 * A §2 /campaigns: search by name, the status filter (also ?status=), the totals of budget and
 * actual impressions of everything that matches, the campaign type, and a row opens the detail.
 * Deleted campaigns never come back from the server.
 */
export default function CampaignList() {
  const [params, setParams] = useSearchParams()
  const status = statusFromQuery(params.get('status'))
  const { grid, setGrid, text: search, setText: setSearch, q } = useGridSearch({ page: 1, pageSize: LIST_PAGE_SIZES[0]!, sort: '' })
  const navigate = useNavigate()

  const list = useCampaignsQuery({ q, status, page: grid.page, page_size: grid.pageSize, sort: grid.sort })
  const rows = useMemo(() => (list.data?.items ?? []).filter((c): c is Campaign => !!c && !c.deleted), [list.data])
  const totals = list.data?.totals

  const setStatus = (value: string) => {
    const next = new URLSearchParams(params)
    if (value) next.set('status', value)
    else next.delete('status')
    setParams(next, { replace: true })
    setGrid((g) => ({ ...g, page: 1 }))
  }

  const filtered = q !== '' || status !== ''

  return (
    <div className="space-y-6">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-end sm:justify-between">
        <div>
          <h1 className="text-2xl font-semibold text-slate-900 sm:text-3xl">Campaigns</h1>
          <p className="mt-1 text-slate-600">Every campaign of your company. Select one to follow it week by week.</p>
        </div>
        <Link to="/campaigns/new" className="btn-primary self-start sm:self-auto">
          New campaign
        </Link>
      </div>

      <div className="grid gap-3 sm:grid-cols-[minmax(0,1fr)_12rem]">
        <div className="space-y-1.5">
          <label htmlFor="campaign-search" className="block text-sm font-medium text-slate-700">
            Search campaigns
          </label>
          <input id="campaign-search" type="search" className="field-input" placeholder="Campaign name" value={search} onChange={(e) => setSearch(e.target.value)} />
        </div>
        <div className="space-y-1.5">
          <label htmlFor="campaign-status" className="block text-sm font-medium text-slate-700">
            Status
          </label>
          <select id="campaign-status" className="field-input" value={status} onChange={(e) => setStatus(e.target.value)}>
            <option value="">All statuses</option>
            {STATUS_FILTERS.map((f) => (
              <option key={f.value} value={f.value}>
                {f.label}
              </option>
            ))}
          </select>
        </div>
      </div>

      <section aria-label="Totals" className="grid grid-cols-2 gap-3 lg:grid-cols-4">
        <Total label="Campaigns" value={list.data ? formatCount(list.data.total) : '—'} />
        <Total label="Weekly budget" value={totals ? formatDollars(totals.weekly_budget) : '—'} />
        <Total label="Total budget" value={totals ? formatDollars(totals.total_budget) : '—'} />
        <Total label="Actual impressions" value={totals ? formatCount(totals.total_act_imp) : '—'} />
      </section>

      {list.isError && <Alert>{`Sorry! ${errorMessage(list.error)}`}</Alert>}

      <DataGrid
        label="Campaigns"
        columns={columns}
        data={rows}
        getRowId={(c) => c.id}
        pageSizeOptions={LIST_PAGE_SIZES}
        selection="single"
        selectedIds={[]}
        onSelectionChange={(ids) => ids[0] && navigate(`/campaigns/${encodeURIComponent(ids[0])}`)}
        loading={list.isFetching}
        emptyState={
          filtered ? (
            'No campaign matches your search.'
          ) : (
            <span>
              No campaigns yet.{' '}
              <Link to="/campaigns/new" className="font-medium text-brand-700 hover:underline">
                Create your first campaign
              </Link>
              .
            </span>
          )
        }
        server={{ total: list.data?.total ?? 0, state: grid, onStateChange: setGrid }}
      />
    </div>
  )
}

function Total({ label, value }: { label: string; value: string }) {
  return (
    <div className="card px-4 py-3">
      <p className="text-xs font-medium tracking-wide text-slate-500 uppercase">{label}</p>
      <p className="mt-1 text-xl font-semibold text-slate-900 tabular-nums">{value}</p>
    </div>
  )
}
