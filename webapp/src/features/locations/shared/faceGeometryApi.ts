import { api } from '../../../platform/api'
import type { Location } from '../../../platform/api-types/locations'

/**
 * Faces in full, with their geometry (issue 29: size, viewing distance, photo and screen corners),
 * which the compact column form of the map leaves out: the face editor's list, and the campaign
 * form's in-situ preview of the chosen faces. One call for the markets given.
 */
export const faceGeometryApi = api.enhanceEndpoints({ addTagTypes: ['FaceGeometry'] }).injectEndpoints({
  endpoints: (build) => ({
    facesWithGeometry: build.query<Location[], string[]>({
      query: (markets) => `/api/od/locations/?${markets.map((m) => `market=${encodeURIComponent(m)}`).join('&')}`,
      providesTags: ['FaceGeometry'],
      extraOptions: { silent: true },
    }),
  }),
})

export const { useFacesWithGeometryQuery } = faceGeometryApi
