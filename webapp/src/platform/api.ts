import { createApi, type BaseQueryFn } from '@reduxjs/toolkit/query/react'
import { flashShown } from './flash/flash'
import { send, type ApiError, type RequestArgs } from './http'
import { callCompleted } from './sessionWatch'

export interface ApiExtraOptions {
  /** Do not raise a flash for a server or network failure (the caller reports it itself). */
  silent?: boolean
}

/**
 * The one base query (STYLE.md "One RTK Query api"): relative URLs, the session cookie, the CSRF
 * and no-cache headers, the error envelope unwrapped into ApiError, and the 15-minute session
 * check re-armed after every completed call. A failure the user cannot fix (network, 5xx) raises
 * a flash; 4xx answers belong to the screen that made the call.
 */
export const baseQuery: BaseQueryFn<string | RequestArgs, unknown, ApiError, ApiExtraOptions> = async (
  arg,
  { dispatch, getState },
  extraOptions,
) => {
  const result = await send<unknown>(typeof arg === 'string' ? { url: arg } : arg)
  callCompleted(dispatch, getState, result)
  if (result.error && (result.error.status === 0 || result.error.status >= 500) && !extraOptions?.silent) {
    dispatch(flashShown(result.error.message, 'danger'))
  }
  return result.error ? { error: result.error } : { data: result.data }
}

/** Every feature adds its calls with `api.injectEndpoints` in its own api.ts. */
export const api = createApi({
  reducerPath: 'api',
  baseQuery,
  endpoints: () => ({}),
})
