import { useState } from 'react'
import { Link } from 'react-router'
import MoneyInput from '../../../platform/inputs/MoneyInput'
import { BUDGET_IMPRESSIONS, estimateWeeklyImpressions } from '../../../platform/impressions'
import BillboardIllustration from '../content/BillboardIllustration'
import { FAQ_TEASER } from '../content/faq'
import { formatCount, formatDollars } from '../../../platform/money'
import { CalendarIcon, ChartIcon, CheckIcon, ClockIcon, ImageIcon, MapPinIcon } from '../content/icons'
import SignUpCallout from '../content/SignUpCallout'
import { container, primaryButton, secondaryButton, sectionTitle, textLink } from '../content/styles'

// The smallest tier with a non-zero estimate (B §9: $500 a week).
const MEASURABLE_BUDGET = BUDGET_IMPRESSIONS.find((tier) => tier.weeklyImpressions > 0)?.minWeeklyBudget ?? 500

const STEPS = [
  {
    icon: MapPinIcon,
    title: 'Pick your billboards',
    text: 'Search by market, or draw a radius of 5 to 250 miles around an address. Every face appears on the map with its weekly price and estimated impressions.',
  },
  {
    icon: CalendarIcon,
    title: 'Choose dates and a creative',
    text: 'Start on any Monday and run for one week, until a date you choose, or ongoing. Upload your ad or build one in the browser.',
  },
  {
    icon: ChartIcon,
    title: 'Pay by card and follow delivery',
    text: 'Confirm with a card. Each week you see minimum against actual impressions, photo proofs from the screen and PDF reports.',
  },
] as const

const REASONS = [
  {
    icon: ImageIcon,
    title: 'A canvas no one skips',
    text: 'A billboard cannot be blocked, muted or scrolled past. Your message appears at full size, in the places your customers already drive and walk.',
  },
  {
    icon: MapPinIcon,
    title: 'Local by design',
    text: 'Choose the exact faces near your store, venue or office, or cover a whole market. You always know where your ad is running.',
  },
  {
    icon: ClockIcon,
    title: 'Change without printing',
    text: 'Digital faces show your ad in rotation, so there is no vinyl to print or install. Swap in a new creative for a new week.',
  },
  {
    icon: CalendarIcon,
    title: 'Buy by the week',
    text: 'No long contracts or agency minimums. Book a single week to test, or keep a campaign running as long as it works.',
  },
] as const

const PREMIUM_POINTS = [
  'You choose every face yourself, on a map, with its facing direction and a photo of the site.',
  'Each face has a fixed weekly price, shown in whole dollars before you book.',
  'Your weekly budget is simply the sum of the faces you pick; no bidding, no surprises.',
  'Estimated impressions are shown for your selection as you build it.',
] as const

export default function Landing() {
  return (
    <>
      <Hero />
      <HowItWorksSteps />
      <WhyDigitalBillboards />
      <PremiumCampaigns />
      <FaqTeaser />
      <SignUpCallout />
    </>
  )
}

function Hero() {
  return (
    <section aria-labelledby="landing-title" className="bg-linear-to-b from-indigo-50 via-white to-white">
      <div className={`${container} grid gap-12 py-12 sm:py-16 lg:grid-cols-2 lg:items-center lg:py-20`}>
        <div>
          <p className="text-sm font-semibold uppercase tracking-wide text-indigo-600">Self-service digital billboards</p>
          <h1
            id="landing-title"
            className="mt-3 text-4xl font-bold tracking-tight text-slate-900 text-balance sm:text-5xl"
          >
            Your ad on digital billboards, booked in minutes
          </h1>
          <p className="mt-5 text-lg leading-relaxed text-slate-600">
            Marquee lets any business buy digital out-of-home advertising without an agency. Pick billboard faces on a
            map by market or by radius around an address, choose your dates and a creative, pay by card, and follow
            delivery week by week with charts, proofs of play and PDF reports.
          </p>
          <ul className="mt-6 space-y-2 text-slate-700">
            {['Weekly prices shown up front', 'Campaigns from a single week', 'Proof that your ad ran'].map((item) => (
              <li key={item} className="flex items-center gap-2">
                <CheckIcon className="h-5 w-5 flex-none text-indigo-600" />
                {item}
              </li>
            ))}
          </ul>
          <div className="mt-8 flex flex-col gap-3 sm:flex-row">
            <Link to="/register" className={primaryButton}>
              Create an account
            </Link>
            <Link to="/login" className={secondaryButton}>
              Sign in
            </Link>
          </div>
        </div>
        <div className="space-y-6">
          <BillboardIllustration className="hidden h-auto w-full sm:block" />
          <BudgetEstimator />
        </div>
      </div>
    </section>
  )
}

