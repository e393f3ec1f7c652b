import { render } from '@testing-library/react'
import { Provider } from 'react-redux'
import { createMemoryRouter, RouterProvider } from 'react-router'
import { createRoutes } from '../app/router/routes'
import { makeStore, type PreloadedState } from '../app/store'

/** Renders the real route table at `path` with a store holding the given state. */
export function renderApp(path: string, preloadedState?: PreloadedState) {
  const store = makeStore(preloadedState)
  const router = createMemoryRouter(createRoutes(), { initialEntries: [path] })
  const view = render(
    <Provider store={store}>
      <RouterProvider router={router} />
    </Provider>,
  )
  return { ...view, store, router }
}
