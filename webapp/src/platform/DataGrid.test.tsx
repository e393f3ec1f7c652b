import { render, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import type { ColumnDef } from '@tanstack/react-table'
import { useState } from 'react'
import { describe, expect, it, vi } from 'vitest'
import DataGrid, { fromSorting, toSorting, type GridState } from './DataGrid'

interface Promo {
  id: string
  code: string
  amount: number
}

const promos: Promo[] = Array.from({ length: 120 }, (_, i) => ({ id: `p${i + 1}`, code: `CODE${String(i + 1).padStart(3, '0')}`, amount: (i * 37) % 500 }))

const columns: ColumnDef<Promo, unknown>[] = [
  { accessorKey: 'code', header: 'Code' },
  { accessorKey: 'amount', header: 'Amount' },
]

const bodyRows = () => within(screen.getByRole('table', { name: 'Promos' })).getAllByRole('row').slice(1)
const firstCell = () => within(bodyRows()[0]!).getAllByRole('cell').at(-2)!.textContent

describe('DataGrid (B §9)', () => {
  it('keeps a cell when its columns are built again: the focus stays, and a click during a refetch lands', async () => {
    // Columns made inline, as a page makes them when a cell calls its handlers.
    const withButton = (): ColumnDef<Promo, unknown>[] => [
      { accessorKey: 'code', header: 'Code' },
      { id: 'edit', header: () => <span>Edit</span>, cell: ({ row }) => <button type="button">{`Edit ${row.original.code}`}</button> },
    ]
    const { rerender } = render(<DataGrid label="Promos" columns={withButton()} data={promos.slice(0, 3)} getRowId={(p) => p.id} pageSizeOptions={[10]} />)
    const button = screen.getByRole('button', { name: 'Edit CODE002' })
    button.focus()
    rerender(<DataGrid label="Promos" columns={withButton()} data={promos.slice(0, 3).map((p) => ({ ...p }))} getRowId={(p) => p.id} pageSizeOptions={[10]} loading />)
    expect(screen.getByRole('button', { name: 'Edit CODE002' })).toBe(button)
    expect(button).toHaveFocus()
    expect(screen.getByRole('columnheader', { name: 'Edit' })).toBeInTheDocument()
  })

  it('pages with the given sizes, All included, and first/previous/next/last', async () => {
    render(<DataGrid label="Promos" columns={columns} data={promos} getRowId={(p) => p.id} pageSizeOptions={[50, 75, 100, 0]} />)
    expect(bodyRows()).toHaveLength(50)
    expect(screen.getByText('1–50 of 120')).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'First page' })).toBeDisabled()
    expect(screen.getByRole('button', { name: 'Previous page' })).toBeDisabled()
    expect(screen.getByRole('button', { name: 'Page 1' })).toHaveAttribute('aria-current', 'page')

    await userEvent.click(screen.getByRole('button', { name: 'Next page' }))
    expect(screen.getByText('51–100 of 120')).toBeInTheDocument()
    await userEvent.click(screen.getByRole('button', { name: 'Last page' }))
    expect(screen.getByText('101–120 of 120')).toBeInTheDocument()
    expect(bodyRows()).toHaveLength(20)
    expect(screen.getByRole('button', { name: 'Next page' })).toBeDisabled()
    await userEvent.click(screen.getByRole('button', { name: 'First page' }))
    expect(screen.getByText('1–50 of 120')).toBeInTheDocument()

    const size = screen.getByLabelText('Rows per page')
    expect(within(size).getAllByRole('option').map((o) => o.textContent)).toEqual(['50', '75', '100', 'All'])
    await userEvent.selectOptions(size, 'All')
    expect(bodyRows()).toHaveLength(120)
    expect(screen.queryByRole('button', { name: 'Page 2' })).not.toBeInTheDocument()
    // Renders a few hundred rows several times (All): more than the default 5 s on a loaded machine.
  }, 15_000)

  it('shows at most 9 page links with ...', async () => {
    const many = Array.from({ length: 300 }, (_, i) => ({ id: `x${i}`, code: `C${i}`, amount: i }))
    render(<DataGrid label="Promos" columns={columns} data={many} getRowId={(p) => p.id} pageSizeOptions={[10]} />)
    const nav = screen.getByRole('navigation', { name: 'Promos pages' })
    const links = () => within(nav).getAllByRole('button', { name: /^Page \d+$/ }).map((b) => b.textContent)
    expect(links()).toEqual(['1', '2', '3', '4', '5', '6', '7', '30'])
    expect(nav).toHaveTextContent('...')
    await userEvent.click(screen.getByRole('button', { name: 'Page 7' }))
    expect(links()).toEqual(['1', '5', '6', '7', '8', '9', '30'])
  })

  it('sorts by a column, both ways', async () => {
    render(<DataGrid label="Promos" columns={columns} data={promos} getRowId={(p) => p.id} pageSizeOptions={[10]} defaultSort="-code" />)
    expect(screen.getByRole('columnheader', { name: /Code/ })).toHaveAttribute('aria-sort', 'descending')
    expect(firstCell()).toBe('CODE120')
    await userEvent.click(screen.getByRole('button', { name: /Amount/ }))
    expect(screen.getByRole('columnheader', { name: /Amount/ })).toHaveAttribute('aria-sort', 'ascending')
    expect(within(bodyRows()[0]!).getAllByRole('cell').at(-1)!.textContent).toBe('0')
    await userEvent.click(screen.getByRole('button', { name: /Amount/ }))
    expect(screen.getByRole('columnheader', { name: /Amount/ })).toHaveAttribute('aria-sort', 'descending')
    expect(Number(within(bodyRows()[0]!).getAllByRole('cell').at(-1)!.textContent)).toBe(Math.max(...promos.map((p) => p.amount)))
  })

  it('selects a single row', async () => {
    const onSelectionChange = vi.fn()
    render(
      <DataGrid label="Promos" columns={columns} data={promos.slice(0, 3)} getRowId={(p) => p.id} pageSizeOptions={[10]} selection="single" onSelectionChange={onSelectionChange} />,
    )
    await userEvent.click(screen.getByText('CODE002'))
    expect(onSelectionChange).toHaveBeenLastCalledWith(['p2'])
    await userEvent.click(screen.getByRole('radio', { name: 'Select row 3' }))
    expect(onSelectionChange).toHaveBeenLastCalledWith(['p3'])
    expect(bodyRows()[1]).toHaveAttribute('aria-selected', 'false')
    expect(bodyRows()[2]).toHaveAttribute('aria-selected', 'true')
  })

  it('selects several rows, or the whole page', async () => {
    const onSelectionChange = vi.fn()
    render(
      <DataGrid label="Promos" columns={columns} data={promos.slice(0, 3)} getRowId={(p) => p.id} pageSizeOptions={[10]} selection="multi" onSelectionChange={onSelectionChange} />,
    )
    await userEvent.click(screen.getByRole('checkbox', { name: 'Select row 1' }))
    await userEvent.click(screen.getByText('CODE003'))
    expect(onSelectionChange).toHaveBeenLastCalledWith(['p1', 'p3'])
    await userEvent.click(screen.getByRole('checkbox', { name: 'Select all rows on this page' }))
    expect(onSelectionChange).toHaveBeenLastCalledWith(['p1', 'p2', 'p3'])
  })

  it('shows an empty state', () => {
    render(<DataGrid label="Promos" columns={columns} data={[]} getRowId={(p) => p.id} pageSizeOptions={[10]} emptyState="No promos yet" />)
    expect(screen.getByText('No promos yet')).toBeInTheDocument()
    expect(screen.getByText('No rows')).toBeInTheDocument()
  })

  it('leaves paging and sorting to the server in server mode', async () => {
    const changes: GridState[] = []
    function Server() {
      const [state, setState] = useState<GridState>({ page: 1, pageSize: 10, sort: '-createdAt' })
      const page = promos.slice((state.page - 1) * state.pageSize, state.page * state.pageSize)
      return (
        <DataGrid
          label="Promos"
          columns={columns}
          data={page}
          getRowId={(p) => p.id}
          pageSizeOptions={[10, 20, 0]}
          server={{
            total: 120,
            state,
            onStateChange: (next) => {
              changes.push(next)
              setState(next)
            },
          }}
        />
      )
    }
    render(<Server />)
    expect(screen.getByText('1–10 of 120')).toBeInTheDocument()
    await userEvent.click(screen.getByRole('button', { name: 'Last page' }))
    expect(changes.at(-1)).toEqual({ page: 12, pageSize: 10, sort: '-createdAt' })
    expect(screen.getByText('111–120 of 120')).toBeInTheDocument()
    await userEvent.click(screen.getByRole('button', { name: /Code/ }))
    expect(changes.at(-1)).toEqual({ page: 1, pageSize: 10, sort: 'code' })
    await userEvent.selectOptions(screen.getByLabelText('Rows per page'), 'All')
    expect(changes.at(-1)).toEqual({ page: 1, pageSize: 0, sort: 'code' })
  })

  it('converts sort strings', () => {
    expect(toSorting('-createdAt')).toEqual([{ id: 'createdAt', desc: true }])
    expect(toSorting('name')).toEqual([{ id: 'name', desc: false }])
    expect(toSorting('')).toEqual([])
    expect(fromSorting([{ id: 'bonus', desc: true }])).toBe('-bonus')
    expect(fromSorting([])).toBe('')
  })
})
