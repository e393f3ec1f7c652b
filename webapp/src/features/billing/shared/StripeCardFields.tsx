import { useEffect, useEffectEvent, useRef, useState } from 'react'
import { loadStripeOnce, tokenizeWithStripe, type TokenizeResult } from './tokenize'

/** Makes a token from what the person typed into Stripe's fields. */
export type StripeTokenizer = () => Promise<TokenizeResult>

/**
 * Stripe mode (DESIGN §1.2): the number, expiry and security code are Stripe Elements, iframes
 * served by Stripe, so the typed card never touches our page's code or our server.
 */
export default function StripeCardFields({ publishableKey, onReady }: { publishableKey: string; onReady: (tokenize: StripeTokenizer | null) => void }) {
  const numberRef = useRef<HTMLDivElement>(null)
  const expiryRef = useRef<HTMLDivElement>(null)
  const cvcRef = useRef<HTMLDivElement>(null)
  const [failed, setFailed] = useState(false)

  // Mounted once per key; onReady is the parent's setter, read when the fields are ready.
  const ready = useEffectEvent((tokenize: Parameters<typeof onReady>[0]) => onReady(tokenize))
  useEffect(() => {
    let cancelled = false
    const unmount: (() => void)[] = []
    void loadStripeOnce(publishableKey).then((stripe) => {
      if (cancelled) return
      if (!stripe || !numberRef.current || !expiryRef.current || !cvcRef.current) {
        setFailed(true)
        return
      }
      const elements = stripe.elements()
      const number = elements.create('cardNumber', { showIcon: true })
      const expiry = elements.create('cardExpiry')
      const cvc = elements.create('cardCvc')
      number.mount(numberRef.current)
      expiry.mount(expiryRef.current)
      cvc.mount(cvcRef.current)
      unmount.push(() => number.destroy(), () => expiry.destroy(), () => cvc.destroy())
      ready(() => tokenizeWithStripe(stripe, number))
    }, () => !cancelled && setFailed(true))
    return () => {
      cancelled = true
      ready(null)
      unmount.forEach((fn) => fn())
    }
  }, [publishableKey])

  if (failed) return <p role="alert" className="text-sm text-red-600">The card form could not be loaded. Please try again later.</p>
  const box = 'field-input min-h-10 py-2.5'
  return (
    <div className="space-y-4">
      <div className="space-y-1.5">
        <span id="stripe-number-label" className="block text-sm font-medium text-slate-700">Card number</span>
        <div ref={numberRef} role="group" aria-labelledby="stripe-number-label" className={box} />
      </div>
      <div className="grid grid-cols-2 gap-4">
        <div className="space-y-1.5">
          <span id="stripe-expiry-label" className="block text-sm font-medium text-slate-700">Expiry (MM/YY)</span>
          <div ref={expiryRef} role="group" aria-labelledby="stripe-expiry-label" className={box} />
        </div>
        <div className="space-y-1.5">
          <span id="stripe-cvc-label" className="block text-sm font-medium text-slate-700">Security code</span>
          <div ref={cvcRef} role="group" aria-labelledby="stripe-cvc-label" className={box} />
        </div>
      </div>
    </div>
  )
}
