import { useMemo } from 'react'
import { useDispatch } from 'react-redux'
import { Link, useNavigate, useParams } from 'react-router'
import {
  FrequencyIndefinitely,
  FrequencyOneTime,
  FrequencyOngoing,
  FrequencyWeekly,
  MsgNotEditable,
  MsgUpdated,
  TypeMaximumBudget,
  TypePremium,
  type CampaignDetail,
  type CampaignForm as CampaignFormBody,
} from '../../../platform/api-types/campaigns'
import Alert from '../../../platform/Alert'
import { flash } from '../../../platform/flash/flash'
import { errorMessage, isApiError } from '../../../platform/http'
import Spinner from '../../../platform/Spinner'
import { useCampaignQuery, useUpdateCampaignMutation } from '../api'
import CampaignForm, { type SubmitFailure } from '../new/CampaignForm'
import type { InitialCampaign } from '../new/formState'
import type { Frequency } from '../new/rules'

/** The form's starting values from GET /api/campaigns/{id}. */
export function toInitial(c: CampaignDetail): InitialCampaign {
  const frequency: Frequency =
    c.frequency === FrequencyWeekly ? FrequencyWeekly : c.frequency === FrequencyOngoing || c.frequency === FrequencyIndefinitely ? FrequencyOngoing : FrequencyOneTime
  return {
    name: c.name,
    typeCampaign: c.mb_campaign ? TypeMaximumBudget : TypePremium,
    strategy: c.strategy,
    markets: c.market ?? [],
    cities: c.cities ?? [],
    place: c.place_id ? { id: c.place_id, name: c.place_name || c.place_id } : null,
    radius: c.radiusCheckValue,
    start: c.start_date,
    end: c.end_date,
    frequency,
    duration: frequency === FrequencyWeekly ? Math.max(1, c.duration) : 1,
    faceIds: [...new Set((c.locations ?? []).map((l) => l.id))],
    creativeId: c.creative_id,
  }
}

/**
 * /campaigns/edit/{id} (B §2): the creation form prefilled with the campaign, sent with PUT
 * /api/campaigns/{id}. A campaign whose start is 5 or fewer days away is not editable (B §9): the
 * screen says why and shows no form.
 */
export default function EditCampaign() {
  const { id = '' } = useParams()
  const dispatch = useDispatch()
  const navigate = useNavigate()
  const campaign = useCampaignQuery(id)
  const [update] = useUpdateCampaignMutation()
  const initial = useMemo(() => (campaign.data ? toInitial(campaign.data) : undefined), [campaign.data])

  const submit = async (form: CampaignFormBody): Promise<SubmitFailure | void> => {
    try {
      const answer = await update({ id, form }).unwrap()
      dispatch(flash(answer.message || MsgUpdated, 'success', { nextPage: true }))
      navigate(`/campaigns/${encodeURIComponent(id)}`)
    } catch (e) {
      return { message: isApiError(e) && e.status > 0 && e.status < 500 ? e.message : '', errors: isApiError(e) ? e.errors : {} }
    }
  }

  return (
    <div className="mx-auto max-w-6xl space-y-6">
      <header className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 className="text-2xl font-semibold text-slate-900 sm:text-3xl">Edit campaign</h1>
          {campaign.data && <p className="mt-1 text-slate-600">{campaign.data.name}</p>}
        </div>
        <Link to={`/campaigns/${encodeURIComponent(id)}`} className="btn-secondary">
          Back to the campaign
        </Link>
      </header>
      {campaign.isLoading && <Spinner label="Loading the campaign" />}
      {campaign.isError && <Alert tone="danger">{errorMessage(campaign.error)}</Alert>}
      {campaign.data && !campaign.data.editable && (
        <Alert tone="info">
          <span data-testid="not-editable">{MsgNotEditable}</span>
        </Alert>
      )}
      {campaign.data?.editable && initial && <CampaignForm key={campaign.data.id} mode="edit" initial={initial} onSubmit={submit} />}
    </div>
  )
}
