// The account and admin shapes of issue 13 that the generated api-types cannot spell out.
import type { AdminCompany, Company } from '../../platform/api-types/identity'

/**
 * A row of /admin/companies as it arrives: the Go DTO embeds Company, which JSON flattens but tygo
 * writes as a `Company` member.
 */
export type AdminCompanyRow = Company & Omit<AdminCompany, 'Company'>

/** The flat address fields of `local` (B §2 /profile). */
export type AddressFieldsOfLocal = Pick<
  import('../../platform/api-types/identity').Local,
  'address' | 'sub_address' | 'address_city' | 'address_state' | 'address_zipcode' | 'billing_address' | 'sub_billing_address' | 'billing_city' | 'billing_state' | 'billing_zipcode'
>
