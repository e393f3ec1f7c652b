import { api } from '../../platform/api'
import type {
  ActionResponse,
  Campaign,
  CampaignDetail,
  CampaignForm,
  CampaignList,
  DeliveryUpdate,
  MessageResponse,
  UpdateMailerRequest,
  Week,
  WeeksUpdate,
} from '../../platform/api-types/campaigns'
import type { Page } from '../../platform/api-types/pagination'

export interface AdminCampaignListArgs {
  page: number
  /** 0 means all rows. */
  page_size: number
  /** A field, '-field' for descending. */
  sort: string
  q: string
}

/**
 * GET /api/campaigns/{id} as it arrives: Go embeds Campaign in CampaignDetail, so its fields sit
 * at the top level of the JSON (the generated type nests them under `Campaign`).
 */
export type AdminCampaignDetail = Campaign & Omit<CampaignDetail, 'Campaign'>

/** What the update, weeks, mailer, delivery and proof calls answer. */
export type AdminMessage = MessageResponse

const id = (value: string) => encodeURIComponent(value)

// The admin campaign calls (B §7, issue 7). Endpoint names start with `admin` so they never clash
// with the advertiser's campaign endpoints injected by ./api.ts. Every change invalidates the
// advertiser's 'Campaign' tags too: the detail page, its chart and weeks read the same rows.
export const adminCampaignsApi = api
  .enhanceEndpoints({ addTagTypes: ['AdminCampaign', 'Campaign', 'CampaignCount', 'CampaignWeeks'] })
  .injectEndpoints({
    endpoints: (build) => ({
      adminCampaigns: build.query<CampaignList, AdminCampaignListArgs>({
        query: ({ page, page_size, sort, q }) => ({
          url: '/api/admin/campaigns/',
          params: { page, page_size, sort: sort || undefined, q: q || undefined },
        }),
        providesTags: ['AdminCampaign'],
      }),
      adminCampaign: build.query<AdminCampaignDetail, string>({
        query: (campaignId) => `/api/campaigns/${id(campaignId)}`,
        providesTags: (_r, _e, campaignId) => [{ type: 'Campaign', id: campaignId }, 'AdminCampaign'],
      }),
      // Every week of the campaign (page_size 0 = all): the weeks screen edits them together.
      adminCampaignWeeks: build.query<Page<Week>, string>({
        query: (campaignId) => ({ url: `/api/campaigns/${id(campaignId)}/weeks`, params: { page: 1, page_size: 0 } }),
        providesTags: (_r, _e, campaignId) => [{ type: 'CampaignWeeks', id: campaignId }, 'AdminCampaign'],
      }),
      adminUpdateCampaign: build.mutation<AdminMessage, { id: string; form: CampaignForm }>({
        query: ({ id: campaignId, form }) => ({ url: `/api/campaigns/${id(campaignId)}`, method: 'PUT', body: form }),
        // B §8: the screen says 'Sorry! ' plus the message itself.
        extraOptions: { silent: true },
        invalidatesTags: ['AdminCampaign', 'Campaign', 'CampaignWeeks', 'CampaignCount'],
      }),
      adminDeleteCampaign: build.mutation<ActionResponse, string>({
        query: (campaignId) => ({ url: `/api/campaigns/${id(campaignId)}`, method: 'DELETE' }),
        extraOptions: { silent: true },
        invalidatesTags: ['AdminCampaign', 'Campaign', 'CampaignWeeks', 'CampaignCount'],
      }),
      adminUpdateWeeks: build.mutation<AdminMessage, { id: string; body: WeeksUpdate }>({
        query: ({ id: campaignId, body }) => ({ url: `/api/admin/campaigns/weeks/${id(campaignId)}`, method: 'PUT', body }),
        extraOptions: { silent: true },
        invalidatesTags: ['AdminCampaign', 'Campaign', 'CampaignWeeks'],
      }),
      adminUpdateMailer: build.mutation<AdminMessage, UpdateMailerRequest>({
        query: (body) => ({ url: '/api/campaigns/update/mailer/', method: 'POST', body }),
        extraOptions: { silent: true },
      }),
      adminRecordDelivery: build.mutation<AdminMessage, { weekId: string; body: DeliveryUpdate }>({
        query: ({ weekId, body }) => ({ url: `/api/admin/campaigns/week/${id(weekId)}/delivery`, method: 'PUT', body }),
        extraOptions: { silent: true },
        invalidatesTags: ['Campaign', 'CampaignWeeks', 'AdminCampaign'],
      }),
      adminDeleteProof: build.mutation<AdminMessage, string>({
        query: (proofId) => ({ url: `/api/admin/campaigns/proofs/${id(proofId)}`, method: 'DELETE' }),
        extraOptions: { silent: true },
        invalidatesTags: ['Campaign', 'CampaignWeeks', 'AdminCampaign'],
      }),
    }),
  })

/**
 * Proof images are sent by the platform Uploader (multipart, with its progress bar) straight to
 * POST /api/admin/campaigns/week/{id}/proofs, outside RTK Query: this is that call's URL, and the
 * tags to invalidate once it answers.
 */
export const proofUploadUrl = (weekId: string) => `/api/admin/campaigns/week/${id(weekId)}/proofs`
export const proofsAdded = () => adminCampaignsApi.util.invalidateTags(['Campaign', 'CampaignWeeks', 'AdminCampaign'])

export const {
  useAdminCampaignsQuery,
  useAdminCampaignQuery,
  useAdminCampaignWeeksQuery,
  useAdminUpdateCampaignMutation,
  useAdminDeleteCampaignMutation,
  useAdminUpdateWeeksMutation,
  useAdminUpdateMailerMutation,
  useAdminRecordDeliveryMutation,
  useAdminDeleteProofMutation,
} = adminCampaignsApi
