import type { ApexOptions } from 'apexcharts'
import { ReactApexChart } from '../../../platform/chart/apex'
import { MONTHS } from '../rules'

const dollars = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', maximumFractionDigits: 0 })
const count = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 })

/** The hub chart's ApexCharts drawing: Earnings as bars (left axis), Campaigns as a line (right). */
export default function ApexEarningsChart({ earnings, campaigns, height }: { earnings: number[]; campaigns: number[]; height: number }) {
  const empty = earnings.every((v) => v === 0) && campaigns.every((v) => v === 0)
  const campaignMax = Math.max(3, ...campaigns.map((v) => Math.ceil(v)))
  const options: ApexOptions = {
    chart: { type: 'line', toolbar: { show: false }, zoom: { enabled: false }, animations: { enabled: false }, fontFamily: 'inherit' },
    colors: ['#6366f1', '#059669'],
    stroke: { width: [0, 3], curve: 'straight' },
    markers: { size: [0, 4] },
    plotOptions: { bar: { columnWidth: '55%', borderRadius: 3 } },
    dataLabels: { enabled: false },
    legend: { position: 'top', horizontalAlign: 'left' },
    xaxis: { categories: MONTHS },
    yaxis: [
      { title: { text: 'Earnings' }, min: 0, max: empty ? 100 : undefined, forceNiceScale: true, labels: { formatter: (v: number) => dollars.format(v) } },
      // Whole campaigns: at least 0..3, one tick per campaign up to 6 ticks.
      { opposite: true, title: { text: 'Campaigns' }, min: 0, max: campaignMax, tickAmount: Math.min(campaignMax, 6), labels: { formatter: (v: number) => count.format(v) } },
    ],
    tooltip: { shared: true, intersect: false },
    grid: { borderColor: '#e2e8f0' },
  }
  return (
    <ReactApexChart
      type="line"
      height={height}
      options={options}
      series={[
        { name: 'Earnings', type: 'column', data: earnings },
        { name: 'Campaigns', type: 'line', data: campaigns },
      ]}
    />
  )
}
