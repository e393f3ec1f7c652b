import { api } from '../../../platform/api'
import type {
  CreateCreativeRequest,
  Creative,
  CreativeRequest,
  MessageResponse,
  SuccessResponse,
} from '../../../platform/api-types/creatives'
import type { Page } from '../../../platform/api-types/pagination'

export interface PageArgs {
  page: number
  /** 0 means all. */
  page_size: number
  /** A field, or '-field' for descending (docs/api.md "Lists"). */
  sort?: string
  q?: string
}

// The creatives calls of A §7 and the creative request (docs/api.md "Creatives"). They live in
// platform/ because campaign creation reuses them through the CreativeSelectorModal.
export const creativesApi = api.enhanceEndpoints({ addTagTypes: ['Creative'] }).injectEndpoints({
  endpoints: (build) => ({
    listCreatives: build.query<Page<Creative>, PageArgs>({
      query: (params) => ({ url: '/api/creatives/', params: { ...params } }),
      providesTags: ['Creative'],
    }),
    creativesOfSize: build.query<Creative[], { width: number; height: number }>({
      query: (params) => ({ url: '/api/creatives/size', params: { ...params } }),
      providesTags: ['Creative'],
    }),
    defaultCreative: build.query<Creative | null, void>({
      query: () => '/api/creatives/default',
      providesTags: ['Creative'],
    }),
    setDefaultCreative: build.mutation<Creative, string>({
      query: (id) => ({ url: `/api/creatives/${encodeURIComponent(id)}/default`, method: 'PUT' }),
      invalidatesTags: ['Creative'],
    }),
    createCreative: build.mutation<Creative, CreateCreativeRequest>({
      query: (body) => ({ url: '/api/creatives/', method: 'POST', body }),
      extraOptions: { silent: true },
      invalidatesTags: ['Creative'],
    }),
    deleteCreative: build.mutation<SuccessResponse, string>({
      query: (id) => ({ url: `/api/creatives/${encodeURIComponent(id)}`, method: 'DELETE' }),
      extraOptions: { silent: true },
      invalidatesTags: ['Creative'],
    }),
    requestCreative: build.mutation<MessageResponse, CreativeRequest>({
      query: (body) => ({ url: '/users/creative', method: 'POST', body }),
      extraOptions: { silent: true },
    }),
  }),
})

export const {
  useListCreativesQuery,
  useCreativesOfSizeQuery,
  useDefaultCreativeQuery,
  useSetDefaultCreativeMutation,
  useCreateCreativeMutation,
  useDeleteCreativeMutation,
  useRequestCreativeMutation,
} = creativesApi
