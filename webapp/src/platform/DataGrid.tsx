import {
  getCoreRowModel,
  getPaginationRowModel,
  getSortedRowModel,
  useReactTable,
  type ColumnDef,
  type ColumnDefTemplate,
  type PaginationState,
  type RowSelectionState,
  type SortingState,
} from '@tanstack/react-table'
import { useId, useMemo, useState, type ReactNode } from 'react'
import { pageLinks } from './pageLinks'

/** B §9: grid rows are 40 px high and at most 50 show before the grid scrolls. */
export const ROW_HEIGHT = 40
export const MAX_VISIBLE_ROWS = 50

export interface GridState {
  /** 1-based. */
  page: number
  /** 0 means all rows. */
  pageSize: number
  /** A field name, '-field' for descending (docs/api.md "Lists"); '' for none. */
  sort: string
}

/**
 * A table's columns. Each column has its own value type, and ColumnDef is invariant in it, so the
 * list of a table's columns is ColumnDef<T, any>[] (TanStack Table's documented pattern).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- columns of one table have different value types (see above)
export type Columns<T> = ColumnDef<T, any>[]

export interface DataGridProps<T> {
  /** Names the table for assistive technology. */
  label: string
  columns: Columns<T>
  data: T[]
  getRowId: (row: T) => string
  /** The page sizes offered; 0 stands for All. */
  pageSizeOptions: number[]
  defaultPageSize?: number
  defaultSort?: string
  selection?: 'none' | 'single' | 'multi'
  selectedIds?: string[]
  onSelectionChange?: (ids: string[]) => void
  emptyState?: ReactNode
  loading?: boolean
  /**
   * Server mode: `data` is one page, `total` counts every row, and state changes are reported
   * through onStateChange for the caller to fetch (docs/api.md "Lists").
   */
  server?: { total: number; state: GridState; onStateChange: (state: GridState) => void }
  /**
   * Below the sm breakpoint (640 px), each row is a card of label–value lines instead of a table
   * row whose later columns sit off-screen (phones). On by default; false keeps the table.
   */
  cards?: boolean
}

export function toSorting(sort: string): SortingState {
  if (!sort) return []
  return sort.startsWith('-') ? [{ id: sort.slice(1), desc: true }] : [{ id: sort, desc: false }]
}

export function fromSorting(sorting: SortingState): string {
  const first = sorting[0]
  if (!first) return ''
  return first.desc ? `-${first.id}` : first.id
}

const ALL = 0

/**
 * A data grid (B §9) on TanStack Table: sortable columns, page sizes with All, first / previous /
 * next / last and at most 9 page links, optional single or multi row selection, client-side or
 * server-side paging.
 */
