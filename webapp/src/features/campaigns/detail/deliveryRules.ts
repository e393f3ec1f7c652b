import type { MakeGood, Week } from '../../../platform/api-types/campaigns'
import { formatCount } from '../../../platform/money'

// Plan against delivered: the contracted impressions of a week (product_ooh, frozen when
// it was booked), what was delivered, the difference and the percentage, as the server computes
// them; and make-good credits, which carry cents (a share of a price), unlike the product's whole
// dollar prices.

const cents = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })

/** A credit with its cents: 150.015 never arrives (the server rounds); 150.02 → '$150.02'. */
export function formatCredit(dollars: number): string {
  return dollars < 0 ? `-$${cents.format(-dollars)}` : `$${cents.format(dollars)}`
}

/** '83.3%' of plan, or null until delivery is recorded. */
export function deliveryPercent(w: Pick<Week, 'delivery_pct'>): string | null {
  return typeof w.delivery_pct === 'number' ? `${w.delivery_pct.toFixed(1)}%` : null
}

/** The difference with its sign: '+1,200' or '−4,000'. */
export function signedCount(n: number): string {
  return n < 0 ? `−${formatCount(-n)}` : `+${formatCount(n)}`
}

/** Under the make-good threshold (a finished week with such a figure earns credit). */
export function belowThreshold(pct: number | null | undefined, threshold: number): boolean {
  return typeof pct === 'number' && pct < threshold
}

/** The make-goods' total credit as it stands (net of corrections and waivers). */
export function totalCredit(makeGoods: MakeGood[] | undefined): number {
  return Math.round((makeGoods ?? []).reduce((sum, m) => sum + m.credit * 100, 0)) / 100
}

/** Where a week's delivered figure comes from (issue 28 §6): a paired screen, a CMS import, or admin entry. */
export interface DeliverySource {
  label: string
  /** What the badge's tooltip and screen readers say. */
  description: string
  tone: string
}

const SOURCES: Record<string, DeliverySource> = {
  screen: { label: 'Screen', description: "Counted from the plays the face's screen signed and reported", tone: 'bg-emerald-100 text-emerald-900' },
  import: { label: 'Import', description: "Imported from the network's signage software (proof-of-play export)", tone: 'bg-sky-100 text-sky-900' },
  admin: { label: 'Admin entry', description: 'Entered by a Marquee admin', tone: 'bg-slate-200 text-slate-800' },
}

/** The badge of a week's delivery_source, or null while nothing is recorded (or for a source this page does not know). */
export function deliverySource(source: string | undefined): DeliverySource | null {
  return source && Object.hasOwn(SOURCES, source) ? SOURCES[source]! : null
}
