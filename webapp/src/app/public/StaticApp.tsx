import { lazy, Suspense, useEffect, type ComponentType, type LazyExoticComponent } from 'react'
import { Outlet, Route, Routes, useLocation } from 'react-router'
import PublicLayout from '../layouts/PublicLayout'
import { usePageViews } from '../../platform/pageviews'
import SkipLink from '../SkipLink'

// The static public pages' own small app: a first visit to one of them downloads React,
// the router's declarative part, the public frame and that page, not Redux Toolkit, RTK Query, the
// data router or the signed-in frame. The server sends these pages prerendered
// (scripts/prerender.mjs) to a browser without a session, and src/public-main.tsx hydrates them.
// Any other path (login, register, the map, the signed-in screens) is a full page load, which gets
// the whole app.

interface StaticPage {
  /** The page's module as the build manifest names it: the prerender step preloads its chunk. */
  source: string
  load: () => Promise<{ default: ComponentType }>
  Page: LazyExoticComponent<ComponentType>
}

const page = (source: string, load: () => Promise<{ default: ComponentType }>): StaticPage => ({
  source: `src/features/public/pages/${source}.tsx`,
  load,
  Page: lazy(load),
})

/** The paths this app renders, each page its own chunk; the prerender step writes one HTML page for each. */
export const STATIC_PAGES: Record<string, StaticPage> = {
  '/': page('Landing', () => import('../../features/public/pages/Landing')),
  '/cost': page('Cost', () => import('../../features/public/pages/Cost')),
  '/how-it-works': page('HowItWorks', () => import('../../features/public/pages/HowItWorks')),
  '/media-owners': page('MediaOwners', () => import('../../features/public/pages/MediaOwners')),
  '/tos': page('Tos', () => import('../../features/public/pages/Tos')),
}

/** A link to a path this app does not have: load it from the server, which sends the whole app. */
function FullPageLoad() {
  const { pathname, search, hash } = useLocation()
  useEffect(() => {
    window.location.assign(pathname + search + hash)
  }, [pathname, search, hash])
  return null
}

/** The root: the skip link and page views (A §1), as the whole app's Root; a new page starts at the top. */
function StaticRoot() {
  usePageViews()
  const { pathname } = useLocation()
  useEffect(() => {
    window.scrollTo(0, 0) // a block: Chromium's scrollTo returns a promise, which is no effect cleanup
  }, [pathname])
  return (
    <>
      <SkipLink />
      <Outlet />
    </>
  )
}

/**
 * The routes, inside a BrowserRouter (the browser) or a StaticRouter (the prerender step). The
 * prerender step passes the pages loaded already, so the HTML holds the page itself (a lazy page
 * would be sent as a hidden part that needs a script); the browser hydrates the page when its chunk
 * arrives.
 */
export default function StaticApp({ loaded }: { loaded?: Record<string, ComponentType> }) {
  return (
    <Routes>
      <Route element={<StaticRoot />}>
        <Route element={<PublicLayout />}>
          {Object.entries(STATIC_PAGES).map(([path, { Page: LazyPage }]) => {
            const Page = loaded?.[path] ?? LazyPage
            return (
            <Route
              key={path}
              path={path}
              element={
                <Suspense fallback={null}>
                  <Page />
                </Suspense>
              }
            />
            )
          })}
        </Route>
        <Route path="*" element={<FullPageLoad />} />
      </Route>
    </Routes>
  )
}
