import { api } from '../../platform/api'
import type { Content, CreateContentRequest, SuccessResponse, UpdateContentRequest } from '../../platform/api-types/creatives'
import type { Page } from '../../platform/api-types/pagination'
import type { PageArgs } from './shared/api'

// The content library calls of A §7 (docs/api.md "Content"). The server filters by the caller's
// company type and keeps the management calls for admins (A §6).
export const contentApi = api.enhanceEndpoints({ addTagTypes: ['Content'] }).injectEndpoints({
  endpoints: (build) => ({
    listContents: build.query<Page<Content>, PageArgs>({
      query: (params) => ({ url: '/api/contents/', params: { ...params } }),
      providesTags: ['Content'],
    }),
    createContent: build.mutation<Content, CreateContentRequest>({
      query: (body) => ({ url: '/api/contents/', method: 'POST', body }),
      extraOptions: { silent: true },
      invalidatesTags: ['Content'],
    }),
    updateContent: build.mutation<Content, UpdateContentRequest>({
      query: (body) => ({ url: `/api/contents/${encodeURIComponent(body.id)}`, method: 'PUT', body }),
      extraOptions: { silent: true },
      invalidatesTags: ['Content'],
    }),
    deleteContent: build.mutation<SuccessResponse, string>({
      query: (id) => ({ url: `/api/contents/${encodeURIComponent(id)}`, method: 'DELETE' }),
      extraOptions: { silent: true },
      invalidatesTags: ['Content'],
    }),
    // A §4: marking one item relevant clears the flag on the others, so the whole list refreshes.
    markContentRelevant: build.mutation<Content, string>({
      query: (id) => ({ url: `/api/contents/${encodeURIComponent(id)}/relevant`, method: 'PUT' }),
      extraOptions: { silent: true },
      invalidatesTags: ['Content'],
    }),
  }),
})

export const {
  useListContentsQuery,
  useCreateContentMutation,
  useUpdateContentMutation,
  useDeleteContentMutation,
  useMarkContentRelevantMutation,
} = contentApi