export default function DataGrid<T>({
  label,
  columns,
  data,
  getRowId,
  pageSizeOptions,
  defaultPageSize,
  defaultSort = '',
  selection = 'none',
  selectedIds,
  onSelectionChange,
  emptyState,
  loading = false,
  server,
  cards = true,
}: DataGridProps<T>) {
  const gridId = useId()
  const [localSorting, setLocalSorting] = useState<SortingState>(() => toSorting(defaultSort))
  const [localPaging, setLocalPaging] = useState({ page: 1, pageSize: defaultPageSize ?? pageSizeOptions[0] ?? ALL })
  const [localSelection, setLocalSelection] = useState<RowSelectionState>({})

  const sorting = server ? toSorting(server.state.sort) : localSorting
  const page = server ? server.state.page : localPaging.page
  const pageSize = server ? server.state.pageSize : localPaging.pageSize
  const total = server ? server.total : data.length
  const lastPage = pageSize === ALL ? 1 : Math.max(1, Math.ceil(total / pageSize))
  const currentPage = Math.min(Math.max(1, page), lastPage)

  const rowSelection: RowSelectionState = useMemo(
    () => (selectedIds ? Object.fromEntries(selectedIds.map((id) => [id, true])) : localSelection),
    [selectedIds, localSelection],
  )

  const setState = (next: Partial<GridState>) => {
    const merged: GridState = { page: currentPage, pageSize, sort: fromSorting(sorting), ...next }
    if (server) {
      server.onStateChange(merged)
      return
    }
    setLocalSorting(toSorting(merged.sort))
    setLocalPaging({ page: merged.page, pageSize: merged.pageSize })
  }

  const pagination: PaginationState = {
    pageIndex: currentPage - 1,
    pageSize: pageSize === ALL ? Math.max(1, total) : pageSize,
  }

  // eslint-disable-next-line react-hooks/incompatible-library -- TanStack Table's functions cannot be memoized; this component is left to render as it is
  const table = useReactTable<T>({
    data,
    columns,
    getRowId: (row) => getRowId(row),
    state: { sorting, pagination, rowSelection },
    manualSorting: !!server,
    manualPagination: !!server,
    pageCount: lastPage,
    enableRowSelection: selection !== 'none',
    enableMultiRowSelection: selection === 'multi',
    enableSortingRemoval: false,
    sortDescFirst: false,
    onSortingChange: (updater) => {
      const next = typeof updater === 'function' ? updater(sorting) : updater
      setState({ sort: fromSorting(next), page: 1 })
    },
    onRowSelectionChange: (updater) => {
      const next = typeof updater === 'function' ? updater(rowSelection) : updater
      // In the order of the rows, then any selected on other server pages.
      const shown = data.map(getRowId)
      const ids = [...shown.filter((id) => next[id]), ...Object.keys(next).filter((id) => next[id] && !shown.includes(id))]
      if (!selectedIds) setLocalSelection(next)
      onSelectionChange?.(ids)
    },
    getCoreRowModel: getCoreRowModel(),
    getSortedRowModel: server ? undefined : getSortedRowModel(),
    getPaginationRowModel: server ? undefined : getPaginationRowModel(),
  })

  const rows = table.getRowModel().rows
  const headerGroups = table.getHeaderGroups()
  // Card mode (phones): the table keeps its semantics (explicit roles, the head visually hidden but
  // read); each cell shows its column's name before its value (CSS generated content, so the
  // cell's text stays its value).
  const headerOf = new Map(table.getFlatHeaders().map((h) => [h.column.id, h]))
  const card = (narrow: string) => (cards ? narrow : '')
  const columnCount = columns.length + (selection === 'none' ? 0 : 1)
  const firstRow = total === 0 ? 0 : pageSize === ALL ? 1 : (currentPage - 1) * pageSize + 1
  const lastRow = pageSize === ALL ? total : Math.min(total, currentPage * pageSize)
  const goTo = (p: number) => setState({ page: Math.min(Math.max(1, p), lastPage) })

  return (
    <div className="card overflow-hidden">
      {/* Focusable, so a keyboard can scroll it (axe scrollable-region-focusable). */}
      <div className="overflow-auto focus-visible:outline-2 focus-visible:outline-brand-600" style={{ maxHeight: ROW_HEIGHT * (MAX_VISIBLE_ROWS + 1) }} tabIndex={0} role="region" aria-label={label}>
        <table role="table" className={`min-w-full border-separate border-spacing-0 text-sm ${card('max-sm:block')}`} aria-label={label} aria-busy={loading || undefined}>
          <thead role="rowgroup" className={`sticky top-0 z-10 bg-slate-50 ${card('max-sm:sr-only')}`}>
            {headerGroups.map((group) => (
              <tr key={group.id} role="row">
                {selection !== 'none' && (
                  <th scope="col" role="columnheader" className="w-10 border-b border-slate-200 px-3 text-left" style={{ height: ROW_HEIGHT }}>
                    {selection === 'multi' ? (
                      <input
                        type="checkbox"
                        aria-label="Select all rows on this page"
                        className="h-4 w-4 accent-brand-700"
                        checked={table.getIsAllPageRowsSelected()}
                        ref={(el) => {
                          if (el) el.indeterminate = table.getIsSomePageRowsSelected()
                        }}
                        onChange={table.getToggleAllPageRowsSelectedHandler()}
                      />
                    ) : (
                      <span className="sr-only">Selected</span>
                    )}
                  </th>
                )}
                {group.headers.map((header) => {
                  const sorted = header.column.getIsSorted()
                  const canSort = header.column.getCanSort()
                  return (
                    <th
                      key={header.id}
                      scope="col"
                      role="columnheader"
                      aria-sort={sorted === 'asc' ? 'ascending' : sorted === 'desc' ? 'descending' : canSort ? 'none' : undefined}
                      className="border-b border-slate-200 px-3 text-left font-semibold whitespace-nowrap text-slate-600"
                      style={{ height: ROW_HEIGHT }}
                    >
                      {header.isPlaceholder ? null : canSort ? (
                        <button type="button" className="inline-flex items-center gap-1 hover:text-slate-900" onClick={header.column.getToggleSortingHandler()}>
                          {renderTemplate(header.column.columnDef.header, header.getContext())}
                          <span aria-hidden="true" className="text-xs text-slate-400">
                            {sorted === 'asc' ? '▲' : sorted === 'desc' ? '▼' : '↕'}
                          </span>
                        </button>
                      ) : (
                        renderTemplate(header.column.columnDef.header, header.getContext())
                      )}
                    </th>
                  )
                })}
              </tr>
            ))}
          </thead>
          <tbody role="rowgroup" className={card('max-sm:block')}>
            {rows.length === 0 && (
              <tr role="row" className={card('max-sm:block')}>
                <td role="cell" colSpan={columnCount} className={`px-3 py-12 text-center text-slate-500 ${card('max-sm:block')}`}>
                  {loading ? 'Loading…' : (emptyState ?? 'Nothing to show yet.')}
                </td>
              </tr>
            )}
            {rows.map((row, index) => {
              const selected = row.getIsSelected()
              return (
                <tr
                  key={row.id}
                  role="row"
                  aria-selected={selection === 'none' ? undefined : selected}
                  className={`${selected ? 'bg-brand-50' : index % 2 ? 'bg-slate-50/50' : 'bg-white'} ${selection !== 'none' ? 'cursor-pointer hover:bg-brand-50/60' : ''} ${cards ? 'max-sm:block max-sm:border-b max-sm:border-slate-200 max-sm:py-2 sm:h-10' : ''}`}
                  // ROW_HEIGHT; a card (phones) is as tall as its lines.
                  style={cards ? undefined : { height: ROW_HEIGHT }}
                  onClick={selection === 'none' ? undefined : () => row.toggleSelected(selection === 'single' ? true : !selected)}
                >
                  {selection !== 'none' && (
                    <td role="cell" className={`border-b border-slate-100 px-3 ${card('max-sm:block max-sm:border-0 max-sm:py-1')}`} onClick={(e) => e.stopPropagation()}>
                      <input
                        type={selection === 'multi' ? 'checkbox' : 'radio'}
                        name={selection === 'single' ? `${gridId}-selection` : undefined}
                        aria-label={`Select row ${index + 1}`}
                        className="h-4 w-4 accent-brand-700"
                        checked={selected}
                        onChange={() => row.toggleSelected(selection === 'single' ? true : !selected)}
                      />
                    </td>
                  )}
                  {row.getVisibleCells().map((cell) => (
                    <td
                      key={cell.id}
                      role="cell"
                      data-label={cards ? cardLabel(headerOf.get(cell.column.id)?.column.columnDef) : undefined}
                      className={`border-b border-slate-100 px-3 whitespace-nowrap text-slate-700 ${card(CARD_CELL)}`}
                    >
                      <span className={card('max-sm:min-w-0 max-sm:text-right')}>{renderTemplate(cell.column.columnDef.cell, cell.getContext())}</span>
                    </td>
                  ))}
                </tr>
              )
            })}
          </tbody>
        </table>
      </div>
      <div className="flex flex-col gap-3 border-t border-slate-200 px-3 py-3 text-sm sm:flex-row sm:items-center sm:justify-between">
        <div className="flex items-center gap-3 text-slate-600">
          <label htmlFor={`${gridId}-size`}>Rows per page</label>
          <select
            id={`${gridId}-size`}
            className="rounded-lg border border-slate-300 bg-white px-2 py-1"
            value={pageSize}
            onChange={(e) => setState({ pageSize: Number(e.target.value), page: 1 })}
          >
            {pageSizeOptions.map((size) => (
              <option key={size} value={size}>
                {size === ALL ? 'All' : size}
              </option>
            ))}
          </select>
          <span aria-live="polite">{total === 0 ? 'No rows' : `${firstRow}–${lastRow} of ${total}`}</span>
        </div>
        <nav aria-label={`${label} pages`} className="flex flex-wrap items-center gap-1">
          <PageButton label="First page" disabled={currentPage <= 1} onClick={() => goTo(1)}>
            «
          </PageButton>
          <PageButton label="Previous page" disabled={currentPage <= 1} onClick={() => goTo(currentPage - 1)}>
            ‹
          </PageButton>
          {pageLinks(currentPage, lastPage).map((link, i) =>
            link === '...' ? (
              <span key={`gap-${i}`} className="px-2 text-slate-400" aria-hidden="true">
                ...
              </span>
            ) : (
              <button
                key={link}
                type="button"
                aria-label={`Page ${link}`}
                aria-current={link === currentPage ? 'page' : undefined}
                className={`min-w-9 rounded-lg px-2 py-1 tabular-nums ${link === currentPage ? 'bg-brand-700 text-white' : 'hover:bg-slate-100'}`}
                onClick={() => goTo(link)}
              >
                {link}
              </button>
            ),
          )}
          <PageButton label="Next page" disabled={currentPage >= lastPage} onClick={() => goTo(currentPage + 1)}>
            ›
          </PageButton>
          <PageButton label="Last page" disabled={currentPage >= lastPage} onClick={() => goTo(lastPage)}>
            »
          </PageButton>
        </nav>
      </div>
    </div>
  )
}

