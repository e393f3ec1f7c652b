// The account and admin shapes of issue 13 (docs/api.md "Identity"). They mirror the identity DTOs;
// where the generated api-types already hold a shape, it is re-exported from there.
import type { User } from '../../platform/api-types/identity'

export type { User }

/** A postal address (B §2 /profile); state is a US code, DC included. */
export interface Address {
  street: string
  street2: string
  city: string
  state: string
  zip: string
}

/** A user with the profile's addresses (GET /api/users/{id}). */
export interface UserProfile extends User {
  address?: Address | null
  billing_address?: Address | null
}

/** PUT /api/users/{id}. */
export interface UserUpdate {
  first_name: string
  last_name: string
  phone: string
  address: Address
  billing_address: Address
  /** Only an admin changes a user's email. */
  email?: string
}

export interface UserUpdateResponse {
  success: boolean
  message: string
  user?: UserProfile
}

/** One invitee of the team-member invite form (B §5). */
export interface Invitee {
  name: string
  email: string
}

export interface TeamInviteRequest {
  new_member: Invitee[]
}

/** A row of /admin/companies (B §2). */
export interface AdminCompany {
  id: string
  name: string
  type: string
  status: string
  user_count: number
  has_card: boolean
  account_credit: number
  total_spend: number
  createdAt: string
  /** An active user's email, offered for the moderated sign-in. */
  owner_email?: string
}

/** PUT /api/companies/{id}. */
export interface CompanyUpdate {
  name: string
  type: string
  status: string
}

/** Who is acting as whom, while an admin is signed in as another user. */
export interface Moderator {
  id: string
  email: string
  first_name: string
  last_name: string
}

/** One row of the admin audit log. */
export interface AuditEntry {
  id: string
  created_at: string
  actor_id: string
  actor_email: string
  action: string
  object_type: string
  object_id: string
  before?: unknown
  after?: unknown
  ip?: string
}

export interface MessageAnswer {
  success: boolean
  message: string
}
