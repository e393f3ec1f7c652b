import { api } from '../../platform/api'
import type {
  CampaignList,
  DeliveryUpdate,
  MakeGoodList,
  MessageResponse,
  WaiveRequest,
  WaiveResponse,
  UpdateMailerRequest,
  WeeksUpdate,
} from '../../platform/api-types/campaigns'

export interface AdminCampaignListArgs {
  page: number
  /** 0 means all rows. */
  page_size: number
  /** A field, '-field' for descending. */
  sort: string
  q: string
}

/** What the update, weeks, mailer, delivery and proof calls answer. */
export type AdminMessage = MessageResponse

const id = (value: string) => encodeURIComponent(value)

// The admin-only campaign calls (B §7); the detail, weeks, update and delete are the shared
// ones of ./api.ts. Endpoint names start with `admin` so they never clash with those. Every change
// invalidates the advertiser's 'Campaign' tags too: the detail page, its chart and weeks read the
// same rows.
export const adminCampaignsApi = api
  .enhanceEndpoints({ addTagTypes: ['AdminCampaign', 'Campaign', 'CampaignCount', 'CampaignWeeks', 'AdminMakeGood'] })
  .injectEndpoints({
    endpoints: (build) => ({
      adminCampaigns: build.query<CampaignList, AdminCampaignListArgs>({
        query: ({ page, page_size, sort, q }) => ({
          url: '/api/admin/campaigns/',
          params: { page, page_size, sort: sort || undefined, q: q || undefined },
        }),
        providesTags: ['AdminCampaign'],
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
        // A delivery may grant or correct a make-good.
        invalidatesTags: ['Campaign', 'CampaignWeeks', 'AdminCampaign', 'AdminMakeGood'],
      }),
      // Every company's make-goods (the /admin/campaigns filter) and the waiver.
      adminMakeGoods: build.query<MakeGoodList, { page: number; page_size: number; status: string }>({
        query: ({ page, page_size, status }) => ({ url: '/api/admin/make-goods', params: { page, page_size, status: status || undefined } }),
        providesTags: ['AdminMakeGood'],
      }),
      adminWaiveMakeGood: build.mutation<WaiveResponse, { id: string; body: WaiveRequest }>({
        query: ({ id: makeGoodId, body }) => ({ url: `/api/admin/make-goods/${id(makeGoodId)}/waive`, method: 'PUT', body }),
        extraOptions: { silent: true },
        invalidatesTags: ['AdminMakeGood', 'Campaign', 'CampaignWeeks'],
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
  useAdminUpdateWeeksMutation,
  useAdminUpdateMailerMutation,
  useAdminRecordDeliveryMutation,
  useAdminDeleteProofMutation,
  useAdminMakeGoodsQuery,
  useAdminWaiveMakeGoodMutation,
} = adminCampaignsApi
