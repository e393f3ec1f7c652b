import { api } from '../../platform/api'
import type { Page } from '../../platform/api-types/pagination'
import type {
  BonusRow,
  CodeRedemption,
  ExamResponse,
  ExamResult,
  ExamSubmission,
  FlaggedCharge,
  InviteRequest,
  InviteResponse,
  LinkedCampaign,
  LinkedCompany,
  MessageResponse,
  MonthlyStat,
  SpecialUser,
} from '../../platform/api-types/partners'

export interface PartnerListArgs {
  page: number
  page_size: number
  /** A field, '-field' for descending (docs/api.md "Lists"). */
  sort: string
  /** 0 means all time. */
  year?: number
}

const yearParam = (year?: number) => (year ? year : undefined)

// The partner program's calls (B §7 "Special", POST /users/ambassador/invite, PUT
// /users/ambassador; docs/partners.md). The hub profile calls are in shared/hubApi.ts.
export const partnersApi = api
  .enhanceEndpoints({ addTagTypes: ['PartnerLinked', 'PartnerHub', 'SpecialUser', 'PartnerExam', 'AdminUser'] })
  .injectEndpoints({
    endpoints: (build) => ({
      // The linked companies: the ambassador's own (/invite), or a partner's for a super admin.
      linkedCompanies: build.query<LinkedCompany[], string | void>({
        query: (company) => ({ url: '/api/special/invite', params: { company: company || undefined } }),
        providesTags: ['PartnerLinked'],
      }),
      inviteClient: build.mutation<InviteResponse, InviteRequest>({
        query: (body) => ({ url: '/users/ambassador/invite', method: 'POST', body }),
        // B §8: the modal shows the server's message itself.
        extraOptions: { silent: true },
        invalidatesTags: ['PartnerLinked', 'PartnerHub'],
      }),
      resendInvite: build.mutation<MessageResponse, string>({
        query: (id) => ({ url: `/api/special/ambassador/invite/${encodeURIComponent(id)}`, method: 'PUT' }),
        extraOptions: { silent: true },
      }),
      stats: build.query<MonthlyStat[], number>({
        query: (year) => ({ url: '/api/special/stats', params: { year } }),
        providesTags: ['PartnerHub'],
      }),
      codesRedeemed: build.query<Page<CodeRedemption>, PartnerListArgs>({
        query: ({ page, page_size, sort, year }) => ({ url: '/api/special/codes', params: { page, page_size, sort: sort || undefined, year: yearParam(year) } }),
      }),
      linkedCampaigns: build.query<Page<LinkedCampaign>, PartnerListArgs>({
        query: ({ page, page_size, sort, year }) => ({ url: '/api/special/campaigns', params: { page, page_size, sort: sort || undefined, year: yearParam(year) } }),
      }),
      specialUsers: build.query<Page<SpecialUser>, PartnerListArgs>({
        query: ({ page, page_size, sort }) => ({ url: '/api/special/', params: { page, page_size, sort: sort || undefined } }),
        providesTags: ['SpecialUser'],
      }),
      // Charges held for review: paid with a card of the partner's own company (DESIGN §1.13).
      flaggedCharges: build.query<FlaggedCharge[], void>({
        query: () => '/api/special/flags',
        providesTags: ['SpecialUser'],
      }),
      // A partner's bonuses grouped by month, client or campaign: a super admin names the company.
      bonusList: build.query<BonusRow[], { companyId?: string; type: string }>({
        query: ({ companyId, type }) => ({
          url: companyId ? `/api/special/${encodeURIComponent(companyId)}/bonus` : '/api/special/bonus',
          params: { type },
        }),
      }),
      exam: build.query<ExamResponse, void>({
        query: () => '/api/special/certified/exam',
        providesTags: ['PartnerExam'],
      }),
      submitExam: build.mutation<ExamResult, ExamSubmission>({
        query: (body) => ({ url: '/api/special/certified/exam', method: 'PUT', body }),
        extraOptions: { silent: true },
        invalidatesTags: ['PartnerExam', 'PartnerHub'],
      }),
    }),
  })

export const {
  useLinkedCompaniesQuery,
  useFlaggedChargesQuery,
  useInviteClientMutation,
  useResendInviteMutation,
  useStatsQuery,
  useCodesRedeemedQuery,
  useLinkedCampaignsQuery,
  useSpecialUsersQuery,
  useBonusListQuery,
  useExamQuery,
  useSubmitExamMutation,
} = partnersApi
