import { api } from '../api'
import type { MessageResponse, TourResponse } from '../api-types/identity'
import { tourFlagsUpdated } from '../session'

// The signed-in user in the session keeps the flags the server answers: a stale tourCampaignShow
// replayed the dashboard tour on every visit until a full reload, and kept the tutorial video
// waiting behind a tour already given.
// check-tutorial answers whether the video had been shown before, and records that it now has.
function keepFlags(afterCheck: boolean) {
  return async (_: void, { dispatch, queryFulfilled }: { dispatch: (a: unknown) => unknown; queryFulfilled: Promise<{ data: TourResponse }> }) => {
    try {
      const { data } = await queryFulfilled
      dispatch(tourFlagsUpdated({ tourCampaignShow: data.tourCampaignShow, tutorialCampaignShowed: afterCheck || data.tutorialCampaignShowed }))
    } catch {
      // A failed call changes nothing: the flags stay as the server last said.
    }
  }
}

// The tour and tutorial flags of the signed-in user (docs/api.md "Identity") that the dashboard and
// its tour read. Both calls change state on GET, so they are mutations.
export const tourApi = api.injectEndpoints({
  endpoints: (build) => ({
    // GET /users/check-tutorial answers whether the tutorial video was shown, and records that it has.
    checkTutorial: build.mutation<TourResponse, void>({
      query: () => '/users/check-tutorial',
      onQueryStarted: keepFlags(true),
    }),
    // B §8's default confirm: a call for a free dashboard tour (the phone consent goes to the CRM).
    requestTourCall: build.mutation<MessageResponse, void>({
      query: () => ({ url: '/users/tour-call', method: 'POST', body: {} }),
      extraOptions: { silent: true },
    }),
    tourDone: build.mutation<TourResponse, void>({
      query: () => '/users/disable-tour',
      extraOptions: { silent: true },
      onQueryStarted: keepFlags(false),
    }),
  }),
})

export const { useCheckTutorialMutation, useTourDoneMutation, useRequestTourCallMutation } = tourApi
