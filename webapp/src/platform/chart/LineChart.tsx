import { lazy } from 'react'
import { formatCount } from '../money'
import ChartFigure from './ChartFigure'
import type { LineChartData } from './chartRules'

// STACK.md: ApexCharts is most of a chart page's JavaScript. It is imported only by the lazily
// loaded drawings, so no other bundle carries it.
const ApexLineChart = lazy(() => import('./ApexLineChart'))

export interface LineChartProps {
  /** Names the chart for assistive technology. */
  label: string
  data: LineChartData
  height?: number
}

/** A line chart (DESIGN §6 "Chart"), with its figures as a table for screen readers. */
export default function LineChart({ label, data, height = 320 }: LineChartProps) {
  const table = {
    head: ['Period', ...data.series.map((s) => s.name)],
    rows: data.labels.map((l, i) => ({
      label: l,
      cells: data.series.map((s) => {
        const v = s.data[i]
        return typeof v === 'number' ? formatCount(v) : 'No data yet'
      }),
    })),
  }
  return (
    <ChartFigure label={label} height={height} table={table}>
      <ApexLineChart data={data} height={height} />
    </ChartFigure>
  )
}
