import { api } from '../../../platform/api'
import type { Location } from '../../../platform/api-types/locations'
import type { Point } from './cornerRules'

/** A face's geometry as GET /api/od/locations/ gives it (issue 29). */
export interface FaceGeometry {
  width_ft: number
  height_ft: number
  pixel_width: number
  pixel_height: number
  distance_class: string
  viewing_distance_ft: number
  speed_mph: number
  photo: string
  photo_width: number
  photo_height: number
  corners: Point[]
}

export type FaceWithGeometry = Location & { geometry?: FaceGeometry }

/** The body of PUT /api/admin/faces/{id}/geometry. */
export interface FaceGeometryUpdate {
  width_ft: number
  height_ft: number
  pixel_width: number
  pixel_height: number
  distance_class: string
  corners: Point[]
}

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
