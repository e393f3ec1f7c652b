// Amounts as the product shows them. B §9: prices are shown without cents; the cents are dropped,
// not rounded, as the server's money.Cents.String does, so a credit of $50.75 never reads as $51.

const grouped = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 })

/** Whole dollars with a $ sign: 1250 → '$1,250', 1234.75 → '$1,234', -5 → '-$5'. */
export function formatDollars(dollars: number): string {
  const whole = Math.trunc(dollars)
  return whole < 0 ? `-$${grouped.format(-whole)}` : `$${grouped.format(whole)}`
}

/** A count with thousands separators: 198899 → '198,899'. */
export function formatCount(n: number): string {
  return grouped.format(n)
}
