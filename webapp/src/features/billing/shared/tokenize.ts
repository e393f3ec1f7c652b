import type { Stripe, StripeCardNumberElement, TokenResult } from '@stripe/stripe-js'
import { send } from '../../../platform/http'
import type { CardFailure } from './cardRules'
import type { CardToken } from '../../../platform/api-types/billing'

// DESIGN §1.2: the card is tokenised by the gateway's client code, so our server only ever sees a
// token, the brand, the last four digits and the expiry. One small port, two adapters: the sandbox
// (our server's /api/sandbox/tokens plays Stripe.js's part) and Stripe.js itself.


export type TokenizeResult = { token: CardToken; failure?: undefined } | { failure: CardFailure; token?: undefined }

/** The card as typed into our own fields (sandbox mode). */
export interface TypedCard {
  number: string
  exp_month: number
  exp_year: number
  cvc: string
}

/** The sandbox gateway's client: the typed card goes to the sandbox token endpoint only. */
export async function tokenizeWithSandbox(card: TypedCard): Promise<TokenizeResult> {
  const result = await send<CardToken>({ url: '/api/sandbox/tokens', method: 'POST', body: card })
  if (result.error) return { failure: { message: result.error.message, code: result.error.code, errors: result.error.errors } }
  return { token: result.data }
}

/** Stripe.js's createToken answer as our port's result. */
export function fromStripeTokenResult(result: TokenResult): TokenizeResult {
  if (result.error) return { failure: { message: result.error.message, code: result.error.code } }
  const { id, card } = result.token
  if (!card) return { failure: { message: 'The card could not be read.' } }
  return { token: { id, card: { brand: card.brand, last4: card.last4, exp_month: card.exp_month, exp_year: card.exp_year } } }
}

/** Stripe mode: the number, expiry and CVC live in Stripe's own Elements; Stripe.js makes the token. */
export async function tokenizeWithStripe(stripe: Stripe, cardNumber: StripeCardNumberElement): Promise<TokenizeResult> {
  return fromStripeTokenResult(await stripe.createToken(cardNumber))
}

let stripeLoading: Promise<Stripe | null> | null = null

/** Loads Stripe.js once, only when the gateway is Stripe (it stays out of every other bundle). */
export function loadStripeOnce(publishableKey: string): Promise<Stripe | null> {
  stripeLoading ??= import('@stripe/stripe-js').then(({ loadStripe }) => loadStripe(publishableKey))
  return stripeLoading
}
