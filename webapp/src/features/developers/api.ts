import { api } from '../../platform/api'
import type { APIKey, CreateAPIKeyRequest, CreatedAPIKey, MessageResponse } from '../../platform/api-types/identity'
import type { Page } from '../../platform/api-types/pagination'

// The API key calls of docs/api.md ("Authentication").
export const keysApi = api.enhanceEndpoints({ addTagTypes: ['ApiKeys'] }).injectEndpoints({
  endpoints: (build) => ({
    apiKeys: build.query<APIKey[], void>({
      query: () => '/api/api-keys/',
      providesTags: ['ApiKeys'],
    }),
    createApiKey: build.mutation<CreatedAPIKey, CreateAPIKeyRequest>({
      query: (body) => ({ url: '/api/api-keys/', method: 'POST', body }),
      invalidatesTags: ['ApiKeys'],
    }),
    revokeApiKey: build.mutation<MessageResponse, string>({
      query: (id) => ({ url: `/api/api-keys/${encodeURIComponent(id)}`, method: 'DELETE' }),
      invalidatesTags: ['ApiKeys'],
    }),
    adminApiKeys: build.query<Page<APIKey>, { page: number; company?: string }>({
      query: ({ page, company }) => ({ url: '/api/admin/api-keys/', params: { page, page_size: 50, ...(company ? { company } : {}) } }),
      providesTags: ['ApiKeys'],
    }),
    adminRevokeApiKey: build.mutation<MessageResponse, string>({
      query: (id) => ({ url: `/api/admin/api-keys/${encodeURIComponent(id)}`, method: 'DELETE' }),
      invalidatesTags: ['ApiKeys'],
    }),
  }),
})

export const { useApiKeysQuery, useCreateApiKeyMutation, useRevokeApiKeyMutation, useAdminApiKeysQuery, useAdminRevokeApiKeyMutation } = keysApi

/** "mq_live_ab12…": the part of a key that is kept, so a person can tell keys apart. */
export const shownPrefix = (key: APIKey) => `${key.prefix}…`

export function lastUse(key: APIKey): string {
  if (!key.last_used_at) return 'Never used'
  return `${new Date(key.last_used_at).toLocaleString()} from ${key.last_used_ip}`
}
