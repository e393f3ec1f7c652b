// The account and admin shapes of issue 13 that the generated api-types cannot spell out.

/** The flat address fields of `local` (B §2 /profile). */
export type AddressFieldsOfLocal = Pick<
  import('../../platform/api-types/identity').Local,
  'address' | 'sub_address' | 'address_city' | 'address_state' | 'address_zipcode' | 'billing_address' | 'sub_billing_address' | 'billing_city' | 'billing_state' | 'billing_zipcode'
>
