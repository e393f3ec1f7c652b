import { lazy, Suspense } from 'react'
import Spinner from '../Spinner'
import { formatCount } from '../money'
import type { LineChartData } from './chartRules'

// STACK.md: ApexCharts is most of a chart page's JavaScript. It is imported here and only here,
// lazily, so no other bundle carries it.
const ApexLineChart = lazy(() => import('./ApexLineChart'))

export interface LineChartProps {
  /** Names the chart for assistive technology. */
  label: string
  data: LineChartData
  height?: number
}

/**
 * A line chart (DESIGN §6 "Chart"): ApexCharts drawn lazily, plus the same figures as a table for
 * screen readers (the SVG says nothing useful to them).
 */
export default function LineChart({ label, data, height = 320 }: LineChartProps) {
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
          <ApexLineChart data={data} height={height} />
        </Suspense>
      </div>
      {/* The table sits in a clipped box: a table ignores sr-only's 1 px width, and with a third
          series its columns made the page scroll sideways on a phone. */}
      <div className="sr-only">
        <table>
          <caption>{label}</caption>
          <thead>
            <tr>
              <th scope="col">Period</th>
              {data.series.map((s) => (
                <th key={s.name} scope="col">
                  {s.name}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {data.labels.map((l, i) => (
              <tr key={l}>
                <th scope="row">{l}</th>
                {data.series.map((s) => {
                  const v = s.data[i]
                  return <td key={s.name}>{typeof v === 'number' ? formatCount(v) : 'No data yet'}</td>
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </figure>
  )
}
