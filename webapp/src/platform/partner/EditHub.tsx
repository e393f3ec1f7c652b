import { NotAvailablePanel } from '../NotAvailable'

/**
 * The /profile "Edit hub" tab of a partner company (B §2: ambassador or certified). This is the
 * seam the partner-program issue fills with the hub profile form (PUT /api/special/hub/{userId});
 * it lives in platform so that /profile (identity) and the partner feature share it without
 * importing each other.
 */
export default function EditHub() {
  return <NotAvailablePanel section="Edit hub" heading="h2" />
}
