import type { Local, User } from '../platform/api-types/identity'
import type { SessionState } from '../platform/session'

let counter = 0

/** A user as the API gives it; override what the test is about. */
/** The profile's address fields, all empty (B §2 /profile). */
export const NO_ADDRESSES = {
  address: '',
  sub_address: '',
  address_city: '',
  address_state: '',
  address_zipcode: '',
  billing_address: '',
  sub_billing_address: '',
  billing_city: '',
  billing_state: '',
  billing_zipcode: '',
}

export function makeUser(
  overrides: { role?: 'user' | 'admin' | 'super_admin'; companyType?: string; certified?: boolean; local?: Partial<Local> } & Omit<Partial<User>, 'local'> = {},
): User {
  counter += 1
  const { role = 'user', companyType = 'standard', certified = false, local, ...rest } = overrides
  return {
    id: `user-${counter}`,
    local: {
      email: `user${counter}@example.com`,
      first_name: 'Ada',
      last_name: 'Lovelace',
      phone: '',
      status: 'active',
      role: { admin: role === 'admin', super_admin: role === 'super_admin' },
      ...NO_ADDRESSES,
      ...local,
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
