import { Link } from 'react-router'

/**
 * /campaigns/success/submitted (B §2): shown after a campaign is created; the flash carried from
 * the form says it is pending payment confirmation.
 */
export default function CampaignSubmitted() {
  return (
    <section aria-labelledby="submitted-title" className="card mx-auto flex max-w-2xl flex-col items-center px-6 py-14 text-center">
      <div aria-hidden="true" className="mb-5 flex h-16 w-16 items-center justify-center rounded-full bg-emerald-50 text-emerald-700">
        <svg viewBox="0 0 24 24" className="h-8 w-8" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round">
          <path d="M5 13l4 4L19 7" />
        </svg>
      </div>
      <h1 id="submitted-title" className="text-2xl font-semibold text-slate-900">
        Your campaign is submitted
      </h1>
      <p className="mt-2 max-w-md text-slate-600">
        We are confirming the payment of its first week. It becomes active as soon as the payment goes through; you can follow it in your campaign list.
      </p>
      <Link to="/campaigns" className="btn-primary mt-6 px-6 py-3 text-base">
        Go to my campaigns
      </Link>
    </section>
  )
}
