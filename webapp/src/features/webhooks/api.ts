import { api } from '../../platform/api'
import type {
  DeliveriesResponse,
  EndpointRequest,
  EndpointResponse,
  EndpointsResponse,
  MessageResponse,
  SecretResponse,
} from '../../platform/api-types/webhooks'

// The webhook endpoint calls of /settings → API (docs/api.md "Webhooks").
export const webhooksApi = api.enhanceEndpoints({ addTagTypes: ['WebhookEndpoint', 'WebhookDelivery'] }).injectEndpoints({
  endpoints: (build) => ({
    webhookEndpoints: build.query<EndpointsResponse, void>({
      query: () => '/api/webhooks',
      providesTags: ['WebhookEndpoint'],
    }),
    createWebhookEndpoint: build.mutation<EndpointResponse, EndpointRequest>({
      query: (body) => ({ url: '/api/webhooks', method: 'POST', body }),
      invalidatesTags: ['WebhookEndpoint'],
    }),
    updateWebhookEndpoint: build.mutation<EndpointResponse, { id: string; body: EndpointRequest }>({
      query: ({ id, body }) => ({ url: `/api/webhooks/${encodeURIComponent(id)}`, method: 'PUT', body }),
      invalidatesTags: ['WebhookEndpoint'],
    }),
    deleteWebhookEndpoint: build.mutation<MessageResponse, string>({
      query: (id) => ({ url: `/api/webhooks/${encodeURIComponent(id)}`, method: 'DELETE' }),
      invalidatesTags: ['WebhookEndpoint', 'WebhookDelivery'],
    }),
    webhookSecret: build.mutation<SecretResponse, string>({
      query: (id) => ({ url: `/api/webhooks/${encodeURIComponent(id)}/secret` }),
    }),
    webhookDeliveries: build.query<DeliveriesResponse, string>({
      query: (id) => `/api/webhooks/${encodeURIComponent(id)}/deliveries`,
      providesTags: (_r, _e, id) => [{ type: 'WebhookDelivery', id }],
    }),
    redeliverWebhook: build.mutation<MessageResponse, { endpointId: string; deliveryId: string }>({
      query: ({ endpointId, deliveryId }) => ({
        url: `/api/webhooks/${encodeURIComponent(endpointId)}/deliveries/${encodeURIComponent(deliveryId)}/redeliver`,
        method: 'POST',
      }),
      invalidatesTags: (_r, _e, { endpointId }) => [{ type: 'WebhookDelivery', id: endpointId }],
    }),
    sendWebhookTest: build.mutation<MessageResponse, string>({
      query: (id) => ({ url: `/api/webhooks/${encodeURIComponent(id)}/test`, method: 'POST' }),
      invalidatesTags: (_r, _e, id) => [{ type: 'WebhookDelivery', id }],
    }),
  }),
})

export const {
  useWebhookEndpointsQuery,
  useCreateWebhookEndpointMutation,
  useUpdateWebhookEndpointMutation,
  useDeleteWebhookEndpointMutation,
  useWebhookSecretMutation,
  useWebhookDeliveriesQuery,
  useRedeliverWebhookMutation,
  useSendWebhookTestMutation,
} = webhooksApi
