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
 * after login while the user's tour flag is on: a new user (sign_in_count 0) has it on, and starting
 * turns it off (GET /users/disable-tour), so the tour is given once. Its end continues on
 * /campaigns/new; closing it early asks first (GuidedTour's tour-cancel modal).
 */
export default function DashboardTour() {
  const user = useSelector(selectUser)
  const [params, setParams] = useSearchParams()
  const navigate = useNavigate()
  const asked = params.get('tour') === 'true'
  const [running, setRunning] = useState(() => asked || !!user?.tourCampaignShow)
  const [tourDone] = useTourDoneMutation()
  const given = useRef(false)

  // ?tour=true starts the tour (state adjusted while rendering); the effect removes the parameter.
  if (asked && !running) setRunning(true)
  useEffect(() => {
    if (!asked) return
    const next = new URLSearchParams(params)
    next.delete('tour')
    setParams(next, { replace: true })
  }, [asked, params, setParams])

  // The user's flag started the tour at mount; the server is told once that it was given.
  const flagged = !!user?.tourCampaignShow
  const [flagSeen, setFlagSeen] = useState(flagged)
  if (flagged && !flagSeen) {
    setFlagSeen(true)
    setRunning(true)
  }
  useEffect(() => {
    if (!flagged || given.current) return
    given.current = true
    void tourDone()
  }, [flagged, tourDone])

  return (
    <GuidedTour
      steps={DASHBOARD_TOUR}
      running={running}
      onEnd={(how) => {
        setRunning(false)
        if (how === 'finished') navigate(NEW_CAMPAIGN_TOUR_PATH)
      }}
    />
  )
}
