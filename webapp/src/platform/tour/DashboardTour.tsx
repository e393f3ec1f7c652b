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
  const [running, setRunning] = useState(false)
  const [tourDone] = useTourDoneMutation()
  const given = useRef(false)

  useEffect(() => {
    if (params.get('tour') !== 'true') return
    const next = new URLSearchParams(params)
    next.delete('tour')
    setParams(next, { replace: true })
    setRunning(true)
  }, [params, setParams])

  useEffect(() => {
    if (!user?.tourCampaignShow || given.current) return
    given.current = true
    void tourDone()
    setRunning(true)
  }, [user?.tourCampaignShow, tourDone])

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
