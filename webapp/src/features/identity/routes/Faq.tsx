import type { ReactNode } from 'react'
import { Link } from 'react-router'

interface Question {
  q: string
  a: ReactNode
}

interface Topic {
  title: string
  questions: Question[]
}

// Answers follow the product rules of spec A and B (weeks, prices, creatives, reports).
const TOPICS: Topic[] = [
  {
    title: 'Planning a campaign',
    questions: [
      {
        q: 'How do I choose where my ad runs?',
        a: (
          <>
            When you create a campaign you pick billboard faces on a map. Filter by a DMA market, or by address: type a place and
            choose a radius from 5 to 250 miles around it. Each face shows its weekly price, its facing direction and an estimate of
            its impressions. Check the faces you want; your weekly budget is the sum of their prices.
          </>
        ),
      },
      {
        q: 'When can my campaign start and end?',
        a: (
          <>
            Campaigns run in whole weeks, Monday to Sunday. A campaign starts on a Monday and ends on a Sunday. To start next
            Monday, book by the Wednesday before; after that, the earliest start is the Monday after. A campaign can run for up
            to 52 weeks.
          </>
        ),
      },
      {
        q: 'What is the Wednesday cut-off?',
        a: (
          <>
            Every campaign week runs Monday to Sunday, and its cut-off is the Wednesday before that Monday. Until the cut-off a
            week can still be booked, started or changed; after it, the week is locked. So from Monday to Wednesday the earliest
            start is next Monday, and from Thursday to Sunday it is the Monday after. Ongoing campaigns book and pay for each next
            week at its cut-off, and a paused campaign skips (and is not charged for) the weeks whose cut-off passes while it is
            paused.
          </>
        ),
      },
      {
        q: 'What do One Week, Specified End Date and Ongoing mean?',
        a: (
          <>
            <strong>One Week</strong> runs a single week. <strong>Specified End Date</strong> runs every week until the Sunday you
            choose. <strong>Ongoing</strong> keeps running week after week until you stop it.
          </>
        ),
      },
      {
        q: 'Can I change a campaign after I book it?',
        a: (
          <>
            Yes, until shortly before it starts: a campaign can no longer be edited when its start date is 5 or fewer days away.
            Once it runs you can pause it, resume it, or mark it complete. Marking a campaign complete cannot be undone.
          </>
        ),
      },
    ],
  },
  {
    title: 'Prices and payment',
    questions: [
      {
        q: 'How much does a billboard cost?',
        a: (
          <>
            Every face has a fixed weekly price, shown in whole dollars before you book, so there is no bidding. Your weekly total
            is the sum of the faces you choose, and the campaign total is the weekly total times the number of weeks. See{' '}
            <Link to="/cost" className="link">
              Cost
            </Link>{' '}
            for typical budgets and the impressions they buy.
          </>
        ),
      },
      {
        q: 'How do I pay?',
        a: (
          <>
            By card. You add a card once, in Settings or while creating a campaign; it is kept by our payment provider and shown to
            you only as its last four digits. Your campaign is created as pending until the payment is confirmed.
          </>
        ),
      },
      {
        q: 'When is my card charged?',
        a: (
          <>
            The first week is charged when you book, and the campaign shows as pending until the payment is confirmed; if your
            account credit covers the whole first week, nothing is charged and the campaign is active at once. Every later week is
            charged at its Wednesday cut-off. If a payment fails you see why; update your card in Settings and retry the payment
            from the campaign.
          </>
        ),
      },
      {
        q: 'Can I get a refund?',
        a: (
          <>
            When you delete a campaign, its weeks that have not started yet are released, and you can ask for a refund: what you
            paid for those weeks goes back to your card, and the account credit they used goes back to your account. Weeks that
            have already started are not refunded. Marking a campaign complete releases its weeks that were not charged yet, so
            you are not charged for them.
          </>
        ),
      },
      {
        q: 'How do promo codes and account credit work?',
        a: (
          <>
            Redeem a promo code to add credit to your company account. Credit is spread evenly across the weeks of your next
            campaign and taken off each week&apos;s total, which never goes below zero.
          </>
        ),
      },
    ],
  },
  {
    title: 'Your ad',
    questions: [
      {
        q: 'What file should my ad be?',
        a: (
          <>
            Upload a JPEG (.jpeg or .jpg) or TIFF image of up to 10 MB. Keep the message short: on a digital billboard your ad is
            shown for about 8 seconds at a time, in rotation with other advertisers, every day from Monday to Sunday.
          </>
        ),
      },
      {
        q: 'I do not have an ad. Can you help?',
        a: (
          <>
            Yes. To build your own ad, click the Creatives menu and then select Ad Design Tool: place text and images on a canvas,
            pick colours and fonts, and save a 1400 × 400 image. You can also ask our team to design one for you from the creative
            selector when you create a campaign.
          </>
        ),
      },
      {
        q: 'What is the content library?',
        a: (
          <>
            Content holds guides, images, videos and documents that help you plan and design campaigns. Open{' '}
            <Link to="/content" className="link">
              Content
            </Link>{' '}
            from the menu to browse them.
          </>
        ),
      },
    ],
  },
  {
    title: 'Results',
    questions: [
      {
        q: 'How do I know my ad ran?',
        a: (
          <>
            Each campaign has a detail page with its weeks, photo proofs from the screens, and a chart of minimum against actual
            impressions. Actual numbers appear once a week (or a day, for a one-week campaign) has passed.
          </>
        ),
      },
      {
        q: 'What are proofs?',
        a: (
          <>
            Proofs are photos of your ad on the billboard, taken while it runs. Our team adds them to each week of your campaign;
            open the campaign from Campaigns to see them beside each location, with the actual impressions of the weeks that have
            passed.
          </>
        ),
      },
      {
        q: 'Can I get a report?',
        a: (
          <>
            Yes. Under Reports, pick a campaign and its finished weeks to generate a performance report as a PDF. You need at least
            one campaign to create a report.
          </>
        ),
      },
      {
        q: 'What is an impression?',
        a: (
          <>
            An impression is one estimated view of your ad by a person passing the billboard. Estimates are based on traffic at
            each location and are multiplied by the number of weeks your campaign runs.
          </>
        ),
      },
    ],
  },
  {
    title: 'Your account',
    questions: [
      {
        q: 'How do I change my password?',
        a: (
          <>
            Open{' '}
            <Link to="/profile" className="link">
              Profile
            </Link>{' '}
            and choose the Password tab. Changing it signs you out on every other device. If you forgot it, use &quot;Forgot your password?&quot; on the sign-in page and we will email
            you a link.
          </>
        ),
      },
      {
        q: 'How do I add people from my company?',
        a: (
          <>
            Open{' '}
            <Link to="/profile?tab=team" className="link">
              Profile, Team members
            </Link>
            , give each person&apos;s name and email and send the invites. Each one gets an email with a link to set a password;
            they then see your company&apos;s campaigns, creatives and reports.
          </>
        ),
      },
      {
        q: 'Why was I signed out?',
        a: <>For your security, a session ends after a period without activity. Sign in again and carry on where you left off.</>,
      },
      {
        q: 'What are ambassador and certified partners?',
        a: (
          <>
            Ambassador companies invite clients to Marquee and earn bonuses on the campaigns they bring. Certified companies pass a
            short exam and get a partner hub with their earnings and campaigns month by month.
          </>
        ),
      },
    ],
  },
]

