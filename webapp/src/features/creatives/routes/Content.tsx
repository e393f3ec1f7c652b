import { useId, useState } from 'react'
import { useSelector } from 'react-redux'
import Alert from '../../../platform/Alert'
import { MsgDeleteContent, type Content as ContentItem } from '../../../platform/api-types/creatives'
import { isAdmin, selectUser } from '../../../platform/session'
import Spinner from '../../../platform/Spinner'
import { useDeleteContentMutation, useListContentsQuery, useMarkContentRelevantMutation } from '../api'
import { useConfirmedDelete, useFlashedAction } from '../components/actions'
import EditContentModal from '../components/EditContentModal'
import NewContentModal from '../components/NewContentModal'
import ViewContentModal from '../components/ViewContentModal'
import { CONTENT_TYPE_LABELS, readContentType, SCOPE_LABELS, SCOPES, type ContentType } from '../contentRules'

/** A §9: the content list defaults to 50 for admins, with 50, 75, 100 and All (0). */
export const CONTENT_PAGE_SIZES = [50, 75, 100, 0]

const TYPE_ICONS: Record<ContentType, string> = {
  image: 'M4 5h16v14H4zM4 15l4-4 5 5 3-3 4 4M15 9h.01',
  video: 'M4 6h11v12H4zM15 10l5-3v10l-5-3',
  document: 'M7 3h7l5 5v13H7zM14 3v5h5M10 13h6M10 17h6',
  youtube: 'M3 8.5C3 6 5 5 12 5s9 1 9 3.5v7C21 18 19 19 12 19s-9-1-9-3.5zM10 9l5 3-5 3z',
}

/**
 * A §2 /content: the content library as cards, with the view modal for everyone and, for admins
 * (A §6), the new, edit, delete and relevant actions. The server shows regular users only the
 * items whose scope matches their company type.
 */
export default function Content() {
  const user = useSelector(selectUser)
  const admin = isAdmin(user)
  const searchId = useId()
  const sizeId = useId()
  const [q, setQ] = useState('')
  const [page, setPage] = useState(1)
  // A §6: admins get the page size of 50; a regular user's (shorter, scoped) list shows whole.
  const [pageSize, setPageSize] = useState(admin ? CONTENT_PAGE_SIZES[0]! : 0)
  const list = useListContentsQuery({ page, page_size: pageSize, q: q.trim() || undefined })
  const [creating, setCreating] = useState(false)
  const [viewing, setViewing] = useState<ContentItem | null>(null)
  const [editing, setEditing] = useState<ContentItem | null>(null)
  const [remove] = useDeleteContentMutation()
  const [markRelevant, marking] = useMarkContentRelevantMutation()
  const run = useFlashedAction()
  const deletion = useConfirmedDelete<ContentItem>({
    title: 'Delete content',
    message: MsgDeleteContent,
    remove: (id) => remove(id).unwrap(),
    deleted: (item) => `'${item.name}' has been deleted`,
  })

  const items = list.data?.items ?? []
  const total = list.data?.total ?? 0
  const lastPage = pageSize === 0 ? 1 : Math.max(1, Math.ceil(total / pageSize))

  return (
    <div className="space-y-6">
      <div className="flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
        <div>
          <h1 className="text-2xl font-semibold text-slate-900 sm:text-3xl">Content library</h1>
          <p className="mt-1 text-slate-600">Documents, images and videos to help you plan and run your campaigns.</p>
        </div>
        {admin && (
          <button type="button" className="btn-primary self-start sm:self-auto" onClick={() => setCreating(true)}>
            New content
          </button>
        )}
      </div>

      <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <div className="sm:w-80">
          <label htmlFor={searchId} className="sr-only">
            Search content
          </label>
          <input
            id={searchId}
            type="search"
            className="field-input"
            placeholder="Search by name or tag"
            value={q}
            onChange={(e) => {
              setQ(e.target.value)
              setPage(1)
            }}
          />
        </div>
        <div className="flex items-center gap-2 text-sm text-slate-600">
          <label htmlFor={sizeId}>Items per page</label>
          <select
            id={sizeId}
            className="rounded-lg border border-slate-300 bg-white px-2 py-1"
            value={pageSize}
            onChange={(e) => {
              setPageSize(Number(e.target.value))
              setPage(1)
            }}
          >
            {CONTENT_PAGE_SIZES.map((size) => (
              <option key={size} value={size}>
                {size === 0 ? 'All' : size}
              </option>
            ))}
          </select>
        </div>
      </div>

      {list.isLoading ? (
        <div className="flex justify-center py-16">
          <Spinner label="Loading the content library" className="h-8 w-8" />
        </div>
      ) : list.isError ? (
        <Alert>We could not load the content library. Please try again.</Alert>
      ) : items.length === 0 ? (
        <section className="card px-6 py-14 text-center">
          <h2 className="text-lg font-semibold text-slate-900">{q.trim() ? 'Nothing matches your search' : 'No content yet'}</h2>
          <p className="mt-1 text-slate-600">
            {q.trim() ? 'Try another name or tag.' : admin ? 'Add the first document, image, video or YouTube link.' : 'Guides and examples will appear here.'}
          </p>
          {admin && !q.trim() && (
            <button type="button" className="btn-primary mt-5" onClick={() => setCreating(true)}>
              New content
            </button>
          )}
        </section>
      ) : (
        <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3 xl:grid-cols-4" aria-label="Content" aria-busy={list.isFetching || undefined}>
          {items.map((item) => (
            <ContentCard
              key={item.id}
              item={item}
              admin={admin}
              busy={marking.isLoading}
              onView={() => setViewing(item)}
              onEdit={() => setEditing(item)}
              onDelete={() => deletion.ask(item)}
              onRelevant={() => void run(() => markRelevant(item.id).unwrap(), `'${item.name}' is now the relevant item`)}
            />
          ))}
        </ul>
      )}

      {pageSize !== 0 && lastPage > 1 && (
        <nav aria-label="Content pages" className="flex items-center justify-center gap-2 text-sm">
          <button type="button" className="btn-secondary px-3 py-1" disabled={page <= 1} onClick={() => setPage(page - 1)}>
            Previous
          </button>
          <span aria-live="polite">
            Page {page} of {lastPage}
          </span>
          <button type="button" className="btn-secondary px-3 py-1" disabled={page >= lastPage} onClick={() => setPage(page + 1)}>
            Next
          </button>
        </nav>
      )}

      <NewContentModal open={creating} onClose={() => setCreating(false)} />
      <EditContentModal content={editing} onClose={() => setEditing(null)} />
      <ViewContentModal content={viewing} onClose={() => setViewing(null)} />
      {deletion.dialog}
    </div>
  )
}

