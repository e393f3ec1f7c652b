import { useSelector } from 'react-redux'
import { CompanyAmbassador, CompanyCertified } from '../../../platform/api-types/identity'
import { selectUser } from '../../../platform/session'
import { useHubQuery } from './hubApi'

/**
 * The header's "Certified" badge: shown while the partner company earns the
 * certified rate, that is while one of its users holds a certificate (DESIGN §1.11). It reads the
 * hub, as the hub's rate and the exam page do, so the three always agree; a company that is not a
 * partner never asks.
 */
export default function PartnerBadge() {
  const user = useSelector(selectUser)
  const type = user?.company?.type
  const partner = type === CompanyAmbassador || type === CompanyCertified
  const hub = useHubQuery(undefined, { skip: !partner })
  if (!partner || !hub.data?.profile?.certification_bonus) return null
  return (
    <span className="rounded-full bg-emerald-100 px-2 py-0.5 text-xs font-medium text-emerald-800" data-testid="certified-badge" title="Your company earns the certification bonus">
      Certified
    </span>
  )
}
