import { Link } from 'react-router'
import { BUDGET_IMPRESSIONS, estimateWeeklyImpressions } from '../../../platform/impressions'
import { formatCount, formatDollars } from '../../../platform/money'
import PageIntro from '../content/PageIntro'
import { MAX_CAMPAIGN_WEEKS } from '../content/planning'
import SignUpCallout from '../content/SignUpCallout'
import { container, sectionTitle, textLink } from '../content/styles'


const RULES = [
  {
    title: 'A weekly price per face',
    text: 'Every billboard face has its own weekly price, set by its inventory: the media owner’s rate and how much of the face is still available in the weeks you choose. Prices reload whenever you change the start date.',
  },
  {
    title: 'Whole dollars, rounded up to $10',
    text: 'Prices are shown without cents and rounded up to the next $10, so a face whose inventory price works out to $343 a week is listed at $350.',
  },
  {
    title: 'Your weekly budget',
    text: 'The sum of the weekly prices of the faces you pick, minus the portion of any account credit applied to that week. It never goes below $0.',
  },
  {
    title: 'Account credit and promo codes',
    text: 'Account credit is split evenly across the weeks of a campaign and lowers each week’s charge. Redeeming a promo code adds credit to your account.',
  },
  {
    title: 'Your total',
    text: `The weekly budget times the number of weeks. A campaign runs from a Monday to a Sunday, for one week, up to ${MAX_CAMPAIGN_WEEKS} weeks to an end date you choose, or ongoing until you stop it.`,
  },
  {
    title: 'Billed weekly',
    text: 'Your card is charged each Monday for the week that starts that day, so you never pay for a week before it begins. Book by Wednesday to start the next Monday.',
  },
] as const

// A worked example with round numbers; the face names are illustrative.
const EXAMPLE_FACES = [
  { name: 'Highway 101 at Cesar Chavez St', face: 'North Face', weeklyPrice: 480 },
  { name: 'Mission St & 16th St', face: 'Double Faced', weeklyPrice: 350 },
  { name: 'Geary Blvd & Masonic Ave', face: 'West Face', weeklyPrice: 220 },
] as const
const EXAMPLE_WEEKS = 8
const EXAMPLE_CREDIT = 400

const exampleFacesTotal = EXAMPLE_FACES.reduce((sum, f) => sum + f.weeklyPrice, 0)
const exampleCreditPerWeek = EXAMPLE_CREDIT / EXAMPLE_WEEKS
const exampleWeeklyBudget = Math.max(0, exampleFacesTotal - exampleCreditPerWeek)
const exampleTotal = exampleWeeklyBudget * EXAMPLE_WEEKS
const exampleWeeklyImpressions = estimateWeeklyImpressions(exampleWeeklyBudget)

