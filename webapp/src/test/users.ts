import type { User } from '../platform/api-types/identity'
import type { SessionState } from '../platform/session'

let counter = 0

/** A user as the API gives it; override what the test is about. */
export function makeUser(overrides: { role?: 'user' | 'admin' | 'super_admin'; companyType?: string; certified?: boolean } & Partial<User> = {}): User {
  counter += 1
  const { role = 'user', companyType = 'standard', certified = false, ...rest } = overrides
  return {
    id: `user-${counter}`,
    local: {
      email: `user${counter}@example.com`,
      first_name: 'Ada',
      last_name: 'Lovelace',
      phone: '',
      status: 'active',
      role: { admin: role === 'admin', super_admin: role === 'super_admin' },
    },
    company: { id: `company-${counter}`, name: `Company ${counter}`, type: companyType },
    certified,
    sign_in_count: 3,
    created_at: '2026-01-05T10:00:00Z',
    tourCampaignShow: false,
    tutorialCampaignShowed: true,
    sendPhoneZoho: false,
    ...rest,
  }
}

export function signedInSession(user: User): SessionState {
  return { status: 'authenticated', user, next: null, endReason: null, expiries: 0 }
}

export function anonymousSession(): SessionState {
  return { status: 'anonymous', user: null, next: null, endReason: null, expiries: 0 }
}
