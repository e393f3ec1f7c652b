import { NotAvailablePanel } from '../../../platform/NotAvailable'

/** Placeholder until the screen lands (issues 6 and 7). */
export default function AdminCampaigns() {
  return <NotAvailablePanel section="Campaigns" />
}
