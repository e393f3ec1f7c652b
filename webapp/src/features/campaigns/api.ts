import { api } from '../../platform/api'
import type {
  ActionResponse,
  Campaign,
  CampaignDetail,
  CampaignForm,
  CampaignList,
  Count,
  CreativeChange,
  MessageResponse,
  Week,
} from '../../platform/api-types/campaigns'
import type { Page } from '../../platform/api-types/pagination'

export interface CampaignListArgs {
  /** Searches the name (A §2). */
  q: string
  /** active, paused, pending or completed; '' for every status. */
  status: string
  page: number
  /** 0 means all. */
  page_size: number
  /** A field, '-field' for descending; '' for the server's order (newest first). */
  sort: string
}

export interface WeeksArgs {
  id: string
  page: number
  /** 0 means every week. */
  page_size: number
  sort: string
}

export interface DeleteArgs {
  id: string
  /** The advertiser's reason and refund choice (B §4); the admin grid sends neither. */
  reason?: string
  refund?: boolean
}

/** What PUT /api/campaigns/{id} answers. */
export type UpdateAnswer = MessageResponse & { campaign?: Campaign }

export interface CreativeChangeArgs extends CreativeChange {
  /** The campaign, or the week with `week`. */
  id: string
  week?: boolean
  /** The campaign the week belongs to, so its detail is re-read. */
  campaignId: string
}

const campaignTag = (id: string) => [{ type: 'Campaign' as const, id }, { type: 'CampaignWeeks' as const, id }]

// The campaign calls (B §7, docs/api.md "Campaigns") that the advertiser's and the admin's screens
// share. The creation calls live in createApi.ts, the admin-only ones in adminApi.ts; all share the
// 'Campaign' and 'CampaignCount' tags, and the admin grid reads under 'AdminCampaign'.
export const campaignsApi = api.enhanceEndpoints({ addTagTypes: ['Campaign', 'CampaignCount', 'CampaignWeeks', 'AdminCampaign'] }).injectEndpoints({
  endpoints: (build) => ({
    campaigns: build.query<CampaignList, CampaignListArgs>({
      query: ({ q, status, page, page_size, sort }) => ({
        url: '/api/campaigns',
        params: { q: q || undefined, status: status || undefined, page, page_size, sort: sort || undefined },
      }),
      // A §8: the list reports its own failure ('Sorry! ' plus the error).
      extraOptions: { silent: true },
      providesTags: [{ type: 'Campaign', id: 'LIST' }],
    }),
    // The dashboard counts (A §2); the campaigns module owns them (DESIGN §2).
    campaignCount: build.query<Count, void>({
      query: () => '/api/campaigns/count',
      providesTags: ['CampaignCount'],
    }),
    campaign: build.query<CampaignDetail, string>({
      query: (id) => `/api/campaigns/${encodeURIComponent(id)}`,
      providesTags: (_r, _e, id) => [{ type: 'Campaign', id }],
    }),
    campaignWeeks: build.query<Page<Week>, WeeksArgs>({
      query: ({ id, page, page_size, sort }) => ({
        url: `/api/campaigns/${encodeURIComponent(id)}/weeks`,
        params: { page, page_size, sort: sort || undefined },
      }),
      providesTags: (_r, _e, { id }) => [{ type: 'CampaignWeeks', id }],
    }),
    pauseCampaign: build.mutation<ActionResponse, string>({
      query: (id) => ({ url: `/api/campaigns/${encodeURIComponent(id)}/pause`, method: 'PUT' }),
      extraOptions: { silent: true },
      invalidatesTags: (_r, _e, id) => [...campaignTag(id), { type: 'Campaign', id: 'LIST' }, 'CampaignCount'],
    }),
    resumeCampaign: build.mutation<ActionResponse, string>({
      query: (id) => ({ url: `/api/campaigns/${encodeURIComponent(id)}/resume`, method: 'PUT' }),
      extraOptions: { silent: true },
      invalidatesTags: (_r, _e, id) => [...campaignTag(id), { type: 'Campaign', id: 'LIST' }, 'CampaignCount'],
    }),
    stopCampaign: build.mutation<ActionResponse, string>({
      query: (id) => ({ url: `/api/campaigns/${encodeURIComponent(id)}/stop`, method: 'PUT' }),
      extraOptions: { silent: true },
      invalidatesTags: (_r, _e, id) => [...campaignTag(id), { type: 'Campaign', id: 'LIST' }, 'CampaignCount'],
    }),
    // B §8: the advertiser's and the admin's screens say 'Sorry! ' plus the message themselves.
    updateCampaign: build.mutation<UpdateAnswer, { id: string; form: CampaignForm }>({
      query: ({ id, form }) => ({ url: `/api/campaigns/${encodeURIComponent(id)}`, method: 'PUT', body: form }),
      extraOptions: { silent: true },
      invalidatesTags: ['Campaign', 'CampaignWeeks', 'CampaignCount', 'AdminCampaign'],
    }),
    deleteCampaign: build.mutation<ActionResponse, DeleteArgs>({
      query: ({ id, reason, refund }) => ({ url: `/api/campaigns/${encodeURIComponent(id)}`, method: 'DELETE', params: { reason, refund } }),
      extraOptions: { silent: true },
      // The lists and counts; not the deleted campaign's detail or weeks: the detail page leaves
      // for /campaigns and the admin deletes from the grid.
      invalidatesTags: [{ type: 'Campaign', id: 'LIST' }, 'CampaignCount', 'AdminCampaign'],
    }),
    changeCreative: build.mutation<MessageResponse, CreativeChangeArgs>({
      query: ({ id, week, creative_id, locations }) => ({
        url: week ? `/api/campaigns/week/${encodeURIComponent(id)}/creative` : `/api/campaigns/${encodeURIComponent(id)}/creative`,
        method: 'PUT',
        body: { creative_id, locations } satisfies CreativeChange,
      }),
      extraOptions: { silent: true },
      invalidatesTags: (_r, _e, { campaignId }) => campaignTag(campaignId),
    }),
  }),
})

export const {
  useCampaignsQuery,
  useCampaignCountQuery,
  useCampaignQuery,
  useCampaignWeeksQuery,
  usePauseCampaignMutation,
  useResumeCampaignMutation,
  useStopCampaignMutation,
  useUpdateCampaignMutation,
  useDeleteCampaignMutation,
  useChangeCreativeMutation,
} = campaignsApi
