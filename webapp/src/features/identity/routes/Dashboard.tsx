import { useSelector } from 'react-redux'
import { Link } from 'react-router'
import { selectUser } from '../../../platform/session'
import DashboardTour from '../../../platform/tour/DashboardTour'

/**
 * A §2 /dashboard. The campaign counts (pending, active, completed, paused, total) come with the
 * campaigns screens; until then the dashboard says where campaigns will appear.
 */
export default function Dashboard() {
  const user = useSelector(selectUser)
  const name = user?.local?.first_name?.trim()
  return (
    <div className="space-y-8">
      <DashboardTour />
      <div className="flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
        <div>
          <h1 className="text-2xl font-semibold text-slate-900 sm:text-3xl">{name ? `Welcome, ${name}` : 'Welcome to Marquee'}</h1>
          <p className="mt-1 text-slate-600">{user?.company?.name ? `${user.company.name} · ` : ''}Your billboard campaigns at a glance.</p>
        </div>
        <Link to="/campaigns/new" className="btn-primary self-start sm:self-auto">
          New campaign
        </Link>
      </div>

      <section aria-labelledby="campaigns-empty" className="card flex flex-col items-center px-6 py-14 text-center">
        <div aria-hidden="true" className="mb-5 flex h-16 w-16 items-center justify-center rounded-2xl bg-brand-50 text-brand-700">
          <svg viewBox="0 0 24 24" className="h-8 w-8" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" strokeLinejoin="round">
            <rect x="3" y="4" width="18" height="11" rx="2" />
            <path d="M12 15v5M8 20h8" />
          </svg>
        </div>
        <h2 id="campaigns-empty" className="text-xl font-semibold text-slate-900">
          Your campaigns will appear here
        </h2>
        <p className="mt-2 max-w-md text-slate-600">
          Once you create a campaign, you will see how many are pending, active, paused and completed, and follow each one week by week.
        </p>
        <Link to="/campaigns/new" className="btn-primary mt-6 px-6 py-3 text-base">
          Create your first campaign
        </Link>
      </section>

      <section aria-labelledby="next-steps" className="grid gap-4 md:grid-cols-3">
        <h2 id="next-steps" className="sr-only">
          Getting started
        </h2>
        {[
          { title: 'Pick billboards', text: 'Choose faces on the map by market or around an address, and see their weekly price.', to: '/faq' },
          { title: 'Prepare your ad', text: 'Upload a creative or build one with the Ad Design Tool under Creatives.', to: '/creatives' },
          { title: 'Questions?', text: 'Read how pricing, dates and proofs of play work before you book.', to: '/faq' },
        ].map((card) => (
          <Link key={card.title} to={card.to} className="card block p-5 transition-shadow hover:shadow-md">
            <h3 className="font-semibold text-slate-900">{card.title}</h3>
            <p className="mt-1 text-sm text-slate-600">{card.text}</p>
          </Link>
        ))}
      </section>
    </div>
  )
}