interface ContentCardProps {
  item: ContentItem
  admin: boolean
  busy: boolean
  onView: () => void
  onEdit: () => void
  onDelete: () => void
  onRelevant: () => void
}

function ContentCard({ item, admin, busy, onView, onEdit, onDelete, onRelevant }: ContentCardProps) {
  const type = readContentType(item.type)
  const titleId = useId()
  return (
    <li className={`card flex flex-col overflow-hidden ${item.relevant ? 'ring-2 ring-marquee-400' : ''}`} aria-labelledby={titleId} data-testid="content-card">
      {/* The badges sit over the picture, outside the button, so its name is just "View <name>". */}
      <div className="relative">
        <button type="button" className="block aspect-video w-full bg-slate-100" onClick={onView} aria-label={`View ${item.name}`}>
          {type === 'image' && (item.thumb || item.awsUrl) ? (
            <img src={item.thumb || item.awsUrl} alt="" className="h-full w-full object-cover" loading="lazy" />
          ) : (
            <span className="flex h-full items-center justify-center text-slate-400" aria-hidden="true">
              <svg viewBox="0 0 24 24" className="h-12 w-12" fill="none" stroke="currentColor" strokeWidth="1.5" strokeLinecap="round" strokeLinejoin="round">
                <path d={TYPE_ICONS[type]} />
              </svg>
            </span>
          )}
        </button>
        <span className="pointer-events-none absolute top-2 left-2 rounded-full bg-white/90 px-2 py-0.5 text-xs font-medium text-slate-700 shadow-sm">{CONTENT_TYPE_LABELS[type]}</span>
        {item.relevant && (
          <span className="pointer-events-none absolute top-2 right-2 rounded-full bg-marquee-400 px-2 py-0.5 text-xs font-semibold text-slate-900 shadow-sm">Relevant</span>
        )}
      </div>
      <div className="flex flex-1 flex-col gap-2 p-4">
        <h2 id={titleId} className="font-semibold break-words text-slate-900">
          {item.name}
        </h2>
        {item.description && <p className="line-clamp-2 text-sm text-slate-600">{item.description}</p>}
        {item.tags.length > 0 && (
          <ul className="flex flex-wrap gap-1" aria-label="Tags">
            {item.tags.map((tag) => (
              <li key={tag} className="rounded-full bg-slate-100 px-2 py-0.5 text-xs font-medium text-slate-600">
                {tag}
              </li>
            ))}
          </ul>
        )}
        {admin && (
          <p className="text-xs text-slate-500">
            {SCOPES.filter((s) => item.scope.includes(s))
              .map((s) => SCOPE_LABELS[s])
              .join(', ') || 'No scope'}{' '}
            · <span className={item.status === 'inactive' ? 'text-red-700' : 'text-emerald-700'}>{item.status === 'inactive' ? 'Inactive' : 'Active'}</span>
          </p>
        )}
        {admin && (
          <div className="mt-auto flex flex-wrap gap-1 pt-2">
            <button
              type="button"
              className="btn-ghost px-2 py-1"
              aria-pressed={item.relevant}
              disabled={busy || item.relevant}
              onClick={onRelevant}
            >
              <svg aria-hidden="true" viewBox="0 0 24 24" className="h-4 w-4" fill={item.relevant ? 'currentColor' : 'none'} stroke="currentColor" strokeWidth="1.8">
                <path d="M12 3l2.8 5.7 6.2.9-4.5 4.4 1.1 6.2L12 17.3 6.4 20.2l1.1-6.2L3 9.6l6.2-.9z" />
              </svg>
              {item.relevant ? 'Relevant' : 'Mark relevant'}
              <span className="sr-only"> {item.name}</span>
            </button>
            <button type="button" className="btn-ghost px-2 py-1" onClick={onEdit}>
              Edit<span className="sr-only"> {item.name}</span>
            </button>
            <button type="button" className="btn-ghost px-2 py-1 text-red-700" onClick={onDelete}>
              Delete<span className="sr-only"> {item.name}</span>
            </button>
          </div>
        )}
      </div>
    </li>
  )
}
