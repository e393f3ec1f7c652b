import { useMemo, useState } from 'react'
import { Link } from 'react-router'
import Alert from '../../../platform/Alert'
import type { GridState } from '../../../platform/DataGrid'
import { errorMessage } from '../../../platform/http'
import { useReportsQuery } from '../api'
import ReportActions from '../components/ReportActions'
import ReportGrid from '../components/ReportGrid'
import WeeklyReports from '../components/WeeklyReports'
import { REPORT_PAGE_SIZES } from '../rules'

/**
 * B §2 /reports: the company's reports with a new-report button, page sizes 10, 20, 50 and All
 * (default 10), removal after a confirm; the flash carried from the form shows here once, for 5 s.
 * Below, the campaigns' weekly reports.
 */
export default function Reports() {
  const [grid, setGrid] = useState<GridState>({ page: 1, pageSize: REPORT_PAGE_SIZES[0]!, sort: '' })
  const [selectedId, setSelectedId] = useState<string | null>(null)
  const list = useReportsQuery({ page: grid.page, page_size: grid.pageSize, sort: grid.sort })
  const rows = useMemo(() => list.data?.items ?? [], [list.data])
  const selected = rows.find((r) => r.id === selectedId) ?? null

  return (
    <div className="space-y-6">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-end sm:justify-between">
        <div>
          <h1 className="text-2xl font-semibold text-slate-900 sm:text-3xl">Reports</h1>
          <p className="mt-1 text-slate-600">Proof-of-performance reports of your campaigns: planned against delivered impressions, with the proof photos.</p>
        </div>
        <Link to="/reports/new" className="btn-primary self-start sm:self-auto">
          New report
        </Link>
      </div>
      {list.isError && <Alert>{`Sorry! ${errorMessage(list.error)}`}</Alert>}
      <ReportActions selected={selected} base="/reports" onRemoved={() => setSelectedId(null)} />
      <ReportGrid
        rows={rows}
        total={list.data?.total ?? 0}
        grid={grid}
        onGridChange={setGrid}
        pageSizes={REPORT_PAGE_SIZES}
        loading={list.isFetching}
        base="/reports"
        selectedId={selectedId}
        onSelect={setSelectedId}
        emptyState={
          <span>
            No reports yet.{' '}
            <Link to="/reports/new" className="font-medium text-brand-700 hover:underline">
              Make your first report
            </Link>
            .
          </span>
        }
      />
      <WeeklyReports />
    </div>
  )
}
