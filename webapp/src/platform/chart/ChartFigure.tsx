import { Suspense, type ReactNode } from 'react'
import Spinner from '../Spinner'

export interface ChartTable {
  /** The header of each column, the first naming the rows. */
  head: readonly string[]
  rows: readonly { label: string; cells: readonly ReactNode[] }[]
}

/**
 * A chart (DESIGN §6 "Chart"): its lazily drawn ApexCharts drawing, hidden from assistive
 * technology, and the same figures as a table for screen readers (the SVG says nothing useful to
 * them).
 */
export default function ChartFigure({ label, height, table, children }: { label: string; height: number; table: ChartTable; children: ReactNode }) {
  return (
    <figure aria-label={label} className="m-0">
      <div aria-hidden="true" style={{ minHeight: height }}>
        <Suspense
          fallback={
            <div className="flex items-center justify-center" style={{ height }}>
              <Spinner label="Loading the chart" />
            </div>
          }
        >
          {children}
        </Suspense>
      </div>
      {/* The table sits in a clipped box: a table ignores sr-only's 1 px width, and with a third
          series its columns made the page scroll sideways on a phone. */}
      <div className="sr-only">
        <table>
          <caption>{label}</caption>
          <thead>
            <tr>
              {table.head.map((h) => (
                <th key={h} scope="col">
                  {h}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {table.rows.map((row) => (
              <tr key={row.label}>
                <th scope="row">{row.label}</th>
                {row.cells.map((cell, i) => (
                  <td key={table.head[i + 1] ?? i}>{cell}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </figure>
  )
}
