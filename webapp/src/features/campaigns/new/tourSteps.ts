import { tourTarget, type TourStep } from '../../../platform/tour/steps'

/**
 * The 16-step tour of the new-campaign form (B §2 "Guided tour of the new-campaign form"): name,
 * type, strategy, market, map, cities, scheduling, start date, frequency, end date, budgets,
 * estimated impressions, creative, ad preview, review and confirm, after a welcome.
 */
export const NEW_CAMPAIGN_TOUR: readonly TourStep[] = [
  { title: 'Plan your campaign', text: 'Everything happens on this one screen. Let us walk through it.' },
  { element: tourTarget('name'), title: 'Campaign name', text: 'Give your campaign a name you will recognise in your list.' },
  { element: tourTarget('type'), title: 'Campaign type', text: 'There are two types: Maximize Budget and Hand Select Locations. Hand Select Locations lets you choose each billboard at a fixed weekly rate.' },
  { element: tourTarget('strategy'), title: 'Strategy', text: 'Find faces within a radius of an address (up to 25 miles and beyond), or by DMA market.' },
  { element: tourTarget('market'), title: 'Market', text: 'Choose the market, or search the address your radius is drawn around.' },
  { element: tourTarget('map'), title: 'Map', text: 'Every face in the area. Open one to see its weekly price and audience, and add it to your campaign. Grey faces are sold out that week.' },
  { element: tourTarget('cities'), title: 'Cities', text: 'Narrow a market to some of its cities, or widen the radius around your address.' },
  { element: tourTarget('scheduling'), title: 'Scheduling', text: 'Decide when your ad runs. Weeks run Monday to Sunday.' },
  { element: tourTarget('start-date'), title: 'Start date', text: 'Campaigns start on a Monday. After Wednesday, the next Monday is closed and the Monday after is the first you can choose.' },
  { element: tourTarget('frequency'), title: 'Frequency', text: 'Ongoing, One Week, or a Specified End Date.' },
  { element: tourTarget('end-date'), title: 'End date', text: 'With a specified end date, your campaign ends on a Sunday, up to 52 weeks after it starts.' },
  { element: tourTarget('budgets'), title: 'Budgets', text: 'Your weekly budget is the sum of the faces you chose, less your account credit, and the total covers every week.' },
  { element: tourTarget('impressions'), title: 'Estimated impressions', text: 'How many times your ad is likely to be seen each week, and over the whole campaign.' },
  { element: tourTarget('creative'), title: 'Add creative', text: 'Upload an ad, pick one from your library, or use your company default.' },
  { element: tourTarget('ad-preview'), title: 'Ad preview', text: 'See the creative your faces will show.' },
  { element: tourTarget('review'), title: 'Review and confirm', text: 'Check everything, add your card, and confirm. Your campaign becomes active once the first week is paid.' },
]
