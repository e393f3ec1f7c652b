import { faceGeometryApi } from '../shared/faceGeometryApi'
import type { FaceGeometryUpdate, Location } from '../../../platform/api-types/locations'

export type FaceWithGeometry = Location

// The admin's change of one face's geometry; the faces' list (with their geometry) is refreshed.
export const faceAdminApi = faceGeometryApi.injectEndpoints({
  endpoints: (build) => ({
    updateFaceGeometry: build.mutation<FaceWithGeometry, { id: string; body: FaceGeometryUpdate }>({
      query: ({ id, body }) => ({ url: `/api/admin/faces/${encodeURIComponent(id)}/geometry`, method: 'PUT', body }),
      extraOptions: { silent: true },
      invalidatesTags: ['FaceGeometry'],
    }),
  }),
})

export const { useUpdateFaceGeometryMutation } = faceAdminApi
export { useFacesWithGeometryQuery } from '../shared/faceGeometryApi'