/** The classes of a cell in card mode: a line with the column's name (data-label) and the value. */
const CARD_CELL =
  'max-sm:flex max-sm:items-start max-sm:justify-between max-sm:gap-4 max-sm:border-0 max-sm:py-1 max-sm:whitespace-normal ' +
  'max-sm:before:shrink-0 max-sm:before:text-xs max-sm:before:font-semibold max-sm:before:text-slate-500 max-sm:before:content-[attr(data-label)]'

/** A column's name for its cells in card mode: a string header, else meta.label, else nothing. */
function cardLabel<T>(def: ColumnDef<T, unknown> | undefined): string | undefined {
  if (!def) return undefined
  if (typeof def.header === 'string') return def.header
  return (def.meta as { label?: string } | undefined)?.label
}

function PageButton({ label, disabled, onClick, children }: { label: string; disabled: boolean; onClick: () => void; children: ReactNode }) {
  return (
    <button type="button" aria-label={label} disabled={disabled} className="min-w-9 rounded-lg px-2 py-1 hover:bg-slate-100 disabled:opacity-40 disabled:hover:bg-transparent" onClick={onClick}>
      <span aria-hidden="true">{children}</span>
    </button>
  )
}

/**
 * A column's header or cell: a string, or a render function that is called, not mounted. TanStack's
 * flexRender mounts a function as a component, so a column list built again on a render (inline, or
 * memoised on a handler a parent makes afresh) would mount every cell anew: the focus is lost, and
 * a click that lands during a refetch goes to a button already gone. Cells here use no hooks.
 */
function renderTemplate<P extends object>(template: ColumnDefTemplate<P> | undefined, props: P): ReactNode {
  return typeof template === 'function' ? (template(props) as ReactNode) : template
}
