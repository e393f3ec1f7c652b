import { Link, useSearchParams } from 'react-router'
import { useDispatch, useSelector } from 'react-redux'
import { flashShown } from '../../platform/flash/flash'
import { errorMessage } from '../../platform/http'
import BillingPanel from '../../features/billing/shared/BillingPanel'
import DigestSetting from '../../features/campaigns/pacing/DigestSetting'
import ApiKeysPanel from '../../features/developers/ApiKeysPanel'
import { selectUser, userUpdated } from '../../platform/session'
import Tabs from '../../platform/Tabs'
import { useDisableTourMutation, useEnableTourMutation } from '../../features/identity/api'
import WebhooksPanel from '../../features/webhooks/WebhooksPanel'

/** The guided tour flag (A §4): on, the dashboard and new-campaign tours start after login. */
function TourSetting() {
  const user = useSelector(selectUser)
  const dispatch = useDispatch()
  const [enable, enabling] = useEnableTourMutation()
  const [disable, disabling] = useDisableTourMutation()
  if (!user) return null
  const on = user.tourCampaignShow
  const busy = enabling.isLoading || disabling.isLoading

  const toggle = async () => {
    try {
      const answer = await (on ? disable() : enable()).unwrap()
      dispatch(userUpdated({ ...user, tourCampaignShow: answer.tourCampaignShow, tutorialCampaignShowed: answer.tutorialCampaignShowed }))
      dispatch(flashShown(answer.tourCampaignShow ? 'The guided tour is on.' : 'The guided tour is off.', 'success', 3000))
    } catch (error) {
      dispatch(flashShown(`Sorry! ${errorMessage(error)}`, 'danger'))
    }
  }

  return (
    <div className="flex items-start justify-between gap-6">
      <div>
        <h2 id="tour-setting" className="font-semibold text-slate-900">
          Guided tour
        </h2>
        <p className="mt-1 text-sm text-slate-600">Show the step-by-step tour of the dashboard and of creating a campaign after you sign in.</p>
      </div>
      <button
        type="button"
        role="switch"
        aria-checked={on}
        aria-labelledby="tour-setting"
        disabled={busy}
        onClick={toggle}
        className={`relative inline-flex h-7 w-12 shrink-0 items-center rounded-full transition-colors disabled:opacity-60 ${on ? 'bg-brand-700' : 'bg-slate-300'}`}
      >
        <span aria-hidden="true" className={`inline-block h-5 w-5 rounded-full bg-white shadow transition-transform ${on ? 'translate-x-6' : 'translate-x-1'}`} />
      </button>
    </div>
  )
}

/**
 * The two Monday emails, explained in one place: the company's digest, set here, and the
 * per-campaign weekly reports, set on /reports (which links back here).
 */
function EmailsSetting() {
  return (
    <div className="space-y-6">
      <div className="rounded-lg bg-slate-50 p-4 text-sm text-slate-700">
        <h2 className="font-semibold text-slate-900">Two emails can reach you on Mondays</h2>
        <ul className="mt-2 list-disc space-y-1 pl-5">
          <li>
            <strong>Weekly digest</strong>: one email for the whole company, with every active campaign's delivery against its plan. Turn it on or off below.
          </li>
          <li>
            <strong>Weekly reports</strong>: for each campaign you choose, the PDF report of the week that ended.{' '}
            <Link to="/reports#weekly-reports" className="link">
              Choose the campaigns in Reports
            </Link>
            .
          </li>
        </ul>
      </div>
      <DigestSetting />
    </div>
  )
}

/** A §2 /settings: tabs; B §2 adds the masked card, the account credit and the promo redeem modal. */
export default function Settings() {
  // The tab lives in the address (?tab=billing), so a link or a reload opens the card and credit.
  const [params, setParams] = useSearchParams()
  const tab = ['billing', 'api', 'emails'].includes(params.get('tab') ?? '') ? params.get('tab')! : 'preferences'
  const setTab = (id: string) => setParams(id === 'preferences' ? {} : { tab: id }, { replace: true })
  return (
    <div className="mx-auto max-w-3xl space-y-6">
      <div>
        <h1 className="text-2xl font-semibold text-slate-900 sm:text-3xl">Settings</h1>
        <p className="mt-1 text-slate-600">Preferences, emails, payment card, account credit, API keys and webhooks.</p>
      </div>
      <div className="card px-5 pb-6 sm:px-6">
        <Tabs
          label="Settings"
          selected={tab}
          onSelect={setTab}
          tabs={[
            { id: 'preferences', label: 'Preferences', content: <TourSetting /> },
            { id: 'emails', label: 'Emails', content: <EmailsSetting /> },
            { id: 'billing', label: 'Card and credit', content: <BillingPanel /> },
            { id: 'api', label: 'API', content: <div className="space-y-8"><ApiKeysPanel /><WebhooksPanel /></div> },
          ]}
        />
      </div>
    </div>
  )
}
