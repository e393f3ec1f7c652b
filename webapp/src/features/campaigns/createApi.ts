import { api } from '../../platform/api'
import type {
  Campaign,
  CampaignDefaults,
  CampaignForm,
  CreateResponse,
  ResolveRequest,
  ResolveResponse,
  Week,
} from '../../platform/api-types/campaigns'
import type { Page } from '../../platform/api-types/pagination'
import { MSG_UNEXPECTED, toApiError, type RequestResult } from '../../platform/http'
import { callCompleted } from '../../platform/sessionWatch'

/**
 * The 409 body of a conflicting creation (B §7 "On a failed create"). The Go ConflictCampaign
 * embeds Campaign, so its fields arrive flattened beside weeks and expires_at.
 */
export interface ConflictAnswer {
  success: false
  message: string
  campaign: Campaign & { weeks: Week[]; expires_at: string }
  params: CampaignForm
}

/** GET /api/campaigns/{id} as the edit form reads it (CampaignDetail, Campaign fields flattened). */
export type EditableCampaign = Campaign & {
  editable: boolean
  locations: { id: string; market: string }[]
}

export function isConflictAnswer(value: unknown): value is ConflictAnswer {
  if (typeof value !== 'object' || value === null) return false
  const campaign = (value as { campaign?: unknown }).campaign
  return typeof campaign === 'object' && campaign !== null && Array.isArray((campaign as { weeks?: unknown }).weeks)
}

/** A creation's outcome: created, a conflict to resolve, or a failure with the server's message. */
export type CreateOutcome =
  | { kind: 'created'; answer: CreateResponse }
  | { kind: 'conflict'; answer: ConflictAnswer }
  | { kind: 'failed'; status: number; message: string; errors: Record<string, string> }

// The creation side of the campaigns calls (issue 6). The location reads the form needs are the
// Map's, in platform/map/api.ts.
export const createApi = api.enhanceEndpoints({ addTagTypes: ['Campaign', 'CampaignCount'] }).injectEndpoints({
  endpoints: (build) => ({
    campaignDefaults: build.query<CampaignDefaults, void>({
      query: () => '/api/campaigns/defaults',
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
    campaignToEdit: build.query<EditableCampaign, string>({
      query: (id) => `/api/campaigns/${encodeURIComponent(id)}`,
      providesTags: (_r, _e, id) => [{ type: 'Campaign', id }],
    }),
    campaignWeeksToEdit: build.query<Page<Week>, string>({
      query: (id) => ({ url: `/api/campaigns/${encodeURIComponent(id)}/weeks`, params: { page: 1, page_size: 0 } }),
      providesTags: (_r, _e, id) => [{ type: 'Campaign', id }],
    }),
    updateCampaign: build.mutation<{ success: boolean; message: string; campaign?: Campaign }, { id: string; form: CampaignForm }>({
      query: ({ id, form }) => ({ url: `/api/campaigns/${encodeURIComponent(id)}`, method: 'PUT', body: form }),
      extraOptions: { silent: true },
      invalidatesTags: (_r, _e, { id }) => [{ type: 'Campaign', id }, 'Campaign', 'CampaignCount'],
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
  if (response.status === 409 && isConflictAnswer(body)) return { outcome: { kind: 'conflict', answer: body }, result: { error } }
  return { outcome: { kind: 'failed', status: error.status, message: error.message, errors: error.errors }, result: { error } }
}

export const {
  useCampaignDefaultsQuery,
  useCreateCampaignMutation,
  useResolveConflictMutation,
  useCampaignToEditQuery,
  useCampaignWeeksToEditQuery,
  useUpdateCampaignMutation,
} = createApi
