import type { ReactNode } from 'react'
import { Link } from 'react-router'
import type { Report } from '../../../platform/api-types/reports'
import DataGrid, { type Columns, type GridState } from '../../../platform/DataGrid'
import { formatDisplayDate } from '../../../platform/dates'

const sourceLabel: Record<string, string> = { generated: 'Generated', scheduled: 'Weekly', uploaded: 'Uploaded' }

/** The report columns: the name opens the report (at `base`/{id}). */
function reportColumns(base: string, withCompany: boolean): Columns<Report> {
  const cols: Columns<Report> = [
    {
      accessorKey: 'name',
      header: 'Name',
      cell: (c) => (
        <Link to={`${base}/${encodeURIComponent(c.row.original.id)}`} className="font-medium text-brand-700 hover:underline" onClick={(e) => e.stopPropagation()}>
          {c.getValue<string>()}
        </Link>
      ),
    },
    { accessorKey: 'campaign_name', header: 'Campaign' },
  ]
  if (withCompany) cols.push({ accessorKey: 'company_name', header: 'Company' })
  cols.push(
    {
      id: 'period',
      header: 'Period',
      enableSorting: false,
      accessorFn: (r) => (r.period_start ? `${formatDisplayDate(r.period_start)} – ${formatDisplayDate(r.period_end)}` : ''),
    },
    { accessorKey: 'campaign_weeks_count', header: 'Weeks', enableSorting: false, cell: (c) => (c.getValue<number>() > 0 ? c.getValue<number>() : '—') },
    {
      accessorKey: 'source',
      header: 'Kind',
      enableSorting: false,
      cell: (c) => <span className="rounded-full bg-slate-100 px-2 py-0.5 text-xs font-semibold text-slate-700">{sourceLabel[c.getValue<string>()] ?? c.getValue<string>()}</span>,
    },
    { accessorKey: 'created_at', header: 'Created', cell: (c) => formatDisplayDate(new Date(c.getValue<string>())) },
  )
  return cols
}

export interface ReportGridProps {
  rows: Report[]
  total: number
  grid: GridState
  onGridChange: (g: GridState) => void
  pageSizes: number[]
  loading: boolean
  base: string
  withCompany?: boolean
  selectedId: string | null
  onSelect: (id: string | null) => void
  emptyState: ReactNode
}

/** The report list of /reports and /admin/reports (server-side pages, single selection). */
export default function ReportGrid({ rows, total, grid, onGridChange, pageSizes, loading, base, withCompany = false, selectedId, onSelect, emptyState }: ReportGridProps) {
  return (
    <DataGrid
      label="Reports"
      columns={reportColumns(base, withCompany)}
      data={rows}
      getRowId={(r) => r.id}
      pageSizeOptions={pageSizes}
      selection="single"
      selectedIds={selectedId ? [selectedId] : []}
      onSelectionChange={(ids) => onSelect(ids[0] ?? null)}
      loading={loading}
      emptyState={emptyState}
      server={{ total, state: grid, onStateChange: onGridChange }}
    />
  )
}
