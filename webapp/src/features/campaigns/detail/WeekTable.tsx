import { useMemo, useState } from 'react'
import type { Week } from '../../../platform/api-types/campaigns'
import Alert from '../../../platform/Alert'
import DataGrid, { type Columns, type GridState } from '../../../platform/DataGrid'
import { errorMessage } from '../../../platform/http'
import { formatCount, formatDollars } from '../../../platform/money'
import { useCampaignWeeksQuery } from '../api'
import StatusBadge from '../list/StatusBadge'
import { faceDescription } from '../../../platform/map/viewRules'
import { belowThreshold, deliveryPercent, deliverySource, formatCredit, signedCount } from './deliveryRules'
import { creativeImageUrl, WEEK_PAGE_SIZES, weekCreativeChangeable, weekRange } from './detailRules'

/** The make-good badge of a week row: its credit, or that it was waived. */
function MakeGoodMarker({ makeGood }: { makeGood: NonNullable<Week['make_good']> }) {
  return (
    <a href="#section-make-goods" className="mt-1 flex w-fit items-center gap-1 rounded-full bg-amber-100 px-2 py-0.5 text-xs font-semibold text-amber-900 hover:underline">
      <span aria-hidden="true">⚑</span>
      {makeGood.status === 'waived' ? 'Make-good waived' : `Make-good ${formatCredit(makeGood.credit)}`}
    </a>
  )
}

function TwoLines({ children }: { children: string }) {
  return <span className="inline-block max-w-[6.5rem] text-left whitespace-normal">{children}</span>
}

export interface WeekTableProps {
  campaignId: string
  /** Opens the creative selector for one week; absent when the campaign cannot change. */
  onChangeCreative?: (week: Week) => void
  /** The delivery percentage under which a finished week earns a make-good. */
  makeGoodThreshold?: number
}

