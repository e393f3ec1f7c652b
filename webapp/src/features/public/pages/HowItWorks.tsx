import { Link } from 'react-router'
import { formatCount } from '../../../platform/money'
import PageIntro from '../content/PageIntro'
import { MAX_CAMPAIGN_WEEKS, RADIUS_MILES } from '../content/planning'
import SignUpCallout from '../content/SignUpCallout'
import { container, sectionTitle, textLink } from '../content/styles'

interface Step {
  id: string
  title: string
  text: string
  details?: readonly string[]
}

const minRadius = RADIUS_MILES[0] ?? 5
const maxRadius = RADIUS_MILES[RADIUS_MILES.length - 1] ?? 250

const STEPS: readonly Step[] = [
  {
    id: 'sign-up',
    title: 'Sign up with your company',
    text: 'Enter your company name first; each company can register once. Then add your email, phone and a password. Your account belongs to your company, and you can invite team members to work on campaigns with you.',
  },
  {
    id: 'plan',
    title: 'Plan where to advertise',
    text: 'Name your campaign and choose how to find faces:',
    details: [
      `By address: pick a place and a radius of ${minRadius} to ${formatCount(maxRadius)} miles around it (${RADIUS_MILES.join(', ')} miles).`,
      'By market: choose a DMA market, such as the SF Bay Area or Chicago, and narrow it down to cities if you like.',
    ],
  },
  {
    id: 'pick-faces',
    title: 'Pick faces on the map',
    text: 'Every face in your area appears on the map with its direction, a photo, its weekly price and its availability. Check the faces you want: your weekly budget and estimated impressions update as you go. Sold-out faces cannot be selected, and a “show only checked” view lets you review your picks.',
  },
  {
    id: 'start-date',
    title: 'Set a start date',
    text: 'Campaigns start on a Monday. Book by Wednesday to start the next Monday; after Wednesday, the earliest start is the Monday after that. Prices reload for the week you choose.',
  },
  {
    id: 'frequency',
    title: 'Choose how long it runs',
    text: 'Pick a frequency:',
    details: [
      'One week: Monday to Sunday, once.',
      `Specified end date: runs until a Sunday you choose, up to ${MAX_CAMPAIGN_WEEKS} weeks.`,
      'Ongoing: runs week after week, billed each Monday, until you pause or stop it.',
    ],
  },
  {
    id: 'creative',
    title: 'Choose or build a creative',
    text: 'Your ad is a single 1400 × 400 image. You can:',
    details: [
      'Build it in the ad builder: drag and resize text and images on a 1400 × 400 canvas, set the background colour and choose fonts.',
      'Upload a finished JPEG or TIFF file of up to 10 MB.',
      'Reuse a creative from your library, or ask our team to build one for you.',
    ],
  },
  {
    id: 'card',
    title: 'Add a card',
    text: 'Add a payment card; it is shown masked, with only its last four digits. If you have a promo code, redeem it to add account credit, which is split evenly across your campaign weeks.',
  },
  {
    id: 'confirm',
    title: 'Review and confirm',
    text: 'Check the faces, dates, creative, weekly budget, total and estimated impressions, then confirm. Your campaign is pending while payment is confirmed and the creative is approved, and becomes active when it goes live. If someone books one of your faces for some of your weeks first, we suggest alternative dates or let you keep your own dates for the weeks still free.',
  },
  {
    id: 'follow',
    title: 'Follow delivery week by week',
    text: 'Each campaign has its own page with everything you need to judge results:',
    details: [
      'A chart of minimum impressions against actual impressions, week by week.',
      'Proofs of play: photos of your ad on each screen.',
      'PDF performance reports for finished weeks, ready to share.',
      'Pause, resume or mark the campaign complete from the same page.',
    ],
  },
]

export default function HowItWorks() {
  return (
    <>
      <PageIntro eyebrow="How it works" title="From sign-up to your ad on screen">
        <p>
          Booking a digital billboard campaign on Marquee takes a few minutes. Here is every step, from creating your
          account to checking the proofs that your ad ran.
        </p>
      </PageIntro>

      <section aria-labelledby="how-steps-title" className="py-14 sm:py-16">
        <div className="mx-auto max-w-3xl px-4 sm:px-6 lg:px-8">
          <h2 id="how-steps-title" className={sectionTitle}>
            Step by step
          </h2>
          <ol className="mt-10 space-y-0">
            {STEPS.map((step, i) => (
              <li key={step.id} className="relative flex gap-5 pb-10 last:pb-0">
                {i < STEPS.length - 1 && (
                  <span aria-hidden="true" className="absolute top-10 left-5 -ml-px h-[calc(100%-2.5rem)] w-0.5 bg-indigo-100" />
                )}
                <span className="relative flex h-10 w-10 flex-none items-center justify-center rounded-full bg-indigo-600 text-sm font-semibold text-white">
                  {i + 1}
                </span>
                <div className="pt-1.5">
                  <h3 id={step.id} className="text-lg font-semibold text-slate-900">
                    {step.title}
                  </h3>
                  <p className="mt-2 leading-relaxed text-slate-600">{step.text}</p>
                  {step.details && (
                    <ul className="mt-3 list-disc space-y-1.5 pl-5 leading-relaxed text-slate-600 marker:text-indigo-400">
                      {step.details.map((detail) => (
                        <li key={detail}>{detail}</li>
                      ))}
                    </ul>
                  )}
                </div>
              </li>
            ))}
          </ol>
          <p className="mt-10 text-slate-600">
            Want the numbers? See{' '}
            <Link to="/cost" className={textLink}>
              how pricing works
            </Link>{' '}
            and{' '}
            <Link to="/locations" className={textLink}>
              where you can advertise
            </Link>
            .
          </p>
        </div>
      </section>

      <section aria-labelledby="how-partners-title" className="bg-slate-50 py-14 sm:py-16">
        <div className={container}>
          <h2 id="how-partners-title" className={sectionTitle}>
            Partner program
          </h2>
          <p className="mt-4 max-w-3xl text-lg leading-relaxed text-slate-600">
            Agencies, consultants and marketers who bring advertisers to Marquee can join as partners and earn
            bonuses on the campaigns their clients run.
          </p>
          <div className="mt-8 grid gap-6 md:grid-cols-2">
            <div className="rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200">
              <h3 className="text-lg font-semibold text-slate-900">Ambassadors</h3>
              <p className="mt-2 leading-relaxed text-slate-600">
                Invite clients to Marquee from your account, follow which invitations have been accepted, and see the
                codes your clients redeemed and the bonuses you have earned, year by year.
              </p>
            </div>
            <div className="rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200">
              <h3 className="text-lg font-semibold text-slate-900">Certified partners</h3>
              <p className="mt-2 leading-relaxed text-slate-600">
                Pass the Marquee certification exam to become a certified partner. You get a partner hub with your
                profile and a monthly chart of your earnings and your clients’ campaigns.
              </p>
            </div>
          </div>
          <p className="mt-6 text-slate-600">
            Interested? Write to{' '}
            <a href="mailto:partners@marquee.example" className={textLink}>
              partners@marquee.example
            </a>
            .
          </p>
        </div>
      </section>

      <SignUpCallout title="Ready to plan your first campaign?" />
    </>
  )
}
