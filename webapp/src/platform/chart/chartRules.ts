import type { ApexOptions } from 'apexcharts'

/** One line of a line chart; null where there is no value (a week that has not passed). */
export interface LineSeries {
  name: string
  data: readonly (number | null | undefined)[]
  color?: string
}

export interface LineChartData {
  labels: readonly string[]
  series: readonly LineSeries[]
}

/** A §9: the y-axis runs 0 to 3 when there is no data. */
export const EMPTY_Y_MAX = 3

/** Whether any series holds a number other than 0. */
export function hasData(series: readonly LineSeries[]): boolean {
  return series.some((s) => s.data.some((v) => typeof v === 'number' && v !== 0))
}

/** The ApexCharts series: missing values become null, so the line stops instead of dropping to 0. */
export function apexSeries(series: readonly LineSeries[]): { name: string; data: (number | null)[] }[] {
  return series.map((s) => ({ name: s.name, data: s.data.map((v) => (typeof v === 'number' ? v : null)) }))
}

const thousands = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 })

/** The ApexCharts options of a line chart over these labels. */
export function lineChartOptions(data: LineChartData, title?: string): ApexOptions {
  const empty = !hasData(data.series)
  const options: ApexOptions = {
    chart: {
      type: 'line',
      toolbar: { show: false },
      zoom: { enabled: false },
      animations: { enabled: false },
      fontFamily: 'inherit',
    },
    colors: data.series.map((s, i) => s.color ?? (i === 0 ? '#6366f1' : '#059669')),
    stroke: { curve: 'straight', width: 3 },
    markers: { size: 4 },
    dataLabels: { enabled: false },
    legend: { position: 'top', horizontalAlign: 'left' },
    xaxis: { categories: [...data.labels] },
    yaxis: empty
      ? { min: 0, max: EMPTY_Y_MAX, tickAmount: EMPTY_Y_MAX, labels: { formatter: (v: number) => thousands.format(v) } }
      : { min: 0, forceNiceScale: true, labels: { formatter: (v: number) => thousands.format(v) } },
    tooltip: { y: { formatter: (v: number) => (v === null || v === undefined ? '—' : thousands.format(v)) } },
    grid: { borderColor: '#e2e8f0' },
  }
  // ApexCharts merges these over its defaults: a key set to undefined would wipe the default out.
  if (title) options.title = { text: title }
  return options
}
