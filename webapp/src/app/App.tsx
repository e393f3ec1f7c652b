import { useState } from 'react'
import { Provider } from 'react-redux'
import { createBrowserRouter, RouterProvider } from 'react-router'
import { createRoutes } from './router/routes'
import { makeStore, type AppStore } from './store'

/** The providers: the Redux store and the router. */
export default function App({ store: given }: { store?: AppStore }) {
  const [store] = useState(() => given ?? makeStore())
  const [router] = useState(() => createBrowserRouter(createRoutes()))
  return (
    <Provider store={store}>
      <RouterProvider router={router} />
    </Provider>
  )
}
