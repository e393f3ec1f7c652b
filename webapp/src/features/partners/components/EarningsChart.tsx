import { lazy, Suspense } from 'react'
import { formatDollars } from '../../../platform/money'
import Spinner from '../../../platform/Spinner'
import { MONTHS } from '../rules'

// STACK.md: ApexCharts loads lazily, only on the page that draws it.
const ApexEarningsChart = lazy(() => import('./ApexEarningsChart'))

/**
 * B §2 /admin/hub: the 12-month chart of Earnings (bars) and Campaigns (line), plus the same
 * figures as a table for screen readers.
 */
export default function EarningsChart({ year, earnings, campaigns, height = 320 }: { year: number; earnings: number[]; campaigns: number[]; height?: number }) {
  const label = `Earnings and campaigns in ${year}`
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
          <ApexEarningsChart earnings={earnings} campaigns={campaigns} height={height} />
        </Suspense>
      </div>
      <table className="sr-only">
        <caption>{label}</caption>
        <thead>
          <tr>
            <th scope="col">Month</th>
            <th scope="col">Earnings</th>
            <th scope="col">Campaigns</th>
          </tr>
        </thead>
        <tbody>
          {MONTHS.map((m, i) => (
            <tr key={m}>
              <th scope="row">{m}</th>
              <td>{formatDollars(earnings[i] ?? 0)}</td>
              <td>{campaigns[i] ?? 0}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  )
}
