import { useEffect, useEffectEvent } from 'react'
import { useDispatch, useSelector } from 'react-redux'
import { identityApi } from '../features/identity/api'
import { foundAnonymous, selectSession, signedIn } from '../platform/session'
import type { AppDispatch } from './store'

/** At start the app asks the server whether a session exists, and whose it is. */
export async function loadSession(dispatch: AppDispatch): Promise<void> {
  const check = await dispatch(identityApi.endpoints.loggedIn.initiate(undefined, { subscribe: false, forceRefetch: true }))
  if (!check.data?.loggedin) {
    dispatch(foundAnonymous())
    return
  }
  const me = await dispatch(identityApi.endpoints.currentUser.initiate(undefined, { subscribe: false, forceRefetch: true }))
  if (me.data) dispatch(signedIn({ user: me.data, moderator: me.data.moderator ?? null }))
  else dispatch(foundAnonymous())
}

export function useSessionBootstrap(): void {
  const dispatch = useDispatch<AppDispatch>()
  const { status } = useSelector(selectSession)
  // Only the first status matters: later changes come from sign-in and sign-out.
  const boot = useEffectEvent(() => {
    if (status === 'unknown') void loadSession(dispatch)
  })
  useEffect(() => boot(), [])
}
