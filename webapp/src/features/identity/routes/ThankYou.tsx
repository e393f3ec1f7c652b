import { useSelector } from 'react-redux'
import { Link } from 'react-router'
import { selectUser } from '../../../platform/session'

/** A §2 /thank-you: after sign-up, with a button to /dashboard. */
export default function ThankYou() {
  const user = useSelector(selectUser)
  return (
    <section className="card mx-auto max-w-2xl px-6 py-12 text-center sm:px-12">
      <div aria-hidden="true" className="mx-auto mb-6 flex h-16 w-16 items-center justify-center rounded-full bg-emerald-100 text-emerald-700">
        <svg viewBox="0 0 24 24" className="h-8 w-8" fill="none" stroke="currentColor" strokeWidth="2.5" strokeLinecap="round" strokeLinejoin="round">
          <path d="M5 13l4 4L19 7" />
        </svg>
      </div>
      <h1 className="text-3xl font-semibold text-slate-900">Thank you for registering!</h1>
      <p className="mt-3 text-slate-600">
        {user?.company.name ? <>Your account for {user.company.name} is ready. </> : null}
        Next, plan your first campaign: pick billboards on the map, choose your weeks and add your ad.
      </p>
      <Link to="/dashboard" className="btn-primary mt-8 px-6 py-3 text-base">
        Go to your dashboard
      </Link>
    </section>
  )
}
