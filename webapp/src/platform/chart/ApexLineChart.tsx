import { ReactApexChart } from './apex'
import { apexSeries, lineChartOptions, type LineChartData } from './chartRules'

/** The ApexCharts line chart. Loaded only through LineChart, so ApexCharts stays in its own chunk. */
export default function ApexLineChart({ data, height }: { data: LineChartData; height: number }) {
  return <ReactApexChart type="line" height={height} options={lineChartOptions(data)} series={apexSeries(data.series)} />
}
