import { api } from '../../../platform/api'
import type {
  AddCardRequest,
  GatewayConfig,
  Card,
  CardResponse,
  RedeemPromoRequest,
  RedeemPromoResponse,
} from '../../../platform/api-types/billing'
import type { CurrentCompany } from '../../../platform/api-types/identity'

// The advertiser's billing calls (docs/api.md "Billing"), in platform because the settings page,
// the profile and the campaign flow all use the card and promo modals.
export const billingApi = api.enhanceEndpoints({ addTagTypes: ['Card', 'CurrentCompany', 'AdminCompany'] }).injectEndpoints({
  endpoints: (build) => ({
    billingConfig: build.query<GatewayConfig, void>({
      query: () => '/api/billing/config',
      keepUnusedDataFor: 3600,
    }),
    // No card on file answers 404; that is not a failure to flash.
    myCard: build.query<Card | null, void>({
      queryFn: async (_arg, _api, _extra, baseQuery) => {
        const result = await baseQuery('/api/cards/me')
        if (result.error) return result.error.status === 404 ? { data: null } : { error: result.error }
        return { data: result.data as Card }
      },
      providesTags: ['Card'],
    }),
    addCard: build.mutation<CardResponse, AddCardRequest>({
      query: (body) => ({ url: '/api/cards', method: 'POST', body }),
      invalidatesTags: ['Card'],
    }),
    removeCard: build.mutation<{ message: string }, void>({
      query: () => ({ url: '/api/cards/me', method: 'DELETE' }),
      invalidatesTags: ['Card'],
    }),
    // B §7: /companies/currentCompany carries the company's account_credit, in dollars.
    accountCredit: build.query<number, void>({
      query: () => '/companies/currentCompany',
      transformResponse: (company: Pick<CurrentCompany, 'account_credit'>) => company.account_credit,
      providesTags: ['CurrentCompany'],
    }),
    // The amount is added to the company's account credit, so the company is read again.
    redeemPromo: build.mutation<RedeemPromoResponse, RedeemPromoRequest>({
      query: (body) => ({ url: '/api/promo/', method: 'POST', body }),
      invalidatesTags: ['CurrentCompany'],
    }),
    // B §7: PUT /api/transactions/{id} processes a payment again.
    retryPayment: build.mutation<unknown, string>({
      query: (id) => ({ url: `/api/transactions/${encodeURIComponent(id)}`, method: 'PUT' }),
      extraOptions: { silent: true },
    }),
    // /admin/companies (B §2: remove the active promo); the company grid's credit changes with it.
    removeActivePromo: build.mutation<{ message: string }, string>({
      query: (companyId) => ({ url: `/api/admin/companies/${encodeURIComponent(companyId)}/promo`, method: 'DELETE' }),
      invalidatesTags: ['AdminCompany'],
    }),
  }),
})

export const {
  useBillingConfigQuery,
  useMyCardQuery,
  useAddCardMutation,
  useRemoveCardMutation,
  useRedeemPromoMutation,
  useRetryPaymentMutation,
  useAccountCreditQuery,
  useRemoveActivePromoMutation,
} = billingApi
