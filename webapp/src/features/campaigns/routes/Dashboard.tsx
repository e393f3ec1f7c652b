import { useEffect, useRef, useState } from 'react'
import { useDispatch, useSelector } from 'react-redux'
import { Link, useSearchParams } from 'react-router'
import type { Count } from '../../../platform/api-types/campaigns'
import { formatCount } from '../../../platform/money'
import { selectUser } from '../../../platform/session'
import DashboardTour from '../../../platform/tour/DashboardTour'
import { api } from '../../../platform/api'
import type { Content } from '../../../platform/api-types/creatives'
import type { Page } from '../../../platform/api-types/pagination'
import Modal from '../../../platform/Modal'
import Spinner from '../../../platform/Spinner'
import Confirm from '../../../platform/Confirm'
import { flashShown } from '../../../platform/flash/flash'
import { isApiError, errorMessage } from '../../../platform/http'
import { MsgTourCallDeclined } from '../../../platform/api-types/identity'
import { useCheckTutorialMutation, useRequestTourCallMutation } from '../../../platform/tour/api'
import { useCampaignCountQuery } from '../api'
import DashboardPacing from '../pacing/DashboardPacing'

/** A §2: the counts the dashboard shows, in this order. */
export const COUNT_TILES: { key: keyof Count; label: string; status?: string }[] = [
  { key: 'pending', label: 'Pending', status: 'pending' },
  { key: 'active', label: 'Active', status: 'active' },
  { key: 'completed', label: 'Completed', status: 'completed' },
  { key: 'paused', label: 'Paused', status: 'paused' },
  { key: 'total', label: 'Total' },
]

/**
 * A §2 /dashboard: the campaign counts (pending, active, completed, paused, total) and the tutorial
 * video modal, which shows by itself once (GET /users/check-tutorial records that it has). While a
 * tour is due (?tour=true, or the user's tour flag) the tour goes first and the video waits.
 */
export default function Dashboard() {
  const user = useSelector(selectUser)
  const name = user?.local?.first_name?.trim()
  const counts = useCampaignCountQuery()
  const [params] = useSearchParams()
  const [videoOpen, setVideoOpen] = useState(false)
  const [checkTutorial] = useCheckTutorialMutation()
  const dispatch = useDispatch()
  const [offerCall, setOfferCall] = useState(false)
  const [requestCall, calling] = useRequestTourCallMutation()
  const answerCall = async (yes: boolean) => {
    if (!yes) {
      setOfferCall(false)
      dispatch(flashShown(MsgTourCallDeclined, 'info'))
      return
    }
    try {
      const answer = await requestCall().unwrap()
      dispatch(flashShown(answer.message, 'success'))
    } catch (error) {
      // Without a phone number the server says where to add one.
      dispatch(flashShown(isApiError(error) && error.errors.phone ? error.errors.phone : errorMessage(error), 'danger'))
    } finally {
      setOfferCall(false)
    }
  }
  const checked = useRef(false)

  // Read once per visit: starting the tour turns the user's flag off at once, and the video must
  // still wait for a later visit rather than open over the running tour.
  const [tourDue] = useState(() => params.get('tour') === 'true' || !!user?.tourCampaignShow)
  useEffect(() => {
    if (checked.current || !user || tourDue || user.tutorialCampaignShowed) return
    checked.current = true
    checkTutorial()
      .unwrap()
      .then((answer) => {
        if (!answer.tutorialCampaignShowed) setVideoOpen(true)
      })
      .catch(() => undefined)
  }, [user, tourDue, checkTutorial])

  const total = counts.data?.total ?? 0

  return (
    <div className="space-y-8">
      <DashboardTour />
      <div className="flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
        <div>
          <h1 className="text-2xl font-semibold text-slate-900 sm:text-3xl">{name ? `Welcome, ${name}` : 'Welcome to Marquee'}</h1>
          <p className="mt-1 text-slate-600">{user?.company?.name ? `${user.company.name} · ` : ''}Your billboard campaigns at a glance.</p>
        </div>
        <div className="flex flex-wrap gap-2 self-start sm:self-auto">
          <button type="button" className="btn-secondary" onClick={() => setVideoOpen(true)}>
            Watch the tutorial
          </button>
          <button type="button" className="btn-secondary" onClick={() => setOfferCall(true)}>
            Free dashboard tour
          </button>
          <Link to="/campaigns/new" className="btn-primary" data-tour="dashboard-new-campaign">
            New campaign
          </Link>
        </div>
      </div>

      <section aria-labelledby="campaign-counts" data-tour="dashboard-counts">
        <h2 id="campaign-counts" className="sr-only">
          Your campaigns
        </h2>
        {counts.isError && <p className="mb-3 text-sm text-slate-600">We could not load your campaign counts. Please try again later.</p>}
        <ul className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-5">
          {COUNT_TILES.map((tile) => {
            const value = counts.data ? formatCount(counts.data[tile.key]) : '—'
            const to = tile.status ? `/campaigns?status=${tile.status}` : '/campaigns'
            return (
              <li key={tile.key} className={tile.key === 'total' ? 'col-span-2 sm:col-span-1' : undefined}>
                <Link to={to} className="card block px-5 py-4 transition-shadow hover:shadow-md">
                  <span className="block text-sm font-medium text-slate-600">
                    {tile.label}
                    <span className="sr-only"> campaigns:</span>
                  </span>
                  <span className="mt-1 block text-3xl font-semibold text-slate-900 tabular-nums" data-testid={`count-${tile.key}`}>
                    {value}
                  </span>
                </Link>
              </li>
            )
          })}
        </ul>
      </section>

      <DashboardPacing />

      {counts.data && total === 0 && (
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
          <p className="mt-2 max-w-md text-slate-600">Once you create a campaign, you can follow it week by week: its billboards, impressions and proofs.</p>
          <Link to="/campaigns/new" className="btn-primary mt-6 px-6 py-3 text-base">
            Create your first campaign
          </Link>
        </section>
      )}

      <section aria-labelledby="next-steps" className="grid gap-4 md:grid-cols-3">
        <h2 id="next-steps" className="sr-only">
          Getting started
        </h2>
        {[
          { title: 'Your campaigns', text: 'Search, filter and open each campaign to see its chart, weeks and proofs.', to: '/campaigns' },
          { title: 'Prepare your ad', text: 'Upload a creative or build one with the Ad Design Tool under Creatives.', to: '/creatives' },
          { title: 'Questions?', text: 'Read how pricing, dates and proofs of play work before you book.', to: '/faq' },
        ].map((card) => (
          <Link key={card.title} to={card.to} className="card block p-5 transition-shadow hover:shadow-md">
            <h3 className="font-semibold text-slate-900">{card.title}</h3>
            <p className="mt-1 text-sm text-slate-600">{card.text}</p>
          </Link>
        ))}
      </section>

      <TutorialVideoModal open={videoOpen} onClose={() => setVideoOpen(false)} />
      {/* B §8: the default confirm, offering a call for a free dashboard tour. */}
      <Confirm open={offerCall} busy={calling.isLoading} onConfirm={() => void answerCall(true)} onCancel={() => void answerCall(false)} />
    </div>
  )
}

