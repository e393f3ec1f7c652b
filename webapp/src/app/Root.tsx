import { useEffect, useRef } from 'react'
import { useSelector } from 'react-redux'
import { Outlet, ScrollRestoration, useLocation, useNavigate } from 'react-router'
import FlashHost from '../platform/flash/FlashHost'
import { usePageViews } from '../platform/pageviews'
import { selectSession } from '../platform/session'
import { useSessionBootstrap } from './SessionBootstrap'
import SkipLink from './SkipLink'

/** After the session check finds the session gone (B §4), the user goes to /login. */
function useSessionExpiryRedirect() {
  const { expiries } = useSelector(selectSession)
  const seen = useRef(expiries)
  const navigate = useNavigate()
  const { pathname } = useLocation()
  useEffect(() => {
    if (expiries === seen.current) return
    seen.current = expiries
    if (pathname !== '/login') void navigate('/login', { replace: true })
  }, [expiries, navigate, pathname])
}

/** The root of every route: session start, flash messages, page views, scroll restoration. */
export default function Root() {
  useSessionBootstrap()
  usePageViews()
  useSessionExpiryRedirect()
  return (
    <>
      <SkipLink />
      <FlashHost />
      <Outlet />
      <ScrollRestoration />
    </>
  )
}