/** B §2: the campaign's weeks (one face in one week each), 10 per page by default. */
export default function WeekTable({ campaignId, onChangeCreative, makeGoodThreshold = 90 }: WeekTableProps) {
  const [grid, setGrid] = useState<GridState>({ page: 1, pageSize: WEEK_PAGE_SIZES[0]!, sort: '' })
  const weeks = useCampaignWeeksQuery({ id: campaignId, page: grid.page, page_size: grid.pageSize, sort: grid.sort })

  const columns = useMemo<Columns<Week>>(
    () => [
      // The range breaks after its dash when the table is tight: with the delivery column
      // the table no longer fitted 1366 px screens on one line per week.
      // A week row that earned a make-good is marked where the row starts: make-goods
      // are per face and week, so this row, not the campaign's chart, is where one is explained.
      {
        id: 'start_at',
        accessorKey: 'start_at',
        header: 'Week',
        cell: (c) => (
          <span className="inline-block max-w-[8rem] whitespace-normal tabular-nums">
            {weekRange(c.row.original)}
            {c.row.original.make_good && <MakeGoodMarker makeGood={c.row.original.make_good} />}
          </span>
        ),
      },
      {
        id: 'location_name',
        accessorFn: (w) => w.product.location_name,
        header: 'Location',
        // Wraps (the grid's cells do not): at 1366 px a long name pushed the Change button out
        // of sight. The face is always shown, the whole in a tooltip.
        cell: (c) => (
          <span className="block max-w-[16rem] min-w-[10rem] whitespace-normal" title={faceDescription(c.row.original.product)}>
            <span className="block font-medium text-slate-900">{c.row.original.product.location_name}</span>
            <span className="block text-xs text-slate-500">
              {c.row.original.product.face} · {[c.row.original.product.city, c.row.original.product.market].filter(Boolean).join(', ')}
            </span>
          </span>
        ),
      },
      {
        id: 'creative',
        header: 'Creative',
        enableSorting: false,
        cell: (c) => {
          const w = c.row.original
          const proofs = w.creatives?.filter((x) => x.creative_type === 'Proof').length ?? 0
          return (
            <span className="flex items-center gap-2">
              {w.creativeUrl ? <img src={creativeImageUrl(w.creativeUrl)} alt="" className="h-7 w-20 rounded bg-slate-100 object-contain" /> : <span className="text-xs text-slate-500">None</span>}
              {proofs > 0 && <span className="text-xs text-slate-500">{proofs === 1 ? '1 proof' : `${proofs} proofs`}</span>}
              {onChangeCreative && weekCreativeChangeable(w) && (
                <button
                  type="button"
                  className="btn-ghost px-2 py-1 text-xs"
                  aria-label={`Change creative for ${w.product.location_name}, ${weekRange(w)}`}
                  onClick={() => onChangeCreative(w)}
                >
                  Change
                </button>
              )}
            </span>
          )
        },
      },
      // The week's status as the server reads it with its campaign (a pending campaign's weeks are
      // pending, not active); an older answer without it falls back to the calendar's status.
      { id: 'status', accessorFn: (w) => w.status || w.status_week, header: 'Status', enableSorting: false, cell: (c) => <StatusBadge status={c.getValue<string>()} /> },
      { accessorKey: 'offer_price', header: 'Price', cell: (c) => <span className="tabular-nums">{formatDollars(c.getValue<number>())}</span> },
      // Two-line headers: the widest cells of the table were these words.
      { accessorKey: 'product_ooh', meta: { label: 'Estimated impressions' }, header: () => <TwoLines>Estimated impressions</TwoLines>, cell: (c) => <span className="tabular-nums">{formatCount(c.getValue<number>())}</span> },
      {
        accessorKey: 'act_imp',
        meta: { label: 'Actual impressions' },
        header: () => <TwoLines>Actual impressions</TwoLines>,
        // Issue 28 §6: per face and week, where the figure comes from (the screen, an import, admin entry).
        cell: (c) => {
          const v = c.getValue<number | undefined>()
          const source = typeof v === 'number' ? deliverySource(c.row.original.delivery_source) : null
          return (
            <span className="block">
              <span className="tabular-nums">{typeof v === 'number' ? formatCount(v) : '—'}</span>
              {source && (
                <span title={source.description} className={`mt-1 block w-fit rounded-full px-2 py-0.5 text-xs font-semibold whitespace-nowrap ${source.tone}`}>
                  <span className="sr-only">Source: </span>
                  {source.label}
                  <span className="sr-only">. {source.description}.</span>
                </span>
              )}
            </span>
          )
        },
      },
      // Delivered against the plan frozen at purchase, and the week's make-good.
      {
        id: 'delivery',
        meta: { label: 'Delivered vs plan' },
        header: () => <TwoLines>Delivered vs plan</TwoLines>,
        enableSorting: false,
        cell: (c) => {
          const w = c.row.original
          const pct = deliveryPercent(w)
          if (pct === null) return <span className="text-xs text-slate-500">Not recorded</span>
          const low = belowThreshold(w.delivery_pct, makeGoodThreshold)
          return (
            <span className="block min-w-[7rem] whitespace-normal tabular-nums">
              <span className={low ? 'font-medium text-red-700' : 'font-medium text-slate-900'}>{pct}</span>
              {typeof w.delivery_diff === 'number' && <span className="block text-xs text-slate-500">{signedCount(w.delivery_diff)} impressions</span>}
              {w.make_good && (
                <span className="block text-xs text-amber-800">
                  {w.make_good.status === 'waived'
                    ? `Under ${makeGoodThreshold}%: make-good waived`
                    : `Under ${makeGoodThreshold}% of plan: ${formatCredit(w.make_good.credit)} credit`}
                </span>
              )}
            </span>
          )
        },
      },
    ],
    [onChangeCreative, makeGoodThreshold],
  )

  return (
    <div className="space-y-3">
      {weeks.isError && <Alert>{`Sorry! ${errorMessage(weeks.error)}`}</Alert>}
      <DataGrid
        label="Campaign weeks"
        columns={columns}
        data={weeks.data?.items ?? []}
        getRowId={(w) => w.id}
        pageSizeOptions={WEEK_PAGE_SIZES}
        loading={weeks.isFetching}
        emptyState="This campaign has no weeks booked."
        server={{ total: weeks.data?.total ?? 0, state: grid, onStateChange: setGrid }}
      />
    </div>
  )
}
