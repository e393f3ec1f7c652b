import { api } from '../../../platform/api'
import type { HubResponse, UpdateProfileRequest } from '../../../platform/api-types/partners'

// The hub profile calls (B §7 "Special"): shared by /admin/hub (features/partners) and the edit-hub
// tab of /profile (features/identity), which do not import each other.
export const hubApi = api.enhanceEndpoints({ addTagTypes: ['PartnerHub'] }).injectEndpoints({
  endpoints: (build) => ({
    hub: build.query<HubResponse, void>({
      query: () => '/api/special/hub',
      providesTags: ['PartnerHub'],
    }),
    // B §8: the form shows its own success or 'Sorry! something went wrong, please try again'.
    updateHub: build.mutation<HubResponse, { userId: string; body: UpdateProfileRequest }>({
      query: ({ userId, body }) => ({ url: `/api/special/hub/${encodeURIComponent(userId)}`, method: 'PUT', body }),
      extraOptions: { silent: true },
      invalidatesTags: ['PartnerHub'],
    }),
    // PUT /users/ambassador: the same profile, through the ambassador's own call (/invite).
    updateAmbassador: build.mutation<HubResponse, UpdateProfileRequest>({
      query: (body) => ({ url: '/users/ambassador', method: 'PUT', body }),
      extraOptions: { silent: true },
      invalidatesTags: ['PartnerHub'],
    }),
  }),
})

export const { useHubQuery, useUpdateHubMutation, useUpdateAmbassadorMutation } = hubApi
