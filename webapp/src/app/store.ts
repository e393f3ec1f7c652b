import { combineReducers, configureStore, createListenerMiddleware, isAnyOf } from '@reduxjs/toolkit'
import { api } from '../platform/api'
import { flashReducer, flashReducerPath } from '../platform/flash/flash'
import { sessionEnded, sessionReducer, sessionReducerPath, signedIn } from '../platform/session'

const rootReducer = combineReducers({
  [api.reducerPath]: api.reducer,
  [sessionReducerPath]: sessionReducer,
  [flashReducerPath]: flashReducer,
})

export type RootState = ReturnType<typeof rootReducer>

/** What a test may preload: the session and the flash messages (never the api cache). */
export type PreloadedState = Partial<Pick<RootState, 'session' | 'flash'>>

export function makeStore(preloadedState?: PreloadedState) {
  // Whoever signs in or out must not see the previous user's cached answers.
  const listener = createListenerMiddleware()
  listener.startListening({
    matcher: isAnyOf(signedIn, sessionEnded),
    effect: (_, listenerApi) => {
      listenerApi.dispatch(api.util.resetApiState())
    },
  })
  return configureStore({
    reducer: rootReducer,
    preloadedState: preloadedState as RootState | undefined,
    middleware: (getDefault) => getDefault().prepend(listener.middleware).concat(api.middleware),
  })
}

export type AppStore = ReturnType<typeof makeStore>
export type AppDispatch = AppStore['dispatch']
