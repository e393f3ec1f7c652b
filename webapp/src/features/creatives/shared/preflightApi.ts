import { api } from '../../../platform/api'
import type { Design, PreflightReport } from './preflight'

/** POST /api/creatives/preflight with a saved creative (issue 29 "API"). */
export interface PreflightArgs {
  creative_id: string
  face_ids: string[]
}

/** The light and view of GET /api/creatives/{id}/preview. */
export type PreviewLight = 'day' | 'night'
export type PreviewView = 'photo' | 'driveby'

/** The server's PNG of a creative on a face (for a face the browser cannot draw: no geometry). */
export function previewUrl(creativeId: string, faceId: string, light: PreviewLight, view: PreviewView): string {
  const q = new URLSearchParams({ face: faceId, light, view })
  return `/api/creatives/${encodeURIComponent(creativeId)}/preview?${q}`
}

// The pre-flight calls. They are reads (nothing changes), so the creative's report is a query,
// cached per creative and faces; an uploaded file's is a mutation (a multipart body).
export const preflightApi = api.injectEndpoints({
  endpoints: (build) => ({
    creativePreflight: build.query<PreflightReport, PreflightArgs>({
      query: (body) => ({ url: '/api/creatives/preflight', method: 'POST', body }),
      // The panel shows the failure itself; a pre-flight never blocks the form it sits in.
      extraOptions: { silent: true },
    }),
    filePreflight: build.mutation<PreflightReport, { file: File; face_ids?: string[] }>({
      query: ({ file, face_ids }) => {
        const body = new FormData()
        body.append('file', file)
        if (face_ids?.length) body.append('face_ids', face_ids.join(','))
        return { url: '/api/creatives/preflight', method: 'POST', body }
      },
      extraOptions: { silent: true },
    }),
  }),
})

export const { useCreativePreflightQuery, useFilePreflightMutation } = preflightApi

/** The builder's design sent with its PNG, so the server's report of it is exact (no OCR). */
export type { Design }
