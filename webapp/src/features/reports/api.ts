import { api } from '../../platform/api'
import type {
  CompanyOption,
  MailerRequest,
  MessageResponse,
  RenameRequest,
  Report,
  ReportCampaign,
  ReportData,
  ReportList,
  ReportRequest,
  ReportResponse,
  ReportWeek,
} from '../../platform/api-types/reports'

export interface ReportListArgs {
  page: number
  /** 0 means all. */
  page_size: number
  /** A field, '-field' for descending; '' for the server's order (newest first). */
  sort: string
  /** Admin list filters. */
  company?: string
  campaign?: string
}

// The report calls (B §7 "Reports", docs/api.md "Reports") of the advertiser's and the admin's
// screens.
export const reportsApi = api.enhanceEndpoints({ addTagTypes: ['Report', 'ReportCampaign'] }).injectEndpoints({
  endpoints: (build) => ({
    reports: build.query<ReportList, ReportListArgs>({
      query: ({ page, page_size, sort }) => ({ url: '/api/reports', params: { page, page_size, sort: sort || undefined } }),
      providesTags: ['Report'],
    }),
    adminReports: build.query<ReportList, ReportListArgs>({
      query: ({ page, page_size, sort, company, campaign }) => ({
        url: '/api/admin/reports/',
        params: { page, page_size, sort: sort || undefined, company: company || undefined, campaign: campaign || undefined },
      }),
      providesTags: ['Report'],
    }),
    report: build.query<Report, string>({
      query: (id) => `/api/reports/${encodeURIComponent(id)}`,
      providesTags: (_r, _e, id) => [{ type: 'Report', id }],
    }),
    reportData: build.query<ReportData, string>({
      query: (id) => `/api/reports/data/${encodeURIComponent(id)}`,
      providesTags: (_r, _e, id) => [{ type: 'Report', id }],
    }),
    reportCampaigns: build.query<ReportCampaign[], string | void>({
      query: (company) => ({ url: '/api/reports/campaigns', params: { company: company || undefined } }),
      providesTags: ['ReportCampaign'],
    }),
    reportWeeks: build.query<ReportWeek[], string>({
      query: (campaignId) => `/api/reports/campaigns/${encodeURIComponent(campaignId)}/weeks`,
    }),
    reportCompanies: build.query<CompanyOption[], string>({
      query: (q) => ({ url: '/api/admin/reports/companies', params: { q: q || undefined } }),
    }),
    createReport: build.mutation<ReportResponse, ReportRequest>({
      query: (body) => ({ url: '/api/reports', method: 'POST', body }),
      // The form reports every failure itself (B §8).
      extraOptions: { silent: true },
      invalidatesTags: ['Report'],
    }),
    renameReport: build.mutation<ReportResponse, RenameRequest & { id: string }>({
      query: ({ id, name }) => ({ url: `/api/reports/${encodeURIComponent(id)}`, method: 'PUT', body: { name } }),
      invalidatesTags: ['Report'],
    }),
    removeReport: build.mutation<MessageResponse, string>({
      query: (id) => ({ url: `/api/reports/${encodeURIComponent(id)}`, method: 'DELETE' }),
      // B §8: the list says 'We had a unexpected issue while we process your request.' itself.
      extraOptions: { silent: true },
      invalidatesTags: ['Report'],
    }),
    setSchedule: build.mutation<MessageResponse, { campaignId: string; enabled: boolean }>({
      query: ({ campaignId, enabled }) => ({ url: `/api/reports/schedules/${encodeURIComponent(campaignId)}`, method: 'PUT', body: { enabled } }),
      invalidatesTags: ['ReportCampaign'],
    }),
    sendReportMailer: build.mutation<MessageResponse, MailerRequest>({
      query: (body) => ({ url: '/api/reports/performance-report/mailer/', method: 'POST', body }),
      extraOptions: { silent: true },
    }),
  }),
})

export const {
  useReportsQuery,
  useAdminReportsQuery,
  useReportQuery,
  useReportDataQuery,
  useReportCampaignsQuery,
  useReportWeeksQuery,
  useReportCompaniesQuery,
  useCreateReportMutation,
  useRenameReportMutation,
  useRemoveReportMutation,
  useSetScheduleMutation,
  useSendReportMailerMutation,
} = reportsApi
