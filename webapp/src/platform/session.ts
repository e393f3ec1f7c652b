import { createSlice, type PayloadAction } from '@reduxjs/toolkit'
import { CompanyAmbassador, CompanyCertified, type Moderator, type User } from './api-types/identity'

/** A §2, A §8: shown (danger) whenever a logged-in screen finds no session. */
export const MSG_SESSION_EXPIRED = 'Your session has expired please login again.'

export type SessionStatus = 'unknown' | 'anonymous' | 'authenticated'

/** Why the last session ended: a logout says its own goodbye, anything else is an expiry. */
export type SessionEndReason = 'logout' | 'expired'

export interface SessionState {
  status: SessionStatus
  user: User | null
  /** Where a public-only screen sends the user right after signing in or up (A §4). */
  next: string | null
  endReason: SessionEndReason | null
  /** Counts expiries, so the app can react to each one (navigate to /login). */
  expiries: number
  /** The admin acting as this user through a moderated sign-in (B §2), else null. */
  moderator?: Moderator | null
}

export const initialSessionState: SessionState = {
  status: 'unknown',
  user: null,
  next: null,
  endReason: null,
  expiries: 0,
  moderator: null,
}

const sessionSlice = createSlice({
  name: 'session',
  initialState: initialSessionState,
  reducers: {
    signedIn(state, action: PayloadAction<{ user: User; next?: string; moderator?: Moderator | null }>) {
      state.status = 'authenticated'
      state.user = action.payload.user
      state.next = action.payload.next ?? null
      state.endReason = null
      state.moderator = action.payload.moderator ?? null
    },
    /** The session check at start found no session. */
    foundAnonymous(state) {
      state.status = 'anonymous'
      state.user = null
    },
    userUpdated(state, action: PayloadAction<User>) {
      if (state.status === 'authenticated') state.user = action.payload
    },
    /** The tour and tutorial flags as the server answered them (GET /users/disable-tour, …). */
    tourFlagsUpdated(state, action: PayloadAction<{ tourCampaignShow: boolean; tutorialCampaignShowed: boolean }>) {
      if (state.user) Object.assign(state.user, action.payload)
    },
    nextConsumed(state) {
      state.next = null
    },
    sessionEnded(state, action: PayloadAction<SessionEndReason>) {
      state.status = 'anonymous'
      state.user = null
      state.next = null
      state.endReason = action.payload
      state.moderator = null
      if (action.payload === 'expired') state.expiries += 1
    },
  },
  selectors: {
    selectSession: (state) => state,
    selectUser: (state) => state.user,
    selectModerator: (state) => state.moderator ?? null,
  },
})

export const { signedIn, foundAnonymous, userUpdated, tourFlagsUpdated, nextConsumed, sessionEnded } = sessionSlice.actions
export const { selectSession, selectUser, selectModerator } = sessionSlice.selectors
export const sessionReducer = sessionSlice.reducer
export const sessionReducerPath = sessionSlice.reducerPath

export function isAdmin(user: User | null): boolean {
  return !!(user?.local?.role?.admin || user?.local?.role?.super_admin)
}

export function isSuperAdmin(user: User | null): boolean {
  return !!user?.local?.role?.super_admin
}

export function isAmbassador(user: User | null): boolean {
  return user?.company?.type === CompanyAmbassador
}

/** A certified company, or a user certified through the exam (B §4). */
export function isCertified(user: User | null): boolean {
  return !!user && (user.certified || user.company?.type === CompanyCertified)
}
