import { useMemo, useState } from 'react'
import { useDispatch } from 'react-redux'
import { Link } from 'react-router'
import Alert from '../../../platform/Alert'
import { ConfirmRemove, MsgRemoveFailed, MsgRemoved } from '../../../platform/api-types/reports'
import Confirm from '../../../platform/Confirm'
import type { GridState } from '../../../platform/DataGrid'
import { FLASH_MEDIUM_MS, flashShown } from '../../../platform/flash/flash'
import { errorMessage } from '../../../platform/http'
import { useRemoveReportMutation, useReportsQuery } from '../api'
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
  const [confirming, setConfirming] = useState(false)
  const list = useReportsQuery({ page: grid.page, page_size: grid.pageSize, sort: grid.sort })
  const [remove, removing] = useRemoveReportMutation()
  const dispatch = useDispatch()
  const rows = useMemo(() => list.data?.items ?? [], [list.data])
  const selected = rows.find((r) => r.id === selectedId) ?? null

  const onRemove = async () => {
    if (!selected) return
    try {
      await remove(selected.id).unwrap()
      setSelectedId(null)
      dispatch(flashShown(MsgRemoved, 'success', FLASH_MEDIUM_MS))
    } catch {
      // B §8: a removal that fails says this, whatever the cause.
      dispatch(flashShown(MsgRemoveFailed, 'danger', FLASH_MEDIUM_MS))
    } finally {
      setConfirming(false)
    }
  }

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
      <div className="flex justify-end" role="toolbar" aria-label="Selected report">
        <button type="button" className="btn-danger" disabled={!selected} onClick={() => setConfirming(true)}>
          Remove report
        </button>
      </div>
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
      <Confirm
        open={confirming}
        title="Remove report"
        message={ConfirmRemove}
        confirmText="Remove report"
        cancelText="Keep it"
        tone="danger"
        busy={removing.isLoading}
        onConfirm={onRemove}
        onCancel={() => setConfirming(false)}
      />
    </div>
  )
}
