import ReactApexChartImport from 'react-apexcharts'
import { apexSeries, lineChartOptions, type LineChartData } from './chartRules'

// react-apexcharts is CommonJS with `exports.default`; Vite's production build hands the whole
// exports object to a default import, the dev server the component itself. Take whichever came.
const ReactApexChart =
  (ReactApexChartImport as unknown as { default?: typeof ReactApexChartImport }).default ?? ReactApexChartImport

/** The ApexCharts line chart. Loaded only through LineChart, so ApexCharts stays in its own chunk. */
export default function ApexLineChart({ data, height }: { data: LineChartData; height: number }) {
  return <ReactApexChart type="line" height={height} options={lineChartOptions(data)} series={apexSeries(data.series)} />
}
