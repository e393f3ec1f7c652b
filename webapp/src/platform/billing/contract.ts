// TEMPORARY: modules/billing/service.go's DTOs, until bil-api's generated api-types/billing.ts lands.
export interface GatewayConfig {
  gateway: string
  publishable_key?: string
}
export interface CardDetails {
  brand: string
  last4: string
  exp_month: number
  exp_year: number
}
export interface CardToken {
  id: string
  card: CardDetails
}
export interface Card {
  id: string
  brand: string
  last4: string
  exp_month: number
  exp_year: number
  masked: string
}
export interface AddCardRequest {
  token: string
  exp_month: number
  exp_year: number
}
export interface CardResponse {
  success: boolean
  message: string
  card?: Card
}
export interface RedeemPromoRequest {
  code: string
}
export interface RedeemPromoResponse {
  success: boolean
  message: string
  amount: number
}
export interface Promo {
  id: string
  code: string
  value: number
  status: string
  max_count: number
  redeem_count: number
  remaining: number
  created_at: string
}
export interface CreatePromoRequest {
  code: string
  value: number
  max_count: number
}
export interface PromoResponse {
  success: boolean
  message: string
  promo?: Promo
}
export interface PromoStatusResponse {
  success: boolean
  status: string
}
export interface PromoRedemption {
  company_id: string
  company_name: string
  amount: number
  redeemed_at: string
  removed: boolean
}
export const MsgActivePromoGone = 'Active promo removed'
export const MaxPromoCodeSize = 32
export const MaxPromoCount = 100000
export const MsgPromoRequired = 'Promo code is required.'
export const MsgPromoWhitespace = "Promo code can't contain spaces."
export const MsgPromoFormat = 'Promo codes use letters, digits, dashes and underscores only (at most 32).'
export const MsgPromoValue = 'The amount must be more than $0 and at most $10,000.'
export const MsgPromoMaxCount = 'The maximum count must be a whole number from 1 to 100,000.'
export const MsgPromoCreated = 'The promo code has been created.'
