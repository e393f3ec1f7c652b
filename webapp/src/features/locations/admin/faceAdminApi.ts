import { api } from '../../../platform/api'
import type { FaceGeometryUpdate, Location } from '../../../platform/api-types/locations'

export type FaceWithGeometry = Location

// The face editor's calls: a market's faces in full (with their geometry, which the compact
// column form leaves out), and the admin's change of one face's geometry.
export const faceAdminApi = api.enhanceEndpoints({ addTagTypes: ['FaceGeometry'] }).injectEndpoints({
  endpoints: (build) => ({
    facesWithGeometry: build.query<FaceWithGeometry[], string>({
      query: (market) => ({ url: '/api/od/locations/', params: { market } }),
      providesTags: ['FaceGeometry'],
    }),
    updateFaceGeometry: build.mutation<FaceWithGeometry, { id: string; body: FaceGeometryUpdate }>({
      query: ({ id, body }) => ({ url: `/api/admin/faces/${encodeURIComponent(id)}/geometry`, method: 'PUT', body }),
      extraOptions: { silent: true },
      invalidatesTags: ['FaceGeometry'],
    }),
  }),
})

export const { useFacesWithGeometryQuery, useUpdateFaceGeometryMutation } = faceAdminApi
