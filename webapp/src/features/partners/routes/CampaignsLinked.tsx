import { useMemo, useState } from 'react'
import { useSearchParams } from 'react-router'
import Alert from '../../../platform/Alert'
import type { LinkedCampaign } from '../../../platform/api-types/partners'
import DataGrid, { type Columns, type GridState } from '../../../platform/DataGrid'
import { formatDisplayDate } from '../../../platform/dates'
import { errorMessage } from '../../../platform/http'
import { formatDollars } from '../../../platform/money'
import { useLinkedCampaignsQuery } from '../api'
import YearSelect from '../components/YearSelect'
import { CAMPAIGNS_PAGE_SIZES, yearsDownTo2018 } from '../rules'

const money = (c: { getValue: () => unknown }) => <span className="tabular-nums">{formatDollars(Number(c.getValue() ?? 0))}</span>

// Column ids are the server's sort fields: created (the campaign's creation), billed, bonus.
const columns: Columns<LinkedCampaign> = [
  { id: 'name', accessorKey: 'name', header: 'Campaign', enableSorting: false, cell: (c) => <span className="font-medium text-slate-900">{c.getValue<string>() || 'Campaign'}</span> },
  { id: 'company_name', accessorKey: 'company_name', header: 'Client company', enableSorting: false },
  { id: 'created', accessorKey: 'created_at', header: 'Created', cell: (c) => <span className="tabular-nums">{c.getValue<string>() ? formatDisplayDate(c.getValue<string>()) : '—'}</span> },
  { id: 'billed', accessorKey: 'billed', header: 'Billed', cell: money },
  { id: 'bonus', accessorKey: 'bonus', header: 'Your bonus', cell: money },
]

/** ?year= (B §2): a year from 2018 to now, else all time (0). */
function yearOf(raw: string | null): number {
  const y = Number(raw)
  return yearsDownTo2018().includes(y) ? y : 0
}

/**
 * /campaings-linked and /campaigns-linked (B §2 "Partner program"): the campaigns of the linked
 * clients with the billed amount and the bonus earned on each; the `year` query parameter; default
 * sort campaign created, newest first; page sizes and first, previous, next, last paging.
 */
export default function CampaignsLinked() {
  const [params, setParams] = useSearchParams()
  const year = yearOf(params.get('year'))
  const [grid, setGrid] = useState<GridState>({ page: 1, pageSize: CAMPAIGNS_PAGE_SIZES[0]!, sort: '-created' })
  const list = useLinkedCampaignsQuery({ page: grid.page, page_size: grid.pageSize, sort: grid.sort, year })
  const rows = useMemo(() => list.data?.items ?? [], [list.data])
  const totals = rows.reduce((t, r) => ({ billed: t.billed + r.billed, bonus: t.bonus + r.bonus }), { billed: 0, bonus: 0 })

  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-semibold text-slate-900 sm:text-3xl">Linked campaigns</h1>
        <p className="mt-1 text-slate-600">The campaigns of the clients linked to you, what they were billed and the bonus you earned on each.</p>
      </div>
      <div className="flex flex-wrap items-end gap-4">
        <YearSelect
          id="campaigns-year"
          allTime
          value={year}
          onChange={(y) => {
            setParams(y ? { year: String(y) } : {}, { replace: true })
            setGrid({ ...grid, page: 1 })
          }}
        />
        {rows.length > 0 && (
          <p className="text-sm text-slate-600" data-testid="linked-page-totals">
            This page: billed <strong className="tabular-nums text-slate-900">{formatDollars(totals.billed)}</strong>, bonus{' '}
            <strong className="tabular-nums text-slate-900">{formatDollars(totals.bonus)}</strong>
          </p>
        )}
      </div>
      {list.isError && <Alert>{errorMessage(list.error)}</Alert>}
      <DataGrid
        label="Linked campaigns"
        columns={columns}
        data={rows}
        getRowId={(r) => r.campaign_id}
        pageSizeOptions={CAMPAIGNS_PAGE_SIZES}
        loading={list.isFetching}
        emptyState={year ? `No linked campaign was billed in ${year}.` : 'No linked campaign has been billed yet. Invite clients or share your referral code.'}
        server={{ total: list.data?.total ?? 0, state: grid, onStateChange: setGrid }}
      />
    </div>
  )
}
