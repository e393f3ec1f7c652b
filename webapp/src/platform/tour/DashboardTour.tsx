import { useEffect, useRef, useState } from 'react'
import { useSelector } from 'react-redux'
import { useNavigate, useSearchParams } from 'react-router'
import { selectUser } from '../session'
import { useTourDoneMutation } from './api'
import GuidedTour from './GuidedTour'
import { DASHBOARD_TOUR } from './steps'

/** Where the dashboard tour continues (B §4). */
export const NEW_CAMPAIGN_TOUR_PATH = '/campaigns/new?tour=true'

/**
 * The dashboard tour (A §2, §4; B §2, §4). It starts with ?tour=true (the parameter is removed), or
 * is offered after login while the user's tour flag is on (a new user, sign_in_count 0, has it on:
 * once, since answering the offer turns the flag off). Its end continues on /campaigns/new.
 * The offer is a card at the top of the dashboard, not a modal: it never stands in the way.
 */
export default function DashboardTour() {
  const user = useSelector(selectUser)
  const [params, setParams] = useSearchParams()
  const navigate = useNavigate()
  const [running, setRunning] = useState(false)
  const [offered, setOffered] = useState(false)
  const [tourDone] = useTourDoneMutation()
  const answered = useRef(false)

  useEffect(() => {
    if (params.get('tour') !== 'true') return
    const next = new URLSearchParams(params)
    next.delete('tour')
    setParams(next, { replace: true })
    setRunning(true)
  }, [params, setParams])

  useEffect(() => {
    if (user?.tourCampaignShow && !answered.current && !running) setOffered(true)
  }, [user?.tourCampaignShow, running])

  const answer = (take: boolean) => {
    answered.current = true
    setOffered(false)
    void tourDone()
    if (take) setRunning(true)
  }

  return (
    <>
      {offered && !running && (
        <section aria-labelledby="tour-offer-title" className="flex flex-col gap-3 rounded-xl bg-brand-50 p-4 ring-1 ring-brand-100 sm:flex-row sm:items-center sm:justify-between">
          <div>
            <h2 id="tour-offer-title" className="font-semibold text-slate-900">
              New here? Take the tour
            </h2>
            <p className="mt-1 text-sm text-slate-600">Two minutes to see the dashboard and plan your first campaign step by step.</p>
          </div>
          <div className="flex shrink-0 gap-2">
            <button type="button" className="btn-primary" onClick={() => answer(true)}>
              Start the tour
            </button>
            <button type="button" className="btn-secondary" onClick={() => answer(false)}>
              No thanks
            </button>
          </div>
        </section>
      )}
      <GuidedTour
        steps={DASHBOARD_TOUR}
        running={running}
        onEnd={(how) => {
          setRunning(false)
          if (how === 'finished') navigate(NEW_CAMPAIGN_TOUR_PATH)
        }}
      />
    </>
  )
}
