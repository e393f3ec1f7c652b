import { useMemo, useState, type FormEvent } from 'react'
import { useDispatch } from 'react-redux'
import { Link } from 'react-router'
import Alert from '../../../platform/Alert'
import DataGrid, { type Columns, type GridState } from '../../../platform/DataGrid'
import Modal from '../../../platform/Modal'
import { MsgMakeGoodWaived, MsgWaiveReasonRequired, type MakeGood } from '../../../platform/api-types/campaigns'
import { formatDisplayDate } from '../../../platform/dates'
import { flashShown } from '../../../platform/flash/flash'
import { errorMessage } from '../../../platform/http'
import TextInput from '../../../platform/inputs/TextInput'
import { formatCount } from '../../../platform/money'
import { useAdminMakeGoodsQuery, useAdminWaiveMakeGoodMutation } from '../adminApi'
import { formatCredit } from '../detail/deliveryRules'
import { ADMIN_PAGE_SIZES } from './adminRules'

export const WAIVE_WARNING = 'Waiving takes the make-good’s credit back from the company (as much as it still holds) and cannot be undone. The reason goes in the audit log.'

/**
 * The make-goods filter of /admin/campaigns: every company's make-goods, newest first,
 * by status; a granted one can be waived with a reason, after a confirmation.
 */
export default function AdminMakeGoods() {
  const [grid, setGrid] = useState<GridState>({ page: 1, pageSize: ADMIN_PAGE_SIZES[0]!, sort: '' })
  const [status, setStatus] = useState('granted')
  const [waiving, setWaiving] = useState<MakeGood | null>(null)
  const list = useAdminMakeGoodsQuery({ page: grid.page, page_size: grid.pageSize, status })

  const columns = useMemo<Columns<MakeGood>>(
    () => [
      { accessorKey: 'company_name', header: 'Company', enableSorting: false },
      {
        accessorKey: 'campaign_name',
        header: 'Campaign',
        enableSorting: false,
        cell: (c) => (
          <Link className="link" to={`/campaigns/${c.row.original.campaign_id}`}>
            {c.getValue<string>()}
          </Link>
        ),
      },
      {
        id: 'week',
        header: 'Week and face',
        enableSorting: false,
        cell: (c) => (
          <span className="block min-w-[10rem] whitespace-normal">
            <span className="block">{formatDisplayDate(c.row.original.week_start)}</span>
            <span className="block text-xs text-slate-500">
              {c.row.original.location_name}
              {c.row.original.face ? ` (${c.row.original.face})` : ''}
            </span>
          </span>
        ),
      },
      {
        id: 'delivery',
        header: 'Delivered vs plan',
        enableSorting: false,
        cell: (c) => (
          <span className="tabular-nums">
            {formatCount(c.row.original.delivered)} / {formatCount(c.row.original.planned)} ({c.row.original.delivery_pct.toFixed(1)}%)
          </span>
        ),
      },
      { accessorKey: 'credit', header: 'Credit', enableSorting: false, cell: (c) => <span className="tabular-nums">{formatCredit(c.getValue<number>())}</span> },
      {
        accessorKey: 'status',
        header: 'Status',
        enableSorting: false,
        cell: (c) => {
          const m = c.row.original
          if (m.status === 'waived') return <span title={m.waive_reason}>Waived</span>
          return (
            <button type="button" className="btn-ghost px-2 py-1 text-xs" aria-label={`Waive the make-good of ${m.campaign_name}, week of ${formatDisplayDate(m.week_start)} at ${m.location_name}`} onClick={() => setWaiving(m)}>
              Waive
            </button>
          )
        },
      },
    ],
    [],
  )

  return (
    <div className="space-y-3">
      <div className="w-full max-w-xs space-y-1.5">
        <label htmlFor="make-good-status" className="block text-sm font-medium text-slate-700">
          Make-good status
        </label>
        <select
          id="make-good-status"
          className="field-input"
          value={status}
          onChange={(e) => {
            setStatus(e.target.value)
            setGrid((g) => ({ ...g, page: 1 }))
          }}
        >
          <option value="granted">Granted</option>
          <option value="waived">Waived</option>
          <option value="all">All</option>
        </select>
      </div>
      {list.isError && <Alert>{errorMessage(list.error)}</Alert>}
      <DataGrid
        label="Make-goods"
        columns={columns}
        data={list.data?.items ?? []}
        getRowId={(m) => m.id}
        pageSizeOptions={ADMIN_PAGE_SIZES}
        loading={list.isFetching}
        emptyState="No make-goods: every finished week with recorded delivery reached its threshold."
        server={{ total: list.data?.total ?? 0, state: grid, onStateChange: setGrid }}
      />
      <WaiveModal makeGood={waiving} onClose={() => setWaiving(null)} />
    </div>
  )
}

function WaiveModal({ makeGood, onClose }: { makeGood: MakeGood | null; onClose: () => void }) {
  return (
    <Modal open={makeGood !== null} title="Waive make-good" onClose={onClose} description={WAIVE_WARNING}>
      {makeGood && <WaiveForm key={makeGood.id} makeGood={makeGood} onDone={onClose} />}
    </Modal>
  )
}

function WaiveForm({ makeGood, onDone }: { makeGood: MakeGood; onDone: () => void }) {
  const [reason, setReason] = useState('')
  const [error, setError] = useState<string | null>(null)
  const [waive, waiving] = useAdminWaiveMakeGoodMutation()
  const dispatch = useDispatch()

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault()
    if (!reason.trim()) {
      setError(MsgWaiveReasonRequired)
      return
    }
    try {
      const answer = await waive({ id: makeGood.id, body: { reason: reason.trim() } }).unwrap()
      dispatch(flashShown(answer?.message || MsgMakeGoodWaived, 'success'))
      onDone()
    } catch (e) {
      setError(`Sorry! ${errorMessage(e)}`)
    }
  }

  return (
    <form noValidate onSubmit={onSubmit} className="space-y-4">
      <p className="text-sm text-slate-700">
        {makeGood.company_name} · {makeGood.campaign_name} · week of {formatDisplayDate(makeGood.week_start)}: {formatCredit(makeGood.credit)} credit.
      </p>
      <TextInput id={`waive-reason-${makeGood.id}`} label="Reason" multiline rows={3} maxLength={500} value={reason} onChange={setReason} error={error} required />
      <div className="flex justify-end gap-2">
        <button type="button" className="btn-secondary" onClick={onDone}>
          Keep it
        </button>
        <button type="submit" className="btn-danger" disabled={waiving.isLoading}>
          Waive make-good
        </button>
      </div>
    </form>
  )
}
