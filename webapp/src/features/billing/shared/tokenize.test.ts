import type { TokenResult } from '@stripe/stripe-js'
import { describe, expect, it } from 'vitest'
import { mockFetch } from '../../../test/fetch'
import { fromStripeTokenResult, tokenizeWithSandbox } from './tokenize'

describe('Stripe.js token answers', () => {
  it('keeps the token id and the card summary only', () => {
    const result = {
      token: {
        id: 'tok_visa',
        object: 'token',
        card: { id: 'card_1', brand: 'Visa', last4: '4242', exp_month: 12, exp_year: 2030, funding: 'credit', country: 'US' },
        client_ip: null,
        created: 1,
        livemode: false,
        type: 'card',
        used: false,
      },
    } as unknown as TokenResult
    expect(fromStripeTokenResult(result)).toEqual({ token: { id: 'tok_visa', card: { brand: 'Visa', last4: '4242', exp_month: 12, exp_year: 2030 } } })
  })

  it('passes the gateway error message and code on', () => {
    const result = { error: { type: 'card_error', code: 'incorrect_number', message: 'Your card number is incorrect.' } } as unknown as TokenResult
    expect(fromStripeTokenResult(result)).toEqual({ failure: { message: 'Your card number is incorrect.', code: 'incorrect_number' } })
  })
})

describe('sandbox tokens', () => {
  it('sends the typed card to the sandbox token endpoint and returns its token', async () => {
    const server = mockFetch({
      'POST /api/sandbox/tokens': { body: { id: 'tok_1', card: { brand: 'Visa', last4: '4242', exp_month: 1, exp_year: 2030 } } },
    })
    const card = { number: '4242424242424242', exp_month: 1, exp_year: 2030, cvc: '123' }
    expect(await tokenizeWithSandbox(card)).toEqual({ token: { id: 'tok_1', card: { brand: 'Visa', last4: '4242', exp_month: 1, exp_year: 2030 } } })
    expect(server.called('POST', '/api/sandbox/tokens')[0]!.body).toEqual(card)
  })

  it('returns the refusal as a failure', async () => {
    mockFetch({ 'POST /api/sandbox/tokens': { status: 402, body: { success: false, message: 'Your card number is incorrect.', code: 'incorrect_number' } } })
    const result = await tokenizeWithSandbox({ number: '4242424242424241', exp_month: 1, exp_year: 2030, cvc: '123' })
    expect(result.failure?.message).toBe('Your card number is incorrect.')
  })
})
