import Alert from '../../../platform/Alert'
import { errorMessage } from '../../../platform/http'
import Spinner from '../../../platform/Spinner'
import HubProfileForm from './HubProfileForm'
import { useHubQuery } from './hubApi'
import { PARTNER_PROFILE } from './names'

/**
 * The /profile "Partner profile" tab of a partner company (B §2: ambassador or certified): the same hub
 * profile as the update-profile modal of /admin/hub (PUT /api/special/hub/{userId}). It lives in
 * platform so that /profile (identity) and the partner feature share it without importing each
 * other.
 */
export default function EditHub() {
  const hub = useHubQuery()
  return (
    <section aria-labelledby="edit-hub-heading" className="card space-y-4 p-4 sm:p-6">
      <div>
        <h2 id="edit-hub-heading" className="text-lg font-semibold text-slate-900">
          {PARTNER_PROFILE}
        </h2>
        <p className="mt-1 text-sm text-slate-600">What your partner hub shows about your company.</p>
      </div>
      {hub.isError && <Alert>{errorMessage(hub.error)}</Alert>}
      {hub.isLoading ? <Spinner label="Loading your hub" /> : hub.data && <HubProfileForm formId="edit-hub-form" profile={hub.data.profile} />}
    </section>
  )
}
