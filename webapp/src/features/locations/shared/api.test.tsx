import { renderHook, waitFor } from '@testing-library/react'
import type { ReactNode } from 'react'
import { Provider } from 'react-redux'
import { describe, expect, it } from 'vitest'
import { makeStore } from '../../../app/store'
import { mockFetch } from '../../../test/fetch'
import { BAY_AREA, CHICAGO } from '../../../test/faces'
import { quietStart, useMarketsQuery } from './api'

/** Renders a page's read of the markets' query with the real store and RTK Query; counts its renders. */
function readMarkets(options: { selectFromResult?: typeof quietStart }) {
  mockFetch({ 'GET /api/markets/': { body: [BAY_AREA, CHICAGO] } })
  const store = makeStore()
  const wrapper = ({ children }: { children: ReactNode }) => <Provider store={store}>{children}</Provider>
  let renders = 0
  const hook = renderHook(
    () => {
      renders++
      return useMarketsQuery(undefined, options)
    },
    { wrapper },
  )
  return { ...hook, renders: () => renders }
}

describe('quietStart (issue 30, Total Blocking Time)', () => {
  it('reads a query as fetching from its first render, and its start renders nothing: one render before the answer, one with it', async () => {
    const { result, renders } = readMarkets({ selectFromResult: quietStart })
    // As RTK Query's own useQuery reads a query that has not started: a prerendered page's spinner.
    expect(result.current).toMatchObject({ data: undefined, isFetching: true, isSuccess: false, isError: false })
    await waitFor(() => expect(result.current.data).toEqual([BAY_AREA, CHICAGO]))
    expect(result.current).toMatchObject({ isFetching: false, isSuccess: true })
    expect(renders()).toBe(2)
  })

  it('where the whole result is read, the start renders once more (what quietStart saves)', async () => {
    const { result, renders } = readMarkets({})
    await waitFor(() => expect(result.current.data).toEqual([BAY_AREA, CHICAGO]))
    expect(renders()).toBe(3)
  })
})
