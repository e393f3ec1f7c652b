import {
  FinishCredit,
  FinishEndDate,
  FinishOpen,
  FinishPaused,
  FrequencyOneTime,
  FrequencyWeekly,
  TypeMaximumBudget,
  type Pacing,
  type RenewPrefill,
} from '../../../platform/api-types/campaigns'
import type { Creative } from '../../../platform/api-types/creatives'
import { formatDisplayDate } from '../../../platform/dates'
import { formatCount } from '../../../platform/money'
import type { InitialCampaign } from '../new/formState'


// The pacing panel's wording (docs/delivery-assurance.md "Pacing, forecast and
// renewal"). The server decides every figure; these only say them.

/** Below this share of the plan a campaign is behind (the make-good threshold's default, 90%). */
export const BEHIND_PERCENT = 90

export type PaceState = 'none' | 'on' | 'slightly' | 'behind'

/** How the delivery keeps pace: nothing recorded, on plan (100% or more), slightly behind (90–99%), behind. */
export function paceState(percent: number | null | undefined): PaceState {
  if (percent === null || percent === undefined) return 'none'
  if (percent >= 100) return 'on'
  if (percent >= BEHIND_PERCENT) return 'slightly'
  return 'behind'
}

export const PACE_LABELS: Record<PaceState, string> = {
  none: 'No delivery recorded yet',
  on: 'On plan',
  slightly: 'Slightly behind plan',
  behind: 'Behind plan',
}

/** '95% of plan: 1,900 of 2,000 impressions over 1 finished week', or what is missing. */
export function paceText(p: Pick<Pacing, 'pace_percent' | 'planned_to_date' | 'delivered_to_date' | 'weeks_reported' | 'weeks_finished'>): string {
  if (p.pace_percent === null || p.pace_percent === undefined) {
    return p.weeks_finished > 0 ? 'The finished weeks’ impressions are not recorded yet.' : 'No week has finished yet.'
  }
  const weeks = `${p.weeks_reported} finished week${p.weeks_reported === 1 ? '' : 's'}`
  return `${p.pace_percent}% of plan: ${formatCount(p.delivered_to_date)} of ${formatCount(p.planned_to_date)} impressions over ${weeks}`
}

/** When the campaign finishes, in words. */
export function finishText(p: Pick<Pacing, 'finish_basis' | 'finish_date' | 'credit_weeks'>): string {
  switch (p.finish_basis) {
    case FinishEndDate:
      return `Ends ${formatDisplayDate(p.finish_date ?? '')}`
    case FinishCredit:
      return `Your account credit runs it until ${formatDisplayDate(p.finish_date ?? '')} (${p.credit_weeks} more week${p.credit_weeks === 1 ? '' : 's'}). Add a card to keep it going.`
    case FinishOpen:
      return 'Open: it runs week after week until you stop it.'
    case FinishPaused:
      return 'Paused: no week is booked until you resume it.'
  }
  return ''
}

/** The short finish for the dashboard's list. */
export function finishShort(p: Pick<Pacing, 'finish_basis' | 'finish_date'>): string {
  if (p.finish_basis === FinishOpen) return 'Open'
  if (p.finish_basis === FinishPaused) return 'Paused'
  return formatDisplayDate(p.finish_date ?? '')
}

/** The share of the committed money already spent, 0–100. */
export function spentPercent(p: Pick<Pacing, 'spent' | 'committed'>): number {
  if (p.committed <= 0) return 0
  return Math.min(100, Math.max(0, Math.round((p.spent / p.committed) * 100)))
}

/** The renew link: the creation form, prefilled from the campaign (the email links here too). */
export function renewPath(campaignId: string): string {
  return `/campaigns/new?renew=${encodeURIComponent(campaignId)}`
}

/** The creation form's starting values from the renewal prefill. */
export function renewInitial(r: RenewPrefill): InitialCampaign {
  const creative: Creative | null = r.creative_id
    ? { id: r.creative_id, name: r.creative_name, awsUrl: r.creative_url, alt: r.creative_name, url: '', company: '', reference: '', converted_thumb: '', width: 0, height: 0, is_default: false, created_at: '' }
    : null
  return {
    name: r.name,
    typeCampaign: r.typeCampaign,
    strategy: r.strategySelected,
    markets: r.marketsSelected ?? [],
    cities: r.citiesSelected ?? [],
    place: r.place_id ? { id: r.place_id, name: r.place_name || r.place_id } : null,
    radius: r.radiusCheckValue,
    start: r.startDate,
    end: r.endDate,
    frequency: r.frequencySelected === FrequencyWeekly ? FrequencyWeekly : FrequencyOneTime,
    duration: r.frequencySelected === FrequencyWeekly ? Math.max(1, r.duration) : 1,
    faceIds: r.faces ?? [],
    creativeId: r.creative_id,
    creative,
    dailyBudget: r.typeCampaign === TypeMaximumBudget ? r.daily_budget : undefined,
  }
}
