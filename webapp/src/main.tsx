import './styles'
import { startTransition, StrictMode } from 'react'
import { createRoot, hydrateRoot } from 'react-dom/client'
import { createBrowserRouter, matchRoutes } from 'react-router'
import App from './app/App'
import { createRoutes, type RouteHandle } from './app/router/routes'
import { makeStore } from './app/store'
import { initialSessionState } from './platform/session'
import { rememberTypedInputs } from './platform/inputs/typedBeforeHydration'

const root = document.getElementById('root')!

if (root.firstElementChild) {
  // A page the server sent prerendered (login, register, forgot password: scripts/prerender.mjs).
  // It sends those only to a browser without a session cookie, so the session is known to be
  // anonymous; the lazy screens of the matched routes load before hydration, so the first render
  // is the server's HTML.
  const routes = createRoutes()
  const matches = matchRoutes(routes, window.location) ?? []
  await Promise.all(
    matches.map(async ({ route }) => {
      if (typeof route.lazy !== 'function') return
      const loaded = await route.lazy()
      Object.assign(route, { ...loaded, lazy: undefined })
    }),
  )
  const store = makeStore({ session: { ...initialSessionState, status: 'anonymous' } })
  // The screen's first requests go now, not from the hydration's effects (/locations: its faces).
  // Only here, where the visitor is known to be anonymous: with a session the app may leave a
  // public page before it renders.
  for (const { route } of matches) (route.handle as RouteHandle | undefined)?.prefetch?.()
  rememberTypedInputs(root)
  // In a transition, React hydrates in slices and the page answers input between them, instead of
  // in one long task (/locations' Total Blocking Time); the HTML is already on screen.
  startTransition(() => {
    hydrateRoot(
      root,
      <StrictMode>
        <App store={store} router={createBrowserRouter(routes)} />
      </StrictMode>,
    )
  })
} else {
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  )
}
