import { lazy } from 'react'
import ChartFigure from '../../../platform/chart/ChartFigure'
import { formatDollars } from '../../../platform/money'
import { MONTHS } from '../rules'

// STACK.md: ApexCharts loads lazily, only on the page that draws it.
const ApexEarningsChart = lazy(() => import('./ApexEarningsChart'))

/**
 * B §2 /admin/hub: the 12-month chart of Earnings (bars) and Campaigns (line), plus the same
 * figures as a table for screen readers.
 */
export default function EarningsChart({ year, earnings, campaigns, height = 320 }: { year: number; earnings: number[]; campaigns: number[]; height?: number }) {
  const table = {
    head: ['Month', 'Earnings', 'Campaigns'],
    rows: MONTHS.map((m, i) => ({ label: m, cells: [formatDollars(earnings[i] ?? 0), campaigns[i] ?? 0] })),
  }
  return (
    <ChartFigure label={`Earnings and campaigns in ${year}`} height={height} table={table}>
      <ApexEarningsChart earnings={earnings} campaigns={campaigns} height={height} />
    </ChartFigure>
  )
}
