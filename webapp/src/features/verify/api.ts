import { api } from '../../platform/api'
import type { VerifyResult } from '../../platform/api-types/campaigns'

// The public verification of a proof-of-play record (docs/delivery-assurance.md): no
// sign-in, the code is all it needs.
export const verifyApi = api.injectEndpoints({
  endpoints: (build) => ({
    verifyRecord: build.query<VerifyResult, string>({
      query: (code) => `/api/verify/${encodeURIComponent(code)}`,
      // The page reports an unknown code itself, as a 404 page.
      extraOptions: { silent: true },
    }),
  }),
})

export const { useVerifyRecordQuery } = verifyApi
