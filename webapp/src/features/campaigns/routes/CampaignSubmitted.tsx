import { Link, useLocation } from 'react-router'

/**
 * /campaigns/success/submitted (B §2): shown after a campaign is created; the flash carried from
 * the form is the server's message. A campaign the account credit paid in full is active at once
 *, so its page does not speak of a payment to confirm.
 */
export default function CampaignSubmitted() {
  const active = (useLocation().state as { active?: boolean } | null)?.active === true
  return (
    <section aria-labelledby="submitted-title" className="card mx-auto flex max-w-2xl flex-col items-center px-6 py-14 text-center">
      <div aria-hidden="true" className="mb-5 flex h-16 w-16 items-center justify-center rounded-full bg-emerald-50 text-emerald-700">
        <svg viewBox="0 0 24 24" className="h-8 w-8" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round">
          <path d="M5 13l4 4L19 7" />
        </svg>
      </div>
      <h1 id="submitted-title" className="text-2xl font-semibold text-slate-900">
        {active ? 'Your campaign is active' : 'Your campaign is submitted'}
      </h1>
      <p className="mt-2 max-w-md text-slate-600">
        {active
          ? 'Your account credit covers it, so there is no payment to wait for. You can follow it in your campaign list.'
          : 'We are confirming the payment of its first week. It becomes active as soon as the payment goes through; you can follow it in your campaign list.'}
      </p>
      <Link to="/campaigns" className="btn-primary mt-6 px-6 py-3 text-base">
        Go to my campaigns
      </Link>
    </section>
  )
}
