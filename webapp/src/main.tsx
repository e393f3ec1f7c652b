import './styles'
import type { RouteHandle } from './app/router/routes'

// The entry imports the app's parts itself instead of statically: a static import graph is
// evaluated in one task before the first line here runs, for React, the router, Redux Toolkit and
// the app 220 to 330 ms in a trace at a phone's speed (4x CPU), the longest task of /locations
// (issue 30, Total Blocking Time). Imported one at a time with a yield between them, each part is evaluated
// in a task of its own, and the page answers input between them. Their chunks are fetched
// together beforehand: the prerendered pages preload them (scripts/prerender.mjs), and index.html
// too (preloadStartChunks in vite.config.ts), so the imports one after the other wait for no
// network. The entry holds none of the code the rest imports (no JSX here: React's JSX runtime;
// the preload helper in a chunk of its own, vite.config.ts), or every chunk would import the entry
// and the stylesheet it owns, which the prerendered pages inline, would be fetched again.

const root = document.getElementById('root')!

/** Ends the current task: scheduler.yield where the browser has it, else a timer. */
function nextTask(): Promise<void> {
  const scheduler = (globalThis as { scheduler?: { yield?: () => Promise<void> } }).scheduler
  return scheduler?.yield ? scheduler.yield() : new Promise((resolve) => setTimeout(resolve, 0))
}

/** Imports a module, then yields: what comes next runs in a task of its own. */
async function step<T>(load: () => Promise<T>): Promise<T> {
  const loaded = await load()
  await nextTask()
  return loaded
}

async function hydratePrerendered() {
  // A page the server sent prerendered (the public pages of the whole app: scripts/prerender.mjs).
  // It sends those only to a browser without a session cookie, so the session is known to be
  // anonymous; the lazy screens of the matched routes load before hydration, so the first render
  // is the server's HTML.
  const { hydrateRoot } = await step(() => import('react-dom/client'))
  const { createBrowserRouter, matchRoutes } = await step(() => import('./app/router/browserRouter'))
  const { makeStore } = await step(() => import('./app/store'))
  const { createRoutes, patchSignedInRoutes } = await step(() => import('./app/router/routes'))
  const { default: App } = await step(() => import('./app/App'))
  const [{ initialSessionState }, { rememberTypedInputs }, { createElement, startTransition, StrictMode }, { sendEarly }] = await Promise.all([
    import('./platform/session'),
    import('./platform/inputs/typedBeforeHydration'),
    import('react'),
    import('./platform/http'),
  ])
  // The public routes only: the signed-in screens' are added on the first navigation to one.
  const routes = createRoutes({ publicOnly: true })
  const matches = matchRoutes(routes, window.location) ?? []
  await Promise.all(
    matches.map(async ({ route }) => {
      if (typeof route.lazy !== 'function') return
      const loaded = await route.lazy()
      Object.assign(route, { ...loaded, lazy: undefined })
    }),
  )
  await nextTask()
  const store = makeStore({ session: { ...initialSessionState, status: 'anonymous' } })
  // The screen's first requests, if the page's HTML has not started them, and its code go now,
  // not from the hydration's effects (/locations: its faces, the map). Only here, where the visitor
  // is known to be anonymous: with a session the app may leave a public page before it renders.
  for (const { route } of matches) {
    const handle = route.handle as RouteHandle | undefined
    handle?.firstRequests?.forEach(sendEarly)
    handle?.prefetch?.()
  }
  // The router in a task of its own: it ranks every route of its tree (with the whole table about
  // 10 ms of CPU on this project's 2-core hosts), a long task together with the store on a phone
  // (issue 30).
  await nextTask()
  const router = createBrowserRouter(routes, { patchRoutesOnNavigation: patchSignedInRoutes })
  await nextTask()
  rememberTypedInputs(root)
  // In a transition, React hydrates in slices and the page answers input between them, instead of
  // in one long task (/locations' Total Blocking Time); the HTML is already on screen.
  startTransition(() => {
    hydrateRoot(root, createElement(StrictMode, null, createElement(App, { store, router })))
  })
}

async function renderApp() {
  // Every other page: the app renders itself (a signed-in visitor's, or one not prerendered).
  const [{ createRoot }, { default: App }, { createElement, StrictMode }] = await Promise.all([
    import('react-dom/client'),
    import('./app/App'),
    import('react'),
  ])
  createRoot(root).render(createElement(StrictMode, null, createElement(App)))
}

void (root.firstElementChild ? hydratePrerendered() : renderApp())
