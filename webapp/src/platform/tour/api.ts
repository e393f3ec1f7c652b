import { api } from '../api'
import type { TourResponse } from '../api-types/identity'

// The tour and tutorial flags of the signed-in user (docs/api.md "Identity") that the dashboard and
// its tour read. Both calls change state on GET, so they are mutations.
export const tourApi = api.injectEndpoints({
  endpoints: (build) => ({
    // GET /users/check-tutorial answers whether the tutorial video was shown, and records that it has.
    checkTutorial: build.mutation<TourResponse, void>({
      query: () => '/users/check-tutorial',
    }),
    tourDone: build.mutation<TourResponse, void>({
      query: () => '/users/disable-tour',
      extraOptions: { silent: true },
    }),
  }),
})

export const { useCheckTutorialMutation, useTourDoneMutation } = tourApi
