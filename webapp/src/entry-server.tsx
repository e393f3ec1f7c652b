// The prerender step's renderer (scripts/prerender.mjs, built with `vite build --ssr`): the public
// pages as HTML at build time, so the first paint needs no JavaScript. The static pages
// render with their own small app (app/public/routes.tsx); login, register and forgot password with
// the whole app, for an anonymous visitor.
import { StrictMode, type ReactNode } from 'react'
import { renderToString } from 'react-dom/server'
import { Provider } from 'react-redux'
import { createStaticHandler, createStaticRouter, StaticRouter, StaticRouterProvider, type RouteObject } from 'react-router'
import StaticApp, { STATIC_PAGES } from './app/public/StaticApp'
import { createRoutes, type RouteHandle } from './app/router/routes'
import { makeStore } from './app/store'
import { earlyFetches } from './platform/http'
import { initialSessionState } from './platform/session'

/** The static pages by path, with the module the prerender step preloads for each. */
export const STATIC_PATHS = Object.fromEntries(Object.entries(STATIC_PAGES).map(([path, { source }]) => [path, source]))

/** Pages of the whole app that are the same for every anonymous visitor. */
export const APP_PATHS = ['/login', '/register', '/forgot-password', '/locations'] as const

/** The module of a page of APP_PATHS that the prerender step preloads beside the whole app. */
export const APP_PAGE_SOURCES: Partial<Record<(typeof APP_PATHS)[number], string>> = {
  '/locations': 'src/features/locations/routes/LocationsPage.tsx',
}

/** A page of the whole app as HTML, and the GETs its HTML starts (its routes' first requests). */
export interface RenderedAppPage {
  html: string
  firstFetches: [string, RequestInit][]
}

async function render(routes: RouteObject[], path: string, wrap: (node: ReactNode) => ReactNode): Promise<RenderedAppPage> {
  const handler = createStaticHandler(routes)
  const context = await handler.query(new Request('http://marquee.local' + path))
  if (context instanceof Response) throw new Error(`${path}: the router answered ${context.status}`)
  const router = createStaticRouter(handler.dataRoutes, context)
  const html = renderToString(<StrictMode>{wrap(<StaticRouterProvider router={router} context={context} hydrate />)}</StrictMode>)
  const firstRequests = context.matches.flatMap(({ route }) => (route.handle as RouteHandle | undefined)?.firstRequests ?? [])
  return { html, firstFetches: earlyFetches(firstRequests) }
}

/** A static public page, for src/public-main.tsx to hydrate. */
export async function renderStatic(path: string): Promise<string> {
  const page = STATIC_PAGES[path]
  if (!page) throw new Error(`${path} is not a static page`)
  const loaded = { [path]: (await page.load()).default }
  return renderToString(
    <StrictMode>
      <StaticRouter location={path}>
        <StaticApp loaded={loaded} />
      </StaticRouter>
    </StrictMode>,
  )
}

/** A page of the whole app as an anonymous visitor sees it, for src/main.tsx to hydrate. */
export function renderApp(path: string): Promise<RenderedAppPage> {
  const store = makeStore({ session: { ...initialSessionState, status: 'anonymous' } })
  return render(createRoutes(), path, (node) => <Provider store={store}>{node}</Provider>)
}