function BudgetEstimator() {
  const [budget, setBudget] = useState<number | null>(1000)
  const weeklyBudget = budget ?? 0
  const impressions = estimateWeeklyImpressions(weeklyBudget)

  return (
    <div className="rounded-2xl bg-white p-6 shadow-lg ring-1 ring-slate-200">
      <h2 className="text-lg font-semibold text-slate-900">What does my budget buy?</h2>
      <p className="mt-1 text-sm text-slate-600">Type a weekly budget to see the estimated audience.</p>
      <div className="mt-4">
        <MoneyInput
          id="landing-weekly-budget"
          label="Weekly budget"
          value={budget}
          onChange={setBudget}
          hint={`Whole dollars per week. Start with ${formatDollars(MEASURABLE_BUDGET)} a week for measurable reach.`}
        />
      </div>
      <div className="mt-5 rounded-xl bg-indigo-50 p-4">
        <p id="landing-impressions-label" className="text-sm font-medium text-indigo-900">
          Estimated weekly impressions
        </p>
        <output
          htmlFor="landing-weekly-budget"
          aria-labelledby="landing-impressions-label"
          aria-live="polite"
          className="mt-1 block text-4xl font-bold tracking-tight text-indigo-700 tabular-nums"
        >
          {formatCount(impressions)}
        </output>
        {weeklyBudget < MEASURABLE_BUDGET && (
          <p className="mt-2 text-sm text-indigo-900">
            Budgets under {formatDollars(MEASURABLE_BUDGET)} a week are too small for a measurable estimate.
          </p>
        )}
      </div>
      <p className="mt-4 text-xs leading-relaxed text-slate-500">
        Estimates come from budget tiers: each step from {formatDollars(MEASURABLE_BUDGET)} a week up to{' '}
        {formatDollars(BUDGET_IMPRESSIONS[BUDGET_IMPRESSIONS.length - 1]?.minWeeklyBudget ?? 3000)} and above has a
        typical weekly audience. Your actual estimate depends on the faces you pick.{' '}
        <Link to="/cost" className={textLink}>
          See all tiers
        </Link>
      </p>
    </div>
  )
}

function HowItWorksSteps() {
  return (
    <section aria-labelledby="landing-steps-title" className="py-16 sm:py-20">
      <div className={container}>
        <h2 id="landing-steps-title" className={sectionTitle}>
          How it works in three steps
        </h2>
        <ol className="mt-10 grid gap-6 md:grid-cols-3">
          {STEPS.map((step, i) => (
            <li key={step.title} className="rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200">
              <div className="flex items-center gap-3">
                <span className="flex h-10 w-10 items-center justify-center rounded-full bg-indigo-600 text-white">
                  <step.icon className="h-5 w-5" />
                </span>
                <span className="text-sm font-semibold text-indigo-600">Step {i + 1}</span>
              </div>
              <h3 className="mt-4 text-lg font-semibold text-slate-900">{step.title}</h3>
              <p className="mt-2 leading-relaxed text-slate-600">{step.text}</p>
            </li>
          ))}
        </ol>
        <p className="mt-8">
          <Link to="/how-it-works" className={textLink}>
            Read the full walkthrough
          </Link>
        </p>
      </div>
    </section>
  )
}

