import { api } from '../../../platform/api'
import type { CalendarLocation } from '../../../platform/api-types/locations'

// The faces of the company's campaigns (GET /api/calendar/locations, every market), with their
// geometry: the first choice of the builder's face picker, since those are the faces a creative
// will run on. A failure leaves the picker with the markets.
export const builderFacesApi = api.injectEndpoints({
  endpoints: (build) => ({
    campaignFaces: build.query<CalendarLocation[], void>({
      query: () => '/api/calendar/locations',
      extraOptions: { silent: true },
    }),
  }),
})

export const { useCampaignFacesQuery } = builderFacesApi
