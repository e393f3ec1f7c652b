import { faceGeometryApi } from '../shared/faceGeometryApi'
import type { FaceGeometryUpdate, FaceHoursUpdate, Location } from '../../../platform/api-types/locations'

export type FaceWithGeometry = Location

// The admin's change of one face's geometry; the faces' list (with their geometry) is refreshed.
export const faceAdminApi = faceGeometryApi.injectEndpoints({
  endpoints: (build) => ({
    updateFaceGeometry: build.mutation<FaceWithGeometry, { id: string; body: FaceGeometryUpdate }>({
      query: ({ id, body }) => ({ url: `/api/admin/faces/${encodeURIComponent(id)}/geometry`, method: 'PUT', body }),
      extraOptions: { silent: true },
      invalidatesTags: ['FaceGeometry'],
    }),
    // The face's time zone and operating hours (issue 28), which its screen plays by.
    updateFaceHours: build.mutation<FaceWithGeometry, { id: string; body: FaceHoursUpdate }>({
      query: ({ id, body }) => ({ url: `/api/admin/faces/${encodeURIComponent(id)}/hours`, method: 'PUT', body }),
      extraOptions: { silent: true },
      invalidatesTags: ['FaceGeometry'],
    }),
  }),
})

export const { useUpdateFaceGeometryMutation, useUpdateFaceHoursMutation } = faceAdminApi
export { useFacesWithGeometryQuery } from '../shared/faceGeometryApi'