export default function Cost() {
  return (
    <>
      <PageIntro eyebrow="Pricing" title="Simple weekly pricing, face by face">
        <p>
          With Marquee you pay a fixed weekly price for each billboard face you choose. There are no agency fees, no
          bidding and no long contracts: you see the price of every face before you book, and your card is charged
          week by week.
        </p>
      </PageIntro>

      <section aria-labelledby="cost-rules-title" className="py-14 sm:py-16">
        <div className={container}>
          <h2 id="cost-rules-title" className={sectionTitle}>
            How pricing works
          </h2>
          <dl className="mt-8 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
            {RULES.map((rule) => (
              <div key={rule.title} className="rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200">
                <dt className="text-lg font-semibold text-slate-900">{rule.title}</dt>
                <dd className="mt-2 leading-relaxed text-slate-600">{rule.text}</dd>
              </div>
            ))}
          </dl>

          <div className="mt-10 rounded-2xl bg-indigo-50 p-6 ring-1 ring-indigo-100 sm:p-8">
            <h3 className="text-lg font-semibold text-indigo-950">In short</h3>
            <ul className="mt-4 space-y-2 font-mono text-sm text-indigo-900 sm:text-base">
              <li>weekly budget = sum of face prices − (account credit ÷ weeks), never below $0</li>
              <li>total = weekly budget × weeks</li>
            </ul>
          </div>
        </div>
      </section>

      <section aria-labelledby="cost-example-title" className="bg-slate-50 py-14 sm:py-16">
        <div className={container}>
          <h2 id="cost-example-title" className={sectionTitle}>
            A worked example
          </h2>
          <p className="mt-4 max-w-3xl text-lg leading-relaxed text-slate-600">
            A café in San Francisco books three faces for {EXAMPLE_WEEKS} weeks and has{' '}
            {formatDollars(EXAMPLE_CREDIT)} of account credit from a promo code.
          </p>

          <div className="mt-8 overflow-x-auto rounded-2xl bg-white shadow-sm ring-1 ring-slate-200">
            <table className="w-full min-w-[32rem] text-left text-sm sm:text-base">
              <caption className="sr-only">Worked example of a campaign’s weekly budget and total</caption>
              <thead className="bg-slate-100 text-slate-700">
                <tr>
                  <th scope="col" className="px-4 py-3 font-semibold sm:px-6">
                    Face
                  </th>
                  <th scope="col" className="px-4 py-3 text-right font-semibold sm:px-6">
                    Weekly price
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-200 text-slate-700">
                {EXAMPLE_FACES.map((f) => (
                  <tr key={f.name}>
                    <td className="px-4 py-3 sm:px-6">
                      {f.name} <span className="text-slate-500">· {f.face}</span>
                    </td>
                    <td className="px-4 py-3 text-right tabular-nums sm:px-6">{formatDollars(f.weeklyPrice)}</td>
                  </tr>
                ))}
                <tr>
                  <th scope="row" className="px-4 py-3 font-medium sm:px-6">
                    Sum of face prices
                  </th>
                  <td className="px-4 py-3 text-right tabular-nums sm:px-6">{formatDollars(exampleFacesTotal)}</td>
                </tr>
                <tr>
                  <th scope="row" className="px-4 py-3 font-medium sm:px-6">
                    Account credit per week ({formatDollars(EXAMPLE_CREDIT)} ÷ {EXAMPLE_WEEKS} weeks)
                  </th>
                  <td className="px-4 py-3 text-right tabular-nums sm:px-6">
                    −{formatDollars(exampleCreditPerWeek)}
                  </td>
                </tr>
                <tr className="bg-indigo-50 text-indigo-950">
                  <th scope="row" className="px-4 py-3 font-semibold sm:px-6">
                    Weekly budget
                  </th>
                  <td className="px-4 py-3 text-right font-semibold tabular-nums sm:px-6">
                    {formatDollars(exampleWeeklyBudget)}
                  </td>
                </tr>
                <tr className="bg-indigo-50 text-indigo-950">
                  <th scope="row" className="px-4 py-3 font-semibold sm:px-6">
                    Total ({formatDollars(exampleWeeklyBudget)} × {EXAMPLE_WEEKS} weeks)
                  </th>
                  <td className="px-4 py-3 text-right font-semibold tabular-nums sm:px-6">
                    {formatDollars(exampleTotal)}
                  </td>
                </tr>
              </tbody>
            </table>
          </div>

          <p className="mt-6 max-w-3xl leading-relaxed text-slate-600">
            The card is charged {formatDollars(exampleWeeklyBudget)} on each of the {EXAMPLE_WEEKS} Mondays. At{' '}
            {formatDollars(exampleWeeklyBudget)} a week the campaign is estimated at{' '}
            {formatCount(exampleWeeklyImpressions)} impressions a week, or{' '}
            {formatCount(exampleWeeklyImpressions * EXAMPLE_WEEKS)} over {EXAMPLE_WEEKS} weeks.
          </p>
        </div>
      </section>

      <section aria-labelledby="cost-tiers-title" className="py-14 sm:py-16">
        <div className={container}>
          <h2 id="cost-tiers-title" className={sectionTitle}>
            What a weekly budget reaches
          </h2>
          <p className="mt-4 max-w-3xl text-lg leading-relaxed text-slate-600">
            Before you pick faces, these tiers give a first idea of the weekly audience a budget reaches. Once you
            choose faces, the campaign form shows the estimate for your actual selection. We suggest starting at{' '}
            {formatDollars(BUDGET_IMPRESSIONS[1]?.minWeeklyBudget ?? 500)} a week for measurable reach.
          </p>
          <BudgetTierTable />
        </div>
      </section>

      <section aria-labelledby="cost-more-title" className="bg-slate-50 py-14 sm:py-16">
        <div className={`${container} max-w-4xl`}>
          <h2 id="cost-more-title" className={sectionTitle}>
            Good to know
          </h2>
          <ul className="mt-6 space-y-3 leading-relaxed text-slate-600">
            <li>
              <strong className="text-slate-900">Pausing or stopping.</strong> Pause, resume or end a campaign from
              its page. Changes made by Wednesday apply from the next Monday; weeks already billed run as booked.
            </li>
            <li>
              <strong className="text-slate-900">Ongoing campaigns.</strong> An ongoing campaign has no end date: it
              is billed each Monday at its weekly budget until you stop it.
            </li>
            <li>
              <strong className="text-slate-900">Refunds.</strong> If a booked week does not run because of a screen
              outage, you get a make-good, account credit or a refund. See the{' '}
              <Link to="/tos#refunds" className={textLink}>
                terms of service
              </Link>
              .
            </li>
          </ul>
        </div>
      </section>

      <SignUpCallout />
    </>
  )
}

function BudgetTierTable() {
  return (
    <div className="mt-8 max-w-2xl overflow-x-auto rounded-2xl bg-white shadow-sm ring-1 ring-slate-200">
      <table className="w-full text-left text-sm sm:text-base">
        <caption className="sr-only">Estimated weekly impressions by minimum weekly budget</caption>
        <thead className="bg-slate-100 text-slate-700">
          <tr>
            <th scope="col" className="px-4 py-3 font-semibold sm:px-6">
              Weekly budget
            </th>
            <th scope="col" className="px-4 py-3 text-right font-semibold sm:px-6">
              Estimated weekly impressions
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-200 text-slate-700">
          {BUDGET_IMPRESSIONS.map((tier, i) => {
            const next = BUDGET_IMPRESSIONS[i + 1]
            return (
              <tr key={tier.minWeeklyBudget}>
                <th scope="row" className="px-4 py-3 font-medium tabular-nums sm:px-6">
                  {budgetRangeLabel(tier.minWeeklyBudget, next?.minWeeklyBudget)}
                </th>
                <td className="px-4 py-3 text-right tabular-nums sm:px-6">
                  {tier.weeklyImpressions === 0 ? 'Not measurable' : formatCount(tier.weeklyImpressions)}
                </td>
              </tr>
            )
          })}
        </tbody>
      </table>
    </div>
  )
}

function budgetRangeLabel(min: number, nextMin: number | undefined): string {
  if (nextMin === undefined) return `${formatDollars(min)} and above`
  if (min === 0) return `Under ${formatDollars(nextMin)}`
  return `${formatDollars(min)} – ${formatDollars(nextMin - 1)}`
}
