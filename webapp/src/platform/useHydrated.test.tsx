import { renderHook, waitFor } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { useMountedInTransition } from './useHydrated'

describe('useMountedInTransition', () => {
  it('is false on the first render (what the prerendered page has), then true once it has committed', async () => {
    const seen: boolean[] = []
    renderHook(() => {
      const mounted = useMountedInTransition()
      seen.push(mounted)
      return mounted
    })
    await waitFor(() => expect(seen.at(-1)).toBe(true))
    expect(seen[0]).toBe(false)
  })
})
