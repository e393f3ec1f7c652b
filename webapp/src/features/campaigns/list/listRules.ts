import {
  CampaignTypeBasic,
  CampaignTypePremium,
  FrequencyIndefinitely,
  FrequencyOneTime,
  FrequencyOngoing,
  FrequencyWeekly,
  StatusActive,
  StatusCompleted,
  StatusPaid,
  StatusPaused,
  StatusPending,
  type Campaign,
} from '../../../platform/api-types/campaigns'

/** A §9 / B §9: campaign lists offer 50, 75, 100 and All (0), 50 by default. */
export const LIST_PAGE_SIZES = [50, 75, 100, 0]

/** A §9: the status filter's labels, in this order. */
export const STATUS_FILTERS = [
  { value: StatusActive, label: 'Active' },
  { value: StatusPaused, label: 'Paused' },
  { value: StatusPending, label: 'Pending' },
  { value: StatusCompleted, label: 'Completed' },
] as const

/** The ?status= parameter (B §2) as a filter value: unknown values mean every status. */
export function statusFromQuery(value: string | null): string {
  const v = (value ?? '').trim().toLowerCase()
  return STATUS_FILTERS.some((f) => f.value === v) ? v : ''
}

/** B §4: a stored 'paid' is displayed as pending. */
export function displayStatus(status: string): string {
  return status === StatusPaid ? StatusPending : status
}

export function statusLabel(status: string): string {
  const s = displayStatus(status)
  return s ? s.charAt(0).toUpperCase() + s.slice(1) : ''
}

/** A §1: Basic when mb_campaign is set, otherwise Premium. The server derives it too. */
export function campaignType(c: Pick<Campaign, 'mb_campaign' | 'campaignType'>): string {
  if (c.campaignType === CampaignTypeBasic || c.campaignType === CampaignTypePremium) return c.campaignType
  return c.mb_campaign ? CampaignTypeBasic : CampaignTypePremium
}

/** The frequency in the words of the tour (B §2): One Week, Specified End Date, Ongoing. */
export function frequencyLabel(frequency: string): string {
  switch (frequency) {
    case FrequencyOneTime:
      return 'One week'
    case FrequencyWeekly:
      // One vocabulary with the form and the admin list.
      return 'Specified end date'
    case FrequencyOngoing:
    case FrequencyIndefinitely:
      return 'Ongoing'
    default:
      return frequency
  }
}

export const statusTone: Record<string, string> = {
  active: 'bg-emerald-100 text-emerald-800',
  paused: 'bg-amber-100 text-amber-800',
  pending: 'bg-sky-100 text-sky-800',
  completed: 'bg-slate-200 text-slate-700',
  canceled: 'bg-red-100 text-red-800',
  reserved: 'bg-violet-100 text-violet-800',
}
