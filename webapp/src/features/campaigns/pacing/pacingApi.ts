import { api } from '../../../platform/api'
import type { Pacing, PacingList, RenewPrefill } from '../../../platform/api-types/campaigns'
import type { DigestRequest, DigestSetting } from '../../../platform/api-types/reports'

// Docs/delivery-assurance.md: a campaign's pacing (GET /api/campaigns/{id}/pacing), the
// dashboard's compact list (GET /api/campaigns/pacing, one call for every live campaign), the
// renewal prefill (GET /api/campaigns/{id}/renew) and the weekly digest setting (reports). Pacing
// reads under the campaign's tag, so a pause, a resume or a stop refreshes it.
export const pacingApi = api.enhanceEndpoints({ addTagTypes: ['Campaign', 'Digest'] }).injectEndpoints({
  endpoints: (build) => ({
    campaignPacing: build.query<Pacing, string>({
      query: (id) => `/api/campaigns/${encodeURIComponent(id)}/pacing`,
      providesTags: (_r, _e, id) => [{ type: 'Campaign', id }],
      extraOptions: { silent: true },
    }),
    companyPacing: build.query<PacingList, void>({
      query: () => '/api/campaigns/pacing',
      providesTags: [{ type: 'Campaign', id: 'LIST' }],
      extraOptions: { silent: true },
    }),
    renewPrefill: build.query<RenewPrefill, string>({
      query: (id) => `/api/campaigns/${encodeURIComponent(id)}/renew`,
      extraOptions: { silent: true },
      keepUnusedDataFor: 0,
    }),
    digestSetting: build.query<DigestSetting, void>({
      query: () => '/api/reports/digest',
      providesTags: ['Digest'],
    }),
    setDigest: build.mutation<DigestSetting, DigestRequest>({
      query: (body) => ({ url: '/api/reports/digest', method: 'PUT', body }),
      invalidatesTags: ['Digest'],
    }),
  }),
})

export const { useCampaignPacingQuery, useCompanyPacingQuery, useRenewPrefillQuery, useDigestSettingQuery, useSetDigestMutation } = pacingApi
