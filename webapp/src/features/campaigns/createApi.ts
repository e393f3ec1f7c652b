import { api } from '../../platform/api'
import type {
  CampaignDefaults,
  CampaignForm,
  CampaignQuote,
  ConflictResponse,
  CreateResponse,
  ResolveRequest,
  ResolveResponse,
} from '../../platform/api-types/campaigns'
import { MSG_UNEXPECTED, toApiError, type RequestResult } from '../../platform/http'
import { callCompleted } from '../../platform/sessionWatch'

/** The 409 body of a conflicting creation (B §7 "On a failed create"). */
export function isConflictResponse(value: unknown): value is ConflictResponse {
  if (typeof value !== 'object' || value === null) return false
  const campaign = (value as { campaign?: unknown }).campaign
  return typeof campaign === 'object' && campaign !== null && Array.isArray((campaign as { weeks?: unknown }).weeks)
}

/** A creation's outcome: created, a conflict to resolve, or a failure with the server's message. */
export type CreateOutcome =
  | { kind: 'created'; answer: CreateResponse }
  | { kind: 'conflict'; answer: ConflictResponse }
  | { kind: 'failed'; status: number; message: string; errors: Record<string, string> }

// The creation side of the campaigns calls. The location reads the form needs are the
// locations feature's, in features/locations/shared/api.ts.
export const createApi = api.enhanceEndpoints({ addTagTypes: ['Campaign', 'CampaignCount'] }).injectEndpoints({
  endpoints: (build) => ({
    campaignDefaults: build.query<CampaignDefaults, void>({
      query: () => '/api/campaigns/defaults',
      extraOptions: { silent: true },
    }),
    // B §9 prices of a form as the creation will charge them; the form asks it whether a card is
    // needed (card_required, B §5) before its review step.
    quoteCampaign: build.mutation<CampaignQuote, CampaignForm>({
      query: (body) => ({ url: '/api/campaigns/quote', method: 'POST', body }),
      extraOptions: { silent: true },
    }),
    // The 409 conflict carries a body the dialog needs, so the call reads the raw answer itself.
    createCampaign: build.mutation<CreateOutcome, { form: CampaignForm; key: string }>({
      queryFn: async ({ form, key }, { dispatch, getState }) => {
        const { outcome, result } = await rawCreate(form, key)
        callCompleted(dispatch, getState, result)
        return { data: outcome }
      },
      invalidatesTags: (result) => (result?.kind === 'failed' ? [] : ['Campaign', 'CampaignCount']),
    }),
    resolveConflict: build.mutation<ResolveResponse, { id: string; choice: ResolveRequest['choice'] }>({
      query: ({ id, choice }) => ({ url: `/api/campaigns/${encodeURIComponent(id)}/resolve`, method: 'POST', body: { choice } }),
      extraOptions: { silent: true },
      invalidatesTags: ['Campaign', 'CampaignCount'],
    }),
  }),
})

/**
 * POST /api/campaigns with its Idempotency-Key (decision 8). Read here rather than through the base
 * query because a 409 conflict's body (the campaign, its weeks, the params) is what the dialog shows.
 */
async function rawCreate(form: CampaignForm, key: string): Promise<{ outcome: CreateOutcome; result: RequestResult<unknown> }> {
  let response: Response
  try {
    response = await fetch('/api/campaigns', {
      method: 'POST',
      headers: {
        'X-Requested-With': 'XMLHttpRequest',
        'Cache-Control': 'no-cache',
        Accept: 'application/json',
        'Content-Type': 'application/json',
        'Idempotency-Key': key,
      },
      body: JSON.stringify(form),
      credentials: 'same-origin',
      cache: 'no-store',
    })
  } catch {
    const error = { status: 0, message: MSG_UNEXPECTED, errors: {} }
    return { outcome: { kind: 'failed', ...error }, result: { error } }
  }
  let body: unknown = null
  try {
    const text = await response.text()
    body = text ? (JSON.parse(text) as unknown) : null
  } catch {
    body = null
  }
  if (response.ok && !(typeof body === 'object' && body !== null && (body as { success?: unknown }).success === false)) {
    return { outcome: { kind: 'created', answer: body as CreateResponse }, result: { data: body } }
  }
  const error = toApiError(response.status, body)
  if (response.status === 409 && isConflictResponse(body)) return { outcome: { kind: 'conflict', answer: body }, result: { error } }
  return { outcome: { kind: 'failed', status: error.status, message: error.message, errors: error.errors }, result: { error } }
}

export const {
  useCampaignDefaultsQuery,
  useQuoteCampaignMutation,
  useCreateCampaignMutation,
  useResolveConflictMutation,
} = createApi
