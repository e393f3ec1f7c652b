const wholeNumber = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 })

/** 198899 -> "198,899". */
export function formatNumber(n: number): string {
  return wholeNumber.format(n)
}

/** Whole dollars with a $ sign and no cents, as every price in Marquee is shown (B §9): 1050 -> "$1,050". */
export function formatDollars(n: number): string {
  return `$${wholeNumber.format(n)}`
}
