import { api } from '../../platform/api'
import type { PairingCode, PairingCodeRequest, Screen, ScreenList } from '../../platform/api-types/screens'

// The admin calls of docs/screens.md ("Pairing", "Screen health").
export const screensApi = api.enhanceEndpoints({ addTagTypes: ['Screens'] }).injectEndpoints({
  endpoints: (build) => ({
    screens: build.query<ScreenList, void>({
      query: () => '/api/admin/screens',
      providesTags: ['Screens'],
    }),
    createPairingCode: build.mutation<PairingCode, PairingCodeRequest>({
      query: (body) => ({ url: '/api/admin/screens/pairing-codes', method: 'POST', body }),
    }),
    revokeScreen: build.mutation<Screen, string>({
      query: (id) => ({ url: `/api/admin/screens/${encodeURIComponent(id)}/revoke`, method: 'POST' }),
      invalidatesTags: ['Screens'],
    }),
  }),
})

export const { useScreensQuery, useCreatePairingCodeMutation, useRevokeScreenMutation } = screensApi
