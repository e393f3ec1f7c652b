import { useMemo, useState } from 'react'
import Alert from '../../../platform/Alert'
import type { CodeRedemption } from '../../../platform/api-types/partners'
import DataGrid, { type Columns, type GridState } from '../../../platform/DataGrid'
import { formatDisplayDate } from '../../../platform/dates'
import { errorMessage } from '../../../platform/http'
import { formatDollars } from '../../../platform/money'
import { useHubQuery } from '../shared/hubApi'
import { useCodesRedeemedQuery } from '../api'
import YearSelect from '../components/YearSelect'
import { CODES_PAGE_SIZES } from '../rules'

// Column ids are the server's sort fields (createdAt, amount, linked); the company is not sortable.
const columns: Columns<CodeRedemption> = [
  { id: 'company_name', accessorKey: 'company_name', header: 'Client company', enableSorting: false, cell: (c) => <span className="font-medium text-slate-900">{c.getValue<string>()}</span> },
  { id: 'createdAt', accessorKey: 'createdAt', header: 'Redeemed', cell: (c) => <span className="tabular-nums">{formatDisplayDate(c.getValue<string>())}</span> },
  { id: 'amount', accessorKey: 'amount', header: 'Amount', cell: (c) => <span className="tabular-nums">{formatDollars(c.getValue<number>())}</span> },
  {
    id: 'linked',
    header: 'Linked until',
    accessorFn: (r) => r.linked,
    cell: (c) =>
      c.row.original.linked && c.row.original.linked_until ? (
        <span className="tabular-nums">{formatDisplayDate(c.row.original.linked_until)}</span>
      ) : (
        <span className="text-slate-500">Linked to another partner</span>
      ),
  },
]

/**
 * /codes-redeemed (B §2 "Partner program"): the redemptions of the partner's referral code. Year
 * filter 'All Time' then the current year down to 2018; sortable columns, default createdAt
 * ascending; 10 per page with first, previous, next and last.
 */
export default function CodesRedeemed() {
  const [year, setYear] = useState(0)
  const [grid, setGrid] = useState<GridState>({ page: 1, pageSize: CODES_PAGE_SIZES[0]!, sort: 'createdAt' })
  const list = useCodesRedeemedQuery({ page: grid.page, page_size: grid.pageSize, sort: grid.sort, year })
  const hub = useHubQuery()
  const rows = useMemo(() => list.data?.items ?? [], [list.data])
  const code = hub.data?.profile?.promo_code

  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-semibold text-slate-900 sm:text-3xl">Codes redeemed</h1>
        <p className="mt-1 text-slate-600">
          Companies that redeemed your referral code{code ? <> <strong className="font-mono text-slate-900">{code}</strong></> : null}. An advertiser with a card on file that redeems it is linked to you for 12 months; a company joins one partner only, and each card earns one referral credit.
        </p>
      </div>
      <YearSelect
        id="codes-year"
        allTime
        value={year}
        onChange={(y) => {
          setYear(y)
          setGrid({ ...grid, page: 1 })
        }}
      />
      {list.isError && <Alert>{errorMessage(list.error)}</Alert>}
      <DataGrid
        label="Codes redeemed"
        columns={columns}
        data={rows}
        getRowId={(r) => r.id}
        pageSizeOptions={CODES_PAGE_SIZES}
        loading={list.isFetching}
        emptyState={year ? `Nobody redeemed your code in ${year}.` : 'Nobody has redeemed your referral code yet. Share it with the businesses you work with.'}
        server={{ total: list.data?.total ?? 0, state: grid, onStateChange: setGrid }}
      />
    </div>
  )
}
