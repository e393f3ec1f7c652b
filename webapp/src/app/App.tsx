import { useState } from 'react'
import { Provider } from 'react-redux'
import { createBrowserRouter, RouterProvider } from 'react-router'
import { createRoutes } from './router/routes'
import { makeStore, type AppStore } from './store'

type Router = ReturnType<typeof createBrowserRouter>

/** The providers: the Redux store and the router. */
export default function App({ store: given, router: givenRouter }: { store?: AppStore; router?: Router }) {
  const [store] = useState(() => given ?? makeStore())
  const [router] = useState(() => givenRouter ?? createBrowserRouter(createRoutes()))
  return (
    <Provider store={store}>
      <RouterProvider router={router} />
    </Provider>
  )
}
