// Amounts as the product shows them. B §9: prices are shown without cents; the cents are dropped,
// not rounded, as the server's money.Cents.String does, so a credit of $50.75 never reads as $51.

// Grouped by hand, as en-US does, rather than by Intl.NumberFormat: creating the first Intl
// formatter loads the locale's data, 15 to 25 ms of the main thread when this module was
// evaluated, a long task on a phone (/locations, issue 30: Total Blocking Time).
function grouped(whole: number): string {
  return String(whole).replace(/\B(?=(\d{3})+(?!\d))/g, ',')
}

/** Whole dollars with a $ sign: 1250 → '$1,250', 1234.75 → '$1,234', -5 → '-$5'. */
export function formatDollars(dollars: number): string {
  const whole = Math.trunc(dollars)
  return whole < 0 ? `-$${grouped(-whole)}` : `$${grouped(whole)}`
}

/** A count with thousands separators, rounded half away from zero: 198899 → '198,899', 2.5 → '3'. */
export function formatCount(n: number): string {
  const whole = Math.round(Math.abs(n))
  return n < 0 && whole !== 0 ? `-${grouped(whole)}` : grouped(whole)
}
