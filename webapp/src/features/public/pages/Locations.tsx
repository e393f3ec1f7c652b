import { Link } from 'react-router'
import { formatNumber } from '../content/format'
import { CalendarIcon, ClockIcon, MapPinIcon, RotateIcon } from '../content/icons'
import { MARKETS } from '../content/markets'
import PageIntro from '../content/PageIntro'
import { RADIUS_MILES, TYPICAL_SPOT_SECONDS } from '../content/planning'
import SignUpCallout from '../content/SignUpCallout'
import { container, sectionTitle, textLink } from '../content/styles'

// A §3 / B §3: the face values a location can carry.
const FACE_TYPES = [
  {
    name: 'North Face',
    text: 'The screen faces north, so it is read by traffic heading south toward it.',
  },
  {
    name: 'South Face',
    text: 'The screen faces south and is read by northbound traffic.',
  },
  {
    name: 'East Face',
    text: 'The screen faces east and is read by westbound traffic.',
  },
  {
    name: 'West Face',
    text: 'The screen faces west and is read by eastbound traffic.',
  },
  {
    name: 'Double Faced',
    text: 'Two screens back to back on one structure, one for each direction of traffic. The map shows an arrow for each side; each side has its own price, and you can book one side or both.',
  },
] as const

const FACE_DETAILS = [
  'Location name and a photo of the site',
  'Which way the face points',
  'Weekly price, in whole dollars',
  'Whether it is available for your start week',
  'Estimated weekly impressions',
  'Spot duration and rotation frequency',
] as const

export default function Locations() {
  return (
    <>
      <PageIntro eyebrow="Locations" title="Digital billboards in 20+ US markets">
        <p>
          Marquee lists digital billboard faces from independent media owners across the United States, from the SF
          Bay Area and Los Angeles to Chicago and New York. Every face is bookable by the week, at a price you see
          before you buy.
        </p>
      </PageIntro>

      <section aria-labelledby="locations-map-title" className="py-14 sm:py-16">
        <div className={container}>
          <h2 id="locations-map-title" className={sectionTitle}>
            Interactive map of every face
          </h2>
          <div
            data-testid="locations-map-slot"
            className="mt-6 rounded-2xl border-2 border-dashed border-slate-300 bg-slate-50 p-6 sm:p-8"
          >
            <p className="max-w-3xl leading-relaxed text-slate-600">
              When you plan a campaign, every face appears on a map with its direction, price and estimated audience.
              Find faces by DMA market, or within a radius of {RADIUS_MILES[0]} to{' '}
              {formatNumber(RADIUS_MILES[RADIUS_MILES.length - 1] ?? 250)} miles around an address. Markets with
              bookable faces today:
            </p>
            <ul className="mt-6 grid grid-cols-1 gap-x-6 gap-y-2 text-slate-800 sm:grid-cols-2 lg:grid-cols-4">
              {MARKETS.map((market) => (
                <li key={market} className="flex items-center gap-2">
                  <MapPinIcon className="h-4 w-4 flex-none text-indigo-500" />
                  {market}
                </li>
              ))}
            </ul>
          </div>
        </div>
      </section>

      <section aria-labelledby="locations-faces-title" className="bg-slate-50 py-14 sm:py-16">
        <div className={container}>
          <h2 id="locations-faces-title" className={sectionTitle}>
            Face types
          </h2>
          <p className="mt-4 max-w-3xl text-lg leading-relaxed text-slate-600">
            A face is one screen on one billboard structure. Its direction tells you which traffic sees it, so you can
            pick the side that faces your customers on their way to you.
          </p>
          <dl className="mt-8 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
            {FACE_TYPES.map((face) => (
              <div key={face.name} className="rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200">
                <dt className="text-lg font-semibold text-slate-900">{face.name}</dt>
                <dd className="mt-2 leading-relaxed text-slate-600">{face.text}</dd>
              </div>
            ))}
          </dl>
        </div>
      </section>

      <section aria-labelledby="locations-play-title" className="py-14 sm:py-16">
        <div className={`${container} grid gap-10 lg:grid-cols-2`}>
          <div>
            <h2 id="locations-play-title" className={sectionTitle}>
              How your ad plays
            </h2>
            <p className="mt-4 text-lg leading-relaxed text-slate-600">
              Digital faces rotate a short loop of ads from several advertisers. For each face you book, the ad shows
              Monday through Sunday, for the spot duration in seconds at the rotation frequency listed for that face.
            </p>
          </div>
          <div className="space-y-5">
            <div className="flex gap-4">
              <span aria-hidden="true" className="flex h-11 w-11 flex-none items-center justify-center rounded-lg bg-indigo-50 text-indigo-600">
                <ClockIcon />
              </span>
              <div>
                <p className="font-semibold text-slate-900">Spot duration</p>
                <p className="mt-1 leading-relaxed text-slate-600">
                  How long each showing lasts: about {TYPICAL_SPOT_SECONDS} seconds, enough for a headline, an image
                  and a short call to action.
                </p>
              </div>
            </div>
            <div className="flex gap-4">
              <span aria-hidden="true" className="flex h-11 w-11 flex-none items-center justify-center rounded-lg bg-indigo-50 text-indigo-600">
                <RotateIcon />
              </span>
              <div>
                <p className="font-semibold text-slate-900">Rotation frequency</p>
                <p className="mt-1 leading-relaxed text-slate-600">
                  How often your ad comes round in the loop, all day, every day of each booked week.
                </p>
              </div>
            </div>
            <div className="flex gap-4">
              <span aria-hidden="true" className="flex h-11 w-11 flex-none items-center justify-center rounded-lg bg-indigo-50 text-indigo-600">
                <CalendarIcon />
              </span>
              <div>
                <p className="font-semibold text-slate-900">Weeks, Monday to Sunday</p>
                <p className="mt-1 leading-relaxed text-slate-600">
                  Every booked week starts on a Monday and ends on a Sunday. Book by Wednesday to start the next
                  Monday.
                </p>
              </div>
            </div>
          </div>
        </div>
      </section>

      <section aria-labelledby="locations-details-title" className="bg-slate-50 py-14 sm:py-16">
        <div className={container}>
          <h2 id="locations-details-title" className={sectionTitle}>
            What you see for each face
          </h2>
          <ul className="mt-8 grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
            {FACE_DETAILS.map((detail) => (
              <li key={detail} className="rounded-xl bg-white px-5 py-4 text-slate-700 shadow-sm ring-1 ring-slate-200">
                {detail}
              </li>
            ))}
          </ul>
          <p className="mt-8 text-slate-600">
            Faces that are sold out for your dates cannot be selected. See{' '}
            <Link to="/cost" className={textLink}>
              how pricing works
            </Link>{' '}
            or{' '}
            <Link to="/media-owners" className={textLink}>
              list your own screens
            </Link>
            .
          </p>
        </div>
      </section>

      <SignUpCallout title="Find the faces near your customers" />
    </>
  )
}
