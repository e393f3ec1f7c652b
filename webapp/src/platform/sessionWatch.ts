import type { Dispatch } from '@reduxjs/toolkit'
import { flashShown } from './flash/flash'
import { send, type RequestResult } from './http'
import { closeAllModals } from './modals'
import { MSG_SESSION_EXPIRED, sessionEnded, type SessionState } from './session'

/** B §9: the session is checked 15 minutes after the last completed call. */
export const SESSION_CHECK_MS = 900000

type GetState = () => unknown

let timer: ReturnType<typeof setTimeout> | undefined

function signedIn(getState: GetState): boolean {
  const state = getState() as { session?: SessionState }
  return state.session?.status === 'authenticated'
}

/**
 * Ends the session on this side (B §4): modals are dismissed, the user is logged out locally and
 * told why; the app then shows /login (see SessionExpiryRedirect and the logged-in guard).
 */
export function expireSession(dispatch: Dispatch): void {
  stopSessionCheck()
  closeAllModals()
  dispatch(sessionEnded('expired'))
  dispatch(flashShown(MSG_SESSION_EXPIRED, 'danger'))
}

/** (Re)starts the 15-minute timer; when it fires for a signed-in user, the server is asked. */
export function armSessionCheck(dispatch: Dispatch, getState: GetState): void {
  stopSessionCheck()
  timer = setTimeout(() => {
    timer = undefined
    if (!signedIn(getState)) return
    void send<{ loggedin: boolean }>({ url: '/users/loggedin' }).then((result) => {
      if (!signedIn(getState)) return
      if (result.data && result.data.loggedin === false) expireSession(dispatch)
      else armSessionCheck(dispatch, getState)
    })
  }, SESSION_CHECK_MS)
}

export function stopSessionCheck(): void {
  if (timer !== undefined) clearTimeout(timer)
  timer = undefined
}

/** Called after every completed call (B §4): a 401 for a signed-in user ends the session. */
export function callCompleted(dispatch: Dispatch, getState: GetState, result: RequestResult<unknown>): void {
  if (result.error?.status === 401 && signedIn(getState)) {
    expireSession(dispatch)
    return
  }
  armSessionCheck(dispatch, getState)
}
