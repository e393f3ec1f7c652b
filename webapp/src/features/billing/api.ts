import { api } from '../../platform/api'
import type { Page } from '../../platform/api-types/pagination'
import type { CreatePromoRequest, Promo, PromoRedemption, PromoResponse, PromoStatusResponse, Transaction } from '../../platform/api-types/billing'

export interface PromoListArgs {
  page: number
  /** 0 means all rows. */
  page_size: number
  q: string
  /** A field, '-field' for descending; '' for the server's order (newest first). */
  sort: string
}

// The super admin's promo calls (docs/api.md "Billing", B §7 "Promos").
export const promoAdminApi = api.enhanceEndpoints({ addTagTypes: ['Promo'] }).injectEndpoints({
  endpoints: (build) => ({
    promos: build.query<Page<Promo>, PromoListArgs>({
      query: ({ page, page_size, q, sort }) => ({ url: '/api/admin/promo/', params: { page, page_size, q: q || undefined, sort: sort || undefined } }),
      providesTags: ['Promo'],
    }),
    createPromo: build.mutation<PromoResponse, CreatePromoRequest>({
      query: (body) => ({ url: '/api/admin/promo/', method: 'POST', body }),
      // B §8: the screen reports every failure with its own wording.
      extraOptions: { silent: true },
      invalidatesTags: ['Promo'],
    }),
    cancelPromo: build.mutation<PromoStatusResponse, string>({
      query: (id) => ({ url: `/api/admin/promo/${encodeURIComponent(id)}`, method: 'DELETE' }),
      invalidatesTags: ['Promo'],
    }),
    enablePromo: build.mutation<PromoStatusResponse, string>({
      query: (id) => ({ url: `/api/admin/promo/${encodeURIComponent(id)}`, method: 'PUT' }),
      invalidatesTags: ['Promo'],
    }),
    // A promo's companies change whenever someone redeems it: never served from the cache.
    promoCompanies: build.query<PromoRedemption[], string>({
      query: (id) => `/api/admin/promo/${encodeURIComponent(id)}/companies`,
      keepUnusedDataFor: 0,
    }),
    // The read-only ledger of charges, refunds and credit movements (newest first by default).
    transactions: build.query<Page<Transaction>, { page: number; page_size: number; sort: string }>({
      query: ({ page, page_size, sort }) => ({ url: '/api/admin/transactions', params: { page, page_size, sort: sort || undefined } }),
      providesTags: ['Promo'],
    }),
  }),
})

export const {
  usePromosQuery,
  useCreatePromoMutation,
  useCancelPromoMutation,
  useEnablePromoMutation,
  usePromoCompaniesQuery,
  useTransactionsQuery,
} = promoAdminApi
