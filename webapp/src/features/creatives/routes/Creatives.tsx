import { createColumnHelper } from '@tanstack/react-table'
import { useState } from 'react'
import { Link } from 'react-router'
import { MsgBuildHint, MsgDeleteCreative, type Creative } from '../../../platform/api-types/creatives'
import {
  useDefaultCreativeQuery,
  useDeleteCreativeMutation,
  useListCreativesQuery,
  useSetDefaultCreativeMutation,
} from '../shared/api'
import CreativeRequestForm from '../shared/CreativeRequestForm'
import CreativeUploadForm from '../shared/CreativeUploadForm'
import DataGrid, { type GridState } from '../../../platform/DataGrid'
import { formatDisplayDate } from '../../../platform/dates'
import Modal from '../../../platform/Modal'
import { useConfirmedDelete, useFlashedAction } from '../components/actions'
import BulkCreativesModal from '../components/BulkCreativesModal'

/** A §9: the creatives list offers 10, 20, 50 and All (0). */
export const CREATIVE_PAGE_SIZES = [10, 20, 50, 0]

const column = createColumnHelper<Creative>()

/** A §2 /creatives: the company's creatives, the new-creative modal, delete, the default creative. */
export default function Creatives() {
  const [grid, setGrid] = useState<GridState>({ page: 1, pageSize: CREATIVE_PAGE_SIZES[0]!, sort: '-created_at' })
  const list = useListCreativesQuery({ page: grid.page, page_size: grid.pageSize, sort: grid.sort || undefined })
  const defaultCreative = useDefaultCreativeQuery()
  const [creating, setCreating] = useState(false)
  const [bulk, setBulk] = useState(false)
  const [requesting, setRequesting] = useState(false)
  const [sending, setSending] = useState(false)
  const [saving, setSaving] = useState(false)
  const [remove] = useDeleteCreativeMutation()
  const [setDefault, defaulting] = useSetDefaultCreativeMutation()
  const run = useFlashedAction()
  const deletion = useConfirmedDelete<Creative>({
    title: 'Delete creative',
    message: MsgDeleteCreative,
    remove: (id) => remove(id).unwrap(),
    deleted: (creative) => `The creative '${creative.name}' has been deleted`,
  })

  const columns = [
    column.display({
      id: 'preview',
      header: 'Preview',
      cell: ({ row }) => (
        <img src={row.original.converted_thumb || row.original.awsUrl} alt={row.original.alt || row.original.name} className="h-8 w-28 rounded bg-slate-100 object-contain" loading="lazy" />
      ),
    }),
    column.accessor('name', {
      header: 'Name',
      cell: ({ row, getValue }) => (
        <span className="flex items-center gap-2">
          <a href={row.original.awsUrl} target="_blank" rel="noreferrer" className="link">
            {getValue()}
          </a>
          {row.original.is_default && <span className="rounded-full bg-brand-50 px-2 py-0.5 text-xs font-medium text-brand-700">Default</span>}
        </span>
      ),
    }),
    column.accessor('reference', { header: 'Reference', enableSorting: false }),
    column.display({ id: 'size', header: 'Size', cell: ({ row }) => `${row.original.width}x${row.original.height}` }),
    column.accessor('created_at', { header: 'Added', cell: ({ getValue }) => formatDisplayDate(getValue()) }),
    column.display({
      id: 'actions',
      header: 'Actions',
      cell: ({ row }) => (
        <span className="flex gap-1">
          {!row.original.is_default && (
            <button
              type="button"
              className="btn-ghost px-2 py-1"
              aria-label={`Set as default ${row.original.name}`}
              disabled={defaulting.isLoading}
              onClick={() => void run(() => setDefault(row.original.id).unwrap(), `'${row.original.name}' is now your company's default creative`)}
            >
              Set as default
            </button>
          )}
          <button type="button" className="btn-ghost px-2 py-1 text-red-700" aria-label={`Delete ${row.original.name}`} onClick={() => deletion.ask(row.original)}>
            Delete
          </button>
        </span>
      ),
    }),
  ]

  const current = defaultCreative.data

  return (
    <div className="space-y-6">
      <div className="flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
        <div>
          <h1 className="text-2xl font-semibold text-slate-900 sm:text-3xl">Creatives</h1>
          <p className="mt-1 text-slate-600">The ads your campaigns show: upload a creative, or build one.</p>
        </div>
        <div className="flex flex-wrap gap-2">
          <Link to="/creatives/create" className="btn-secondary">
            Ad Design Tool
          </Link>
          <button type="button" className="btn-secondary" onClick={() => setRequesting(true)}>
            Request a build
          </button>
          <button type="button" className="btn-secondary" onClick={() => setBulk(true)}>
            Upload several
          </button>
          <button type="button" className="btn-primary" onClick={() => setCreating(true)}>
            New creative
          </button>
        </div>
      </div>

      <p className="rounded-lg border border-sky-200 bg-sky-50 px-4 py-3 text-sm text-sky-900" data-testid="creative-hint">
        {MsgBuildHint}
      </p>

      <section aria-labelledby="default-creative" className="card flex flex-col gap-4 p-5 sm:flex-row sm:items-center">
        <div className="sm:w-64">
          <h2 id="default-creative" className="font-semibold text-slate-900">
            Company default creative
          </h2>
          <p className="mt-1 text-sm text-slate-600">Used by a campaign when no other creative is chosen.</p>
        </div>
        {current ? (
          <figure className="flex flex-1 items-center gap-4">
            <img src={current.converted_thumb || current.awsUrl} alt={current.alt || current.name} className="h-16 w-56 rounded-lg border border-slate-200 bg-slate-50 object-contain" />
            <figcaption className="text-sm font-medium text-slate-800">{current.name}</figcaption>
          </figure>
        ) : (
          <p className="flex-1 text-sm text-slate-500">{defaultCreative.isLoading ? 'Loading…' : 'No default yet: choose one with “Set as default” below.'}</p>
        )}
      </section>

      {/* width 0 with min-width 100%: the grid scrolls inside itself instead of widening the page. */}
      <div className="w-0 min-w-full">
        <DataGrid
          label="Creatives"
          columns={columns}
          data={list.data?.items ?? []}
          getRowId={(c) => c.id}
          pageSizeOptions={CREATIVE_PAGE_SIZES}
          loading={list.isFetching}
          emptyState={
            <span>
              No creatives yet.{' '}
              <button type="button" className="link" onClick={() => setCreating(true)}>
                Upload your first creative
              </button>{' '}
              or{' '}
              <Link to="/creatives/create" className="link">
                build one
              </Link>
              .
            </span>
          }
          server={{ total: list.data?.total ?? 0, state: grid, onStateChange: setGrid }}
        />
      </div>

      <Modal
        open={creating}
        title="New creative"
        onClose={() => setCreating(false)}
        closeOnBackdrop={false}
        footer={
          <>
            <button type="button" className="btn-secondary" onClick={() => setCreating(false)}>
              Cancel
            </button>
            <button type="submit" form="new-creative-form" className="btn-primary" disabled={saving}>
              {saving ? 'Saving…' : 'Save creative'}
            </button>
          </>
        }
      >
        <CreativeUploadForm formId="new-creative-form" onBusyChange={setSaving} onSaved={() => setCreating(false)} />
      </Modal>

      <BulkCreativesModal open={bulk} onClose={() => setBulk(false)} />

      <Modal
        open={requesting}
        title="Request a build"
        onClose={() => setRequesting(false)}
        closeOnBackdrop={false}
        footer={
          <>
            <button type="button" className="btn-secondary" onClick={() => setRequesting(false)}>
              Close
            </button>
            <button type="submit" form="creative-request-form" className="btn-primary" disabled={sending}>
              {sending ? 'Sending…' : 'Send request'}
            </button>
          </>
        }
      >
        <CreativeRequestForm formId="creative-request-form" onBusyChange={setSending} />
      </Modal>

      {deletion.dialog}
    </div>
  )
}