// The tutorial video comes from the content library (A §2 content): the item an admin marked
// relevant (A §5: one at a time) when it is a video or a YouTube link, otherwise the first video
// tagged GUIDE or TUTORIAL. The content list answers the relevant item first.
const tutorialApi = api.injectEndpoints({
  endpoints: (build) => ({
    tutorialContent: build.query<Page<Content>, void>({
      query: () => ({ url: '/api/contents/', params: { page: 1, page_size: 50 } }),
      keepUnusedDataFor: 600,
    }),
  }),
})

const isVideo = (c: Content) => (c.type === 'video' && !!c.awsUrl) || (c.type === 'youtube' && !!c.youtube)
const TUTORIAL_TAGS = ['GUIDE', 'TUTORIAL']

/** The tutorial video among these content items, or null. */
export function tutorialVideo(items: readonly Content[] | undefined): Content | null {
  const videos = (items ?? []).filter(isVideo)
  return videos.find((c) => c.relevant) ?? videos.find((c) => c.tags?.some((t) => TUTORIAL_TAGS.includes(t.toUpperCase()))) ?? null
}

const GUIDE = [
  ['Pick billboards', 'Choose a market or a place and a radius, then check the faces you want on the map. Each shows its weekly price.'],
  ['Schedule', 'Campaigns run Monday to Sunday: one week, until an end date, or ongoing.'],
  ['Add your ad', 'Upload a creative, pick one from your library, or ask us to build it.'],
  ['Follow it', 'Each campaign page shows its billboards, weekly impressions against the estimate, and photos of your ad on screen.'],
] as const

/** A §2: the tutorial video modal. Without a video it walks through the same four steps in text. */
function TutorialVideoModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const content = tutorialApi.useTutorialContentQuery(undefined, { skip: !open })
  const video = tutorialVideo(content.data?.items)
  return (
    <Modal open={open} title="How Marquee works" onClose={onClose} size="lg" footer={<button type="button" className="btn-primary" onClick={onClose}>Got it</button>}>
      {content.isFetching && !content.data ? (
        <div className="flex justify-center py-12">
          <Spinner label="Loading the tutorial" />
        </div>
      ) : video?.type === 'youtube' ? (
        <div className="aspect-video w-full overflow-hidden rounded-lg bg-black">
          <iframe
            src={`https://www.youtube-nocookie.com/embed/${encodeURIComponent(video.youtube)}`}
            title={`Tutorial video: ${video.name}`}
            className="h-full w-full"
            allow="accelerometer; encrypted-media; gyroscope; picture-in-picture"
            allowFullScreen
          />
        </div>
      ) : video ? (
        <video src={video.awsUrl} controls className="max-h-[60vh] w-full rounded-lg bg-black" aria-label={`Tutorial video: ${video.name}`}>
          <track kind="captions" />
        </video>
      ) : (
        <ol className="space-y-3">
          {GUIDE.map(([title, text], i) => (
            <li key={title} className="flex gap-3">
              <span aria-hidden="true" className="flex h-7 w-7 shrink-0 items-center justify-center rounded-full bg-brand-50 text-sm font-semibold text-brand-700">
                {i + 1}
              </span>
              <span>
                <span className="block font-medium text-slate-900">{title}</span>
                <span className="block text-sm text-slate-600">{text}</span>
              </span>
            </li>
          ))}
        </ol>
      )}
    </Modal>
  )
}