const slug = (title: string) => `faq-${title.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`

/** A §2 /faq: help for advertisers. */
export default function Faq() {
  return (
    <div className="mx-auto max-w-3xl space-y-8">
      <div>
        <h1 className="text-2xl font-semibold text-slate-900 sm:text-3xl">Frequently asked questions</h1>
        <p className="mt-1 text-slate-600">Everything you need to know about buying digital billboard ads on Marquee.</p>
      </div>
      {TOPICS.map((topic) => (
        <section key={topic.title} aria-labelledby={slug(topic.title)}>
          <h2 id={slug(topic.title)} className="mb-3 text-lg font-semibold text-slate-900">
            {topic.title}
          </h2>
          <div className="card divide-y divide-slate-100">
            {topic.questions.map((item) => (
              <details key={item.q} className="group px-5 py-4">
                <summary className="flex cursor-pointer list-none items-center justify-between gap-4 font-medium text-slate-900 [&::-webkit-details-marker]:hidden">
                  {item.q}
                  <svg aria-hidden="true" viewBox="0 0 20 20" className="h-5 w-5 shrink-0 text-slate-400 transition-transform group-open:rotate-180" fill="currentColor">
                    <path d="M5.3 7.3a1 1 0 0 1 1.4 0L10 10.6l3.3-3.3a1 1 0 1 1 1.4 1.4l-4 4a1 1 0 0 1-1.4 0l-4-4a1 1 0 0 1 0-1.4z" />
                  </svg>
                </summary>
                <p className="mt-3 text-slate-600">{item.a}</p>
              </details>
            ))}
          </div>
        </section>
      ))}
    </div>
  )
}
