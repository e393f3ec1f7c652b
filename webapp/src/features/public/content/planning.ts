// B §9: radius choices, in miles, for planning around an address (default 5).
export const RADIUS_MILES: readonly number[] = [5, 10, 15, 20, 25, 50, 100, 250]

// B §9: longest finite campaign.
export const MAX_CAMPAIGN_WEEKS = 52
