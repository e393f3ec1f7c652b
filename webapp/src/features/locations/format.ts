import type { AvailableSpot, Location } from '../../platform/api-types/locations'
import { formatDollars } from '../../platform/money'


/**
 * A §9: the ad shows Monday through Sunday, for the spot duration in seconds at the rotation
 * frequency (how many ads share the screen, so one showing in every that many).
 */
export function adDisplayText(settings: Location['location']): string {
  const seconds = settings.ad_spot_duration === 1 ? '1 second' : `${settings.ad_spot_duration} seconds`
  return `Your ad shows Monday through Sunday, for ${seconds} at a rotation frequency of 1 in ${settings.ad_rotation_frequency}.`
}

/** A face's weekly price and impressions: the week's spot when it is known, else the face's base values. */
export function weeklyTerms(face: Location, spot: AvailableSpot | undefined): { price: number; impressions: number } {
  return spot ? { price: spot.price, impressions: spot.ooh } : { price: face.value, impressions: face.ooh }
}

/** '$500 – $1,250', one price when all are equal, '' for none. */
export function priceRange(prices: readonly number[]): string {
  if (prices.length === 0) return ''
  let low = Infinity
  let high = -Infinity
  for (const price of prices) {
    low = Math.min(low, price)
    high = Math.max(high, price)
  }
  return low === high ? formatDollars(low) : `${formatDollars(low)} – ${formatDollars(high)}`
}
