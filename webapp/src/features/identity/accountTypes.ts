// The account and admin shapes of issue 13 (docs/api.md "Identity"), as the identity DTOs give them
// (modules/identity/service.go, platform/audit/entry.go). Temporary until the generated api-types
// carry them; the names are the DTOs' own.
import type { User } from '../../platform/api-types/identity'

export type { User }

/** The admin acting as the signed-in user (a moderated sign-in). */
export interface Moderator {
  id: string
  email: string
  name: string
}

/** The flat address fields of `local` (B §2 /profile); states are US codes, DC included. */
export interface AddressFieldsOfLocal {
  address: string
  sub_address: string
  address_city: string
  address_state: string
  address_zipcode: string
  billing_address: string
  sub_billing_address: string
  billing_city: string
  billing_state: string
  billing_zipcode: string
}

/** PUT /api/users/{id}: an absent field is left as it is; certified is sent on its own. */
export interface UpdateUserRequest extends Partial<AddressFieldsOfLocal> {
  first_name?: string
  last_name?: string
  phone?: string
  certified?: boolean
}

/** What the calls that change a user answer. */
export interface UserResult {
  success: boolean
  message: string
  status?: string
  user: User | null
}

export interface Invitee {
  name: string
  email: string
}

/** POST /api/team-members/ (B §7: user and new_member). */
export interface InviteRequest {
  user?: string
  new_member: Invitee[]
}

export interface InviteResponse {
  success: boolean
  message: string
  users: User[]
}

/** A row of /admin/companies (B §2). */
export interface AdminCompany {
  id: string
  name: string
  type: string
  status: string
  user_count: number
  createdAt: string
  cc_onfile: boolean
  /** Dollars. */
  account_credit: number
  total_spend: number
  amountPending: number
}

/** PUT /api/companies/{id}: an absent field is left as it is. */
export interface UpdateCompanyRequest {
  name?: string
  type?: string
  status?: string
}

export interface CompanyResult {
  success: boolean
  message: string
}

export interface ModerateResponse {
  success: boolean
  message: string
  user: User | null
  moderator: Moderator | null
}

/** One row of the admin audit log (GET /api/admin/audit/). */
export interface Entry {
  id: string
  actor_id: string
  actor_email: string
  moderator_id: string
  action: string
  object_type: string
  object_id: string
  before: unknown
  after: unknown
  ip: string
  created_at: string
}

export interface MessageAnswer {
  success: boolean
  message: string
}
