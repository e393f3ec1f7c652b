import { act, render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { Provider } from 'react-redux'
import { createMemoryRouter, Link, Outlet, RouterProvider } from 'react-router'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { makeStore } from '../../app/store'
import {
  carryFlash,
  flash,
  FLASH_DEFAULT_MS,
  FLASH_LONG_MS,
  FLASH_MEDIUM_MS,
  FLASH_SHORT_MS,
  flashDismissed,
  flashesCleared,
  flashReducer,
  flashShown,
  takeCarriedFlashes,
} from './flash'
import FlashHost from './FlashHost'

describe('flash durations (A §9, B §9)', () => {
  it('are the spec values', () => {
    expect(FLASH_DEFAULT_MS).toBe(7500)
    expect(FLASH_SHORT_MS).toBe(3000)
    expect(FLASH_MEDIUM_MS).toBe(5000)
    expect(FLASH_LONG_MS).toBe(600000)
  })
})

describe('flash store', () => {
  const empty = { messages: [] }

  it('adds a message with the default duration and type', () => {
    const state = flashReducer(empty, flashShown('Saved'))
    expect(state.messages).toEqual([{ id: expect.any(String), text: 'Saved', type: 'success', duration: 7500 }])
  })

  it('keeps several messages in order and removes one by id', () => {
    let state = flashReducer(empty, flashShown('One', 'info', FLASH_SHORT_MS))
    state = flashReducer(state, flashShown('Two', 'danger', null))
    expect(state.messages.map((m) => [m.text, m.type, m.duration])).toEqual([
      ['One', 'info', 3000],
      ['Two', 'danger', null],
    ])
    state = flashReducer(state, flashDismissed(state.messages[0]!.id))
    expect(state.messages.map((m) => m.text)).toEqual(['Two'])
    expect(flashReducer(state, flashesCleared()).messages).toEqual([])
  })

  it('shows the same message once, restarted', () => {
    let state = flashReducer(empty, flashShown('Expired', 'danger'))
    const first = state.messages[0]!.id
    state = flashReducer(state, flashShown('Expired', 'danger'))
    expect(state.messages).toHaveLength(1)
    expect(state.messages[0]!.id).not.toBe(first)
  })

  it('flash() gives the action to show now, or carries the message', () => {
    expect(flash('Now', 'info', { duration: FLASH_MEDIUM_MS })).toMatchObject({ payload: { text: 'Now', type: 'info', duration: 5000 } })
    expect(flash('Later', 'success', { nextPage: true }).type).toBe('flash/carried')
    expect(takeCarriedFlashes()).toEqual([{ text: 'Later', type: 'success', duration: 7500 }])
  })

  it('hands carried messages out once', () => {
    carryFlash('A', 'success')
    carryFlash('B', 'danger', FLASH_LONG_MS)
    expect(takeCarriedFlashes().map((c) => c.text)).toEqual(['A', 'B'])
    expect(takeCarriedFlashes()).toEqual([])
  })

  it('ignores a damaged carried value', () => {
    window.sessionStorage.setItem('marquee.flash.next', '{not json')
    expect(takeCarriedFlashes()).toEqual([])
  })
})

describe('FlashHost', () => {
  afterEach(() => {
    vi.useRealTimers()
  })

  function setup() {
    const store = makeStore()
    const router = createMemoryRouter(
      [
        {
          path: '/',
          element: (
            <>
              <FlashHost />
              <Outlet />
            </>
          ),
          children: [
            { index: true, element: <Link to="/next">Next page</Link> },
            { path: 'next', element: <Link to="/">Back</Link> },
          ],
        },
      ],
      { initialEntries: ['/'] },
    )
    render(
      <Provider store={store}>
        <RouterProvider router={router} />
      </Provider>,
    )
    return store
  }

  it('announces messages, danger as an alert, in a live region', async () => {
    const store = setup()
    act(() => {
      store.dispatch(flashShown('Welcome', 'success'))
      store.dispatch(flashShown('Broken', 'danger'))
    })
    expect(screen.getByRole('status')).toHaveTextContent('Welcome')
    expect(screen.getByRole('alert')).toHaveTextContent('Broken')
    expect(screen.getByRole('alert').parentElement).toHaveAttribute('aria-live', 'polite')
  })

  it('removes a message after its duration', () => {
    vi.useFakeTimers()
    const store = setup()
    act(() => {
      store.dispatch(flashShown('Short', 'info', FLASH_SHORT_MS))
      store.dispatch(flashShown('Default', 'success'))
      store.dispatch(flashShown('Stays', 'danger', null))
    })
    act(() => vi.advanceTimersByTime(2999))
    expect(screen.getByText('Short')).toBeInTheDocument()
    act(() => vi.advanceTimersByTime(1))
    expect(screen.queryByText('Short')).not.toBeInTheDocument()
    act(() => vi.advanceTimersByTime(7500 - 3000 - 1))
    expect(screen.getByText('Default')).toBeInTheDocument()
    act(() => vi.advanceTimersByTime(1))
    expect(screen.queryByText('Default')).not.toBeInTheDocument()
    act(() => vi.advanceTimersByTime(FLASH_LONG_MS))
    expect(screen.getByText('Stays')).toBeInTheDocument()
  })

  it('can be dismissed', async () => {
    const store = setup()
    act(() => {
      store.dispatch(flashShown('Bye', 'success'))
    })
    await userEvent.click(screen.getByRole('button', { name: 'Dismiss message' }))
    expect(screen.queryByText('Bye')).not.toBeInTheDocument()
  })

  it('shows a carried message on the next page, once', async () => {
    setup()
    carryFlash('Your campaign was successfully created and is pending approval', 'success')
    expect(screen.queryByText(/pending approval/)).not.toBeInTheDocument()
    await userEvent.click(screen.getByRole('link', { name: 'Next page' }))
    expect(await screen.findByText(/pending approval/)).toBeInTheDocument()
    expect(window.sessionStorage.getItem('marquee.flash.next')).toBeNull()
    await userEvent.click(screen.getByRole('button', { name: 'Dismiss message' }))
    await userEvent.click(screen.getByRole('link', { name: 'Back' }))
    expect(screen.queryByText(/pending approval/)).not.toBeInTheDocument()
  })
})

describe('server flash cookie', () => {
  it('reads the flash the server left (platform/flash) and deletes the cookie', async () => {
    const { takeServerFlash } = await import('./flash')
    // base64url of {"kind":"danger","message":"Your session has expired please login again."}
    const value = btoa(JSON.stringify({ kind: 'danger', message: 'Your session has expired please login again.' }))
      .replace(/\+/g, '-')
      .replace(/\//g, '_')
      .replace(/=+$/, '')
    document.cookie = `marquee_flash=${value}; Path=/`
    expect(takeServerFlash()).toEqual({ text: 'Your session has expired please login again.', type: 'danger', duration: 7500 })
    expect(document.cookie).not.toContain('marquee_flash=')
    expect(takeServerFlash()).toBeNull()
  })

  it('ignores a malformed cookie', async () => {
    const { takeServerFlash } = await import('./flash')
    expect(takeServerFlash('marquee_flash=%%%')).toBeNull()
    expect(takeServerFlash('other=1')).toBeNull()
  })
})
