import { createSlice, nanoid, type PayloadAction } from '@reduxjs/toolkit'

// Flash durations: A §9 (7500 ms by default) and B §9 (3000, 5000 and 600000 ms).
export const FLASH_DEFAULT_MS = 7500
export const FLASH_SHORT_MS = 3000
export const FLASH_MEDIUM_MS = 5000
export const FLASH_LONG_MS = 600000

export type FlashType = 'success' | 'danger' | 'info'

export interface FlashMessage {
  id: string
  text: string
  type: FlashType
  /** Milliseconds before it goes away by itself; null keeps it until dismissed. */
  duration: number | null
}

export interface FlashOptions {
  /** Defaults to FLASH_DEFAULT_MS; null keeps the message until dismissed. */
  duration?: number | null
  /** Keep the message for the next page instead of showing it now (it is shown there once). */
  nextPage?: boolean
}

export interface FlashState {
  messages: FlashMessage[]
}

const initialState: FlashState = { messages: [] }

const flashSlice = createSlice({
  name: 'flash',
  initialState,
  reducers: {
    flashShown: {
      reducer(state, action: PayloadAction<FlashMessage>) {
        // The same message twice (a guard and the session check can both report an expiry) is
        // shown once, restarted.
        state.messages = state.messages.filter(
          (m) => !(m.text === action.payload.text && m.type === action.payload.type),
        )
        state.messages.push(action.payload)
      },
      prepare(text: string, type: FlashType = 'success', duration: number | null = FLASH_DEFAULT_MS) {
        return { payload: { id: nanoid(), text, type, duration } }
      },
    },
    flashDismissed(state, action: PayloadAction<string>) {
      state.messages = state.messages.filter((m) => m.id !== action.payload)
    },
    flashesCleared(state) {
      state.messages = []
    },
  },
  selectors: {
    selectFlashes: (state) => state.messages,
  },
})

export const { flashShown, flashDismissed, flashesCleared } = flashSlice.actions
export const { selectFlashes } = flashSlice.selectors
export const flashReducer = flashSlice.reducer
export const flashReducerPath = flashSlice.reducerPath

const CARRY_KEY = 'marquee.flash.next'

interface CarriedFlash {
  text: string
  type: FlashType
  duration: number | null
}

/** Stores a message in sessionStorage for the next page. */
export function carryFlash(text: string, type: FlashType, duration: number | null = FLASH_DEFAULT_MS): void {
  const carried = readCarried()
  carried.push({ text, type, duration })
  try {
    window.sessionStorage.setItem(CARRY_KEY, JSON.stringify(carried))
  } catch {
    // Storage can be full or disabled; the message is lost, the page still works.
  }
}

function readCarried(): CarriedFlash[] {
  try {
    const raw = window.sessionStorage.getItem(CARRY_KEY)
    const parsed: unknown = raw ? JSON.parse(raw) : []
    return Array.isArray(parsed) ? (parsed as CarriedFlash[]) : []
  } catch {
    return []
  }
}

/** The cookie in which the server leaves a flash for the next page (platform/flash). */
export const SERVER_FLASH_COOKIE = 'marquee_flash'

/** Takes the flash the server left in its cookie, if any, and deletes the cookie. */
export function takeServerFlash(cookie: string = document.cookie): CarriedFlash | null {
  const entry = cookie
    .split(';')
    .map((c) => c.trim())
    .find((c) => c.startsWith(`${SERVER_FLASH_COOKIE}=`))
  if (!entry) return null
  document.cookie = `${SERVER_FLASH_COOKIE}=; Max-Age=0; Path=/`
  try {
    const b64 = entry.slice(SERVER_FLASH_COOKIE.length + 1).replace(/-/g, '+').replace(/_/g, '/')
    const bytes = Uint8Array.from(atob(b64), (ch) => ch.charCodeAt(0))
    const parsed = JSON.parse(new TextDecoder().decode(bytes)) as { kind?: unknown; message?: unknown }
    const type = parsed.kind
    if (typeof parsed.message !== 'string' || (type !== 'success' && type !== 'danger' && type !== 'info')) return null
    return { text: parsed.message, type, duration: FLASH_DEFAULT_MS }
  } catch {
    return null
  }
}

/**
 * Takes the carried messages out of sessionStorage, and the server's flash cookie: each is shown
 * exactly once.
 */
export function takeCarriedFlashes(): CarriedFlash[] {
  const carried = readCarried()
  const fromServer = typeof document === 'undefined' ? null : takeServerFlash()
  if (fromServer) carried.push(fromServer)
  try {
    window.sessionStorage.removeItem(CARRY_KEY)
  } catch {
    // ignore
  }
  return carried.filter((c) => typeof c.text === 'string' && ['success', 'danger', 'info'].includes(c.type))
}

/**
 * Shows a flash message now, or on the next page with `nextPage`. Returns the action to dispatch
 * (or null when the message was carried).
 */
export function flash(text: string, type: FlashType = 'success', options: FlashOptions = {}) {
  const duration = options.duration === undefined ? FLASH_DEFAULT_MS : options.duration
  if (options.nextPage) {
    carryFlash(text, type, duration)
    return { type: 'flash/carried' as const }
  }
  return flashShown(text, type, duration)
}
