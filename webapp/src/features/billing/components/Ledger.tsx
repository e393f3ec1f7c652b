import { useState } from 'react'
import Alert from '../../../platform/Alert'
import type { Transaction } from '../../../platform/api-types/billing'
import { currency } from '../shared/promoRules'
import DataGrid, { type Columns, type GridState } from '../../../platform/DataGrid'
import { formatDisplayDate } from '../../../platform/dates'
import { errorMessage } from '../../../platform/http'
import { useTransactionsQuery } from '../api'

/** The ledger's page sizes: the admin grids' (B §2); 0 is All. */
const LEDGER_PAGE_SIZES = [50, 75, 100, 0]

const columns: Columns<Transaction> = [
  { accessorKey: 'created_at', header: 'Date', cell: (c) => formatDisplayDate(c.getValue<string>()) },
  { accessorKey: 'company_name', header: 'Company', enableSorting: false, cell: (c) => c.getValue<string>() || c.row.original.company_id },
  { accessorKey: 'kind', header: 'Kind', enableSorting: false, cell: (c) => <span className="capitalize">{c.getValue<string>()}</span> },
  { accessorKey: 'status', header: 'Status', enableSorting: false, cell: (c) => <span className="capitalize">{c.getValue<string>()}</span> },
  { accessorKey: 'amount', header: 'Amount', cell: (c) => <span className="tabular-nums">{currency(c.getValue<number>())}</span> },
  { accessorKey: 'description', header: 'Description', enableSorting: false },
  { accessorKey: 'failure_message', header: 'Gateway message', enableSorting: false },
]

/** A read-only view of every charge, refund and credit movement (GET /api/admin/transactions). */
export default function Ledger() {
  const [grid, setGrid] = useState<GridState>({ page: 1, pageSize: LEDGER_PAGE_SIZES[0]!, sort: '' })
  const ledger = useTransactionsQuery({ page: grid.page, page_size: grid.pageSize, sort: grid.sort })
  return (
    <div className="space-y-4 pt-4">
      {ledger.isError && <Alert>{errorMessage(ledger.error)}</Alert>}
      <DataGrid
        label="Ledger"
        columns={columns}
        data={ledger.data?.items ?? []}
        getRowId={(t) => t.id}
        pageSizeOptions={LEDGER_PAGE_SIZES}
        loading={ledger.isFetching}
        emptyState="No charges, refunds or credit movements yet."
        server={{ total: ledger.data?.total ?? 0, state: grid, onStateChange: setGrid }}
      />
    </div>
  )
}
