import { Link } from 'react-router'
import { BuildingIcon, CalendarIcon, ChartIcon, CheckIcon, ImageIcon, MapPinIcon } from '../content/icons'
import PageIntro from '../content/PageIntro'
import { container, primaryButton, sectionTitle, textLink } from '../content/styles'

const PARTNERS_EMAIL = 'partners@marquee.example'
const PARTNERS_MAILTO = `mailto:${PARTNERS_EMAIL}?subject=${encodeURIComponent('Listing our screens on Marquee')}`

const BENEFITS = [
  {
    icon: BuildingIcon,
    title: 'New demand from self-serve advertisers',
    text: 'Restaurants, clinics, dealerships, event organisers and agencies book on Marquee without a sales call. They include businesses that have never bought out-of-home before, which adds to the demand you already have.',
  },
  {
    icon: CalendarIcon,
    title: 'Simple weekly bookings',
    text: 'Every booking is whole weeks, Monday to Sunday, with a Wednesday cut-off for the next Monday. You always know what runs next week before the weekend.',
  },
  {
    icon: MapPinIcon,
    title: 'Your faces, presented properly',
    text: 'Each face appears on the map with its direction, a site photo, its spot duration and rotation, and its weekly price, so advertisers buy the face that fits them.',
  },
  {
    icon: ImageIcon,
    title: 'Creative review before anything runs',
    text: 'Ads are built to a standard 1400 × 400 format and reviewed against our content standards. You can reject any creative that does not meet your own rules.',
  },
  {
    icon: ChartIcon,
    title: 'A proof-of-play workflow',
    text: 'Upload photos of each ad on screen for each week. Advertisers see them on their campaign page next to weekly impressions, and in their PDF reports.',
  },
  {
    icon: CheckIcon,
    title: 'Paid upfront by the advertiser',
    text: 'Advertisers pay by card as each week starts, so there are no invoices to chase across many small accounts.',
  },
] as const

const LISTING_STEPS = [
  {
    title: 'Tell us about your screens',
    text: 'Send us your faces: address and coordinates, direction, size, spot duration, rotation frequency, weekly rate and a photo of each site.',
  },
  {
    title: 'Connect your calendar',
    text: 'We link your inventory to our scheduling calendar, so availability stays in sync and a face that is sold out for a week cannot be booked twice.',
  },
  {
    title: 'Receive bookings',
    text: 'Advertisers pick your faces and dates. Each booked week arrives with its creative, ready for you to approve and schedule in your player.',
  },
  {
    title: 'Play and prove',
    text: 'Run the ad Monday through Sunday and upload proof of play for the week. We handle the advertiser, the card payment and the reporting.',
  },
] as const

const CHECKLIST = [
  'Digital billboard faces in a US market',
  'A content management system or player that can schedule weekly flights',
  'A weekly rate card per face',
  'Someone who can approve creatives and upload proofs each week',
] as const

export default function MediaOwners() {
  return (
    <>
      <PageIntro eyebrow="For media owners" title="Fill your screens with self-serve advertisers">
        <p>
          Marquee is a marketplace where businesses book digital billboards by the week, with a card, in a few
          minutes. List your faces with us and reach advertisers who would never call a sales team, while you keep
          control of your rates and of what runs on your screens.
        </p>
        <p className="mt-6">
          <a href={PARTNERS_MAILTO} className={primaryButton}>
            Talk to our partnerships team
          </a>
        </p>
      </PageIntro>

      <section aria-labelledby="owners-benefits-title" className="py-14 sm:py-16">
        <div className={container}>
          <h2 id="owners-benefits-title" className={sectionTitle}>
            What you get
          </h2>
          <div className="mt-10 grid gap-8 sm:grid-cols-2 lg:grid-cols-3">
            {BENEFITS.map((benefit) => (
              <div key={benefit.title}>
                <span className="flex h-11 w-11 items-center justify-center rounded-lg bg-indigo-50 text-indigo-600">
                  <benefit.icon />
                </span>
                <h3 className="mt-4 text-lg font-semibold text-slate-900">{benefit.title}</h3>
                <p className="mt-2 leading-relaxed text-slate-600">{benefit.text}</p>
              </div>
            ))}
          </div>
        </div>
      </section>

      <section aria-labelledby="owners-steps-title" className="bg-slate-50 py-14 sm:py-16">
        <div className={container}>
          <h2 id="owners-steps-title" className={sectionTitle}>
            How listing works
          </h2>
          <ol className="mt-10 grid gap-6 md:grid-cols-2 lg:grid-cols-4">
            {LISTING_STEPS.map((step, i) => (
              <li key={step.title} className="rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200">
                <span className="flex h-9 w-9 items-center justify-center rounded-full bg-indigo-600 text-sm font-semibold text-white">
                  {i + 1}
                </span>
                <h3 className="mt-4 text-lg font-semibold text-slate-900">{step.title}</h3>
                <p className="mt-2 leading-relaxed text-slate-600">{step.text}</p>
              </li>
            ))}
          </ol>
        </div>
      </section>

      <section aria-labelledby="owners-fit-title" className="py-14 sm:py-16">
        <div className={`${container} grid gap-10 lg:grid-cols-2`}>
          <div>
            <h2 id="owners-fit-title" className={sectionTitle}>
              Is Marquee a fit for your network?
            </h2>
            <p className="mt-4 text-lg leading-relaxed text-slate-600">
              Whether you run a single roadside screen or a regional network, listing is free to discuss. We will walk
              you through the commercial terms and the onboarding when we talk. To see how advertisers experience your
              inventory, read{' '}
              <Link to="/locations" className={textLink}>
                Locations
              </Link>{' '}
              and{' '}
              <Link to="/how-it-works" className={textLink}>
                How it works
              </Link>
              .
            </p>
          </div>
          <div className="rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200 sm:p-8">
            <h3 className="text-lg font-semibold text-slate-900">What you need</h3>
            <ul className="mt-4 space-y-3">
              {CHECKLIST.map((item) => (
                <li key={item} className="flex gap-3 text-slate-700">
                  <CheckIcon className="mt-0.5 h-5 w-5 flex-none text-indigo-600" />
                  {item}
                </li>
              ))}
            </ul>
          </div>
        </div>
      </section>

      <section aria-labelledby="owners-contact-title" className="bg-slate-900">
        <div className={`${container} py-14 sm:py-16`}>
          <h2 id="owners-contact-title" className="text-2xl font-bold tracking-tight text-white sm:text-3xl">
            List your inventory with Marquee
          </h2>
          <p className="mt-3 max-w-2xl leading-relaxed text-slate-300">
            Write to{' '}
            <a href={PARTNERS_MAILTO} className="font-semibold text-white underline underline-offset-4">
              {PARTNERS_EMAIL}
            </a>{' '}
            with your markets and the number of faces you operate, and our partnerships team will get back to you.
          </p>
          <p className="mt-6">
            <a href={PARTNERS_MAILTO} className={primaryButton}>
              Email the partnerships team
            </a>
          </p>
        </div>
      </section>
    </>
  )
}
