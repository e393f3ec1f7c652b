import Alert from '../../../platform/Alert'
import { formatDisplayDate } from '../../../platform/dates'
import { errorMessage } from '../../../platform/http'
import Modal from '../../../platform/Modal'
import Spinner from '../../../platform/Spinner'
import { currency } from '../shared/promoRules'
import type { Promo } from '../../../platform/api-types/billing'
import { usePromoCompaniesQuery } from '../api'

/** B §2: a modal lists the companies that redeemed a promo. */
export default function PromoCompaniesModal({ promo, onClose }: { promo: Promo | null; onClose: () => void }) {
  return (
    <Modal open={promo !== null} title={promo ? `Companies that redeemed ${promo.code}` : ''} onClose={onClose} size="lg">
      {promo && <CompanyList promoId={promo.id} />}
    </Modal>
  )
}

function CompanyList({ promoId }: { promoId: string }) {
  const companies = usePromoCompaniesQuery(promoId)
  if (companies.isLoading) return <Spinner label="Loading the companies" />
  if (companies.isError) return <Alert>{errorMessage(companies.error)}</Alert>
  const rows = companies.data ?? []
  if (rows.length === 0) return <p className="py-6 text-center text-slate-600">No company has redeemed this promo yet.</p>
  return (
    <table className="min-w-full text-sm" aria-label="Companies that redeemed the promo">
      <thead>
        <tr className="text-left text-slate-600">
          <th scope="col" className="py-2 pr-4 font-semibold">Company</th>
          <th scope="col" className="py-2 pr-4 font-semibold">Amount</th>
          <th scope="col" className="py-2 pr-4 font-semibold">Redeemed</th>
          <th scope="col" className="py-2 font-semibold">Status</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={`${row.company_id}-${row.redeemed_at}`} className="border-t border-slate-100">
            <td className="py-2 pr-4 text-slate-900">{row.company_name}</td>
            <td className="py-2 pr-4 tabular-nums">{currency(row.amount)}</td>
            <td className="py-2 pr-4">{formatDisplayDate(row.redeemed_at)}</td>
            <td className="py-2">{row.removed ? 'Removed by an admin' : 'Redeemed'}</td>
          </tr>
        ))}
      </tbody>
    </table>
  )
}
