import { useEffect, useRef } from 'react'
import { useSelector } from 'react-redux'
import { Outlet, ScrollRestoration, useLocation, useNavigate } from 'react-router'
import FlashHost from '../platform/flash/FlashHost'
import { usePageViews } from '../platform/pageviews'
import { selectSession } from '../platform/session'
import { useSessionBootstrap } from './SessionBootstrap'

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
      <a href="#main" className="sr-only focus:not-sr-only focus:fixed focus:top-2 focus:left-2 focus:z-[70] focus:rounded-lg focus:bg-white focus:px-4 focus:py-2 focus:shadow">
        Skip to content
      </a>
      <FlashHost />
      <Outlet />
      <ScrollRestoration />
    </>
  )
}
