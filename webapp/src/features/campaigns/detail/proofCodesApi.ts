import { api } from '../../../platform/api'
import type { ProofCodes } from '../../../platform/api-types/campaigns'

// The verification codes of a campaign's weeks (signed proof of play).
export const proofCodesApi = api.enhanceEndpoints({ addTagTypes: ['Campaign'] }).injectEndpoints({
  endpoints: (build) => ({
    proofCodes: build.query<ProofCodes, string>({
      query: (id) => `/api/campaigns/${encodeURIComponent(id)}/proof-codes`,
      providesTags: (_r, _e, id) => [{ type: 'Campaign', id }],
    }),
  }),
})

export const { useProofCodesQuery } = proofCodesApi