function WhyDigitalBillboards() {
  return (
    <section aria-labelledby="landing-why-title" className="bg-slate-50 py-16 sm:py-20">
      <div className={container}>
        <div className="max-w-2xl">
          <h2 id="landing-why-title" className={sectionTitle}>
            Why digital billboards
          </h2>
          <p className="mt-4 text-lg leading-relaxed text-slate-600">
            Out-of-home used to mean long contracts, printed vinyl and a media buyer. Digital faces turn it into
            something you can book like any other online ad.
          </p>
        </div>
        <div className="mt-10 grid gap-8 sm:grid-cols-2">
          {REASONS.map((reason) => (
            <div key={reason.title} className="flex gap-4">
              <span className="flex h-11 w-11 flex-none items-center justify-center rounded-lg bg-white text-indigo-600 shadow-sm ring-1 ring-slate-200">
                <reason.icon />
              </span>
              <div>
                <h3 className="text-lg font-semibold text-slate-900">{reason.title}</h3>
                <p className="mt-1 leading-relaxed text-slate-600">{reason.text}</p>
              </div>
            </div>
          ))}
        </div>
      </div>
    </section>
  )
}

function PremiumCampaigns() {
  return (
    <section aria-labelledby="landing-premium-title" className="py-16 sm:py-20">
      <div className={`${container} grid gap-10 lg:grid-cols-2 lg:items-center`}>
        <div>
          <p className="text-sm font-semibold uppercase tracking-wide text-indigo-600">Premium campaigns</p>
          <h2 id="landing-premium-title" className={`mt-2 ${sectionTitle}`}>
            Hand-select your locations at fixed weekly prices
          </h2>
          <p className="mt-4 text-lg leading-relaxed text-slate-600">
            A Premium campaign puts you in charge of exactly where your ad appears. Browse the faces in your market,
            check the ones you want, and see the weekly total add up as you go.
          </p>
          <p className="mt-6">
            <Link to="/cost" className={textLink}>
              How pricing works
            </Link>
          </p>
        </div>
        <ul className="space-y-4 rounded-2xl bg-indigo-600 p-6 text-indigo-50 shadow-lg sm:p-8">
          {PREMIUM_POINTS.map((point) => (
            <li key={point} className="flex gap-3">
              <CheckIcon className="mt-0.5 h-5 w-5 flex-none text-white" />
              <span className="leading-relaxed">{point}</span>
            </li>
          ))}
        </ul>
      </div>
    </section>
  )
}

function FaqTeaser() {
  return (
    <section aria-labelledby="landing-faq-title" className="bg-slate-50 py-16 sm:py-20">
      <div className="mx-auto max-w-3xl px-4 sm:px-6 lg:px-8">
        <h2 id="landing-faq-title" className={sectionTitle}>
          Frequently asked questions
        </h2>
        <div className="mt-8 divide-y divide-slate-200 rounded-2xl bg-white shadow-sm ring-1 ring-slate-200">
          {FAQ_TEASER.map((item) => (
            <details key={item.question} className="group px-6 py-4">
              <summary className="flex cursor-pointer list-none items-center justify-between gap-4 font-semibold text-slate-900 [&::-webkit-details-marker]:hidden">
                {item.question}
                <span
                  aria-hidden="true"
                  className="text-xl leading-none text-indigo-600 transition-transform group-open:rotate-45"
                >
                  +
                </span>
              </summary>
              <p className="mt-3 leading-relaxed text-slate-600">{item.answer}</p>
            </details>
          ))}
        </div>
        <p className="mt-6 text-slate-600">
          More answers in{' '}
          <Link to="/how-it-works" className={textLink}>
            How it works
          </Link>{' '}
          and{' '}
          <Link to="/cost" className={textLink}>
            Cost
          </Link>
          . Signed-in advertisers can also open the full help centre.
        </p>
      </div>
    </section>
  )
}
