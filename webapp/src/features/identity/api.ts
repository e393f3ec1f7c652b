import { api } from '../../platform/api'
import type {
  ChangePasswordRequest,
  Company,
  CompanyExistsResponse,
  CurrentUser,
  LoggedInResponse,
  MessageResponse,
  ModerateResponse,
  ResetPasswordRequest,
  SetPasswordRequest,
  SignInRequest,
  SignUpRequest,
  TokenInfoResponse,
  TourResponse,
  UserResponse,
} from '../../platform/api-types/identity'
import { userUpdated } from '../../platform/session'

// The identity calls of docs/api.md ("Identity").
export const identityApi = api.enhanceEndpoints({ addTagTypes: ['CurrentUser', 'CurrentCompany'] }).injectEndpoints({
  endpoints: (build) => ({
    loggedIn: build.query<LoggedInResponse, void>({
      query: () => '/users/loggedin',
      keepUnusedDataFor: 0,
    }),
    // A moderated session also names the admin acting as the user.
    currentUser: build.query<CurrentUser, void>({
      query: () => '/users/currentUser',
      providesTags: ['CurrentUser'],
      async onQueryStarted(_, { dispatch, queryFulfilled }) {
        try {
          const { data } = await queryFulfilled
          dispatch(userUpdated(data))
        } catch {
          // The failure is the caller's to report.
        }
      },
    }),
    currentCompany: build.query<Company, void>({
      query: () => '/companies/currentCompany',
      providesTags: ['CurrentCompany'],
    }),
    companyExists: build.query<CompanyExistsResponse, string>({
      query: (name) => ({ url: '/company-exists', params: { name } }),
      keepUnusedDataFor: 0,
    }),
    signup: build.mutation<UserResponse, SignUpRequest>({
      query: (body) => ({ url: '/signup', method: 'POST', body }),
    }),
    signin: build.mutation<UserResponse, SignInRequest>({
      query: (body) => ({ url: '/signin', method: 'POST', body }),
    }),
    // A GET that ends the session: it carries the XHR header like every call (docs/api.md "CSRF").
    // In a moderated session it returns to the admin's own account and says so (a ModerateResponse
    // with the admin in `user`).
    logout: build.mutation<MessageResponse & Partial<Pick<ModerateResponse, 'user'>>, void>({
      query: () => '/users/logout',
    }),
    resetPassword: build.mutation<MessageResponse, ResetPasswordRequest>({
      query: (body) => ({ url: '/users/reset-password', method: 'POST', body }),
    }),
    tokenInfo: build.query<TokenInfoResponse, string>({
      query: (token) => `/users/token/${encodeURIComponent(token)}`,
      keepUnusedDataFor: 0,
    }),
    setPassword: build.mutation<MessageResponse, SetPasswordRequest>({
      query: (body) => ({ url: '/users/setPassword', method: 'POST', body }),
    }),
    accessInfo: build.query<TokenInfoResponse, string>({
      query: (token) => ({ url: '/api/users/get-password', params: { token } }),
      keepUnusedDataFor: 0,
    }),
    setFirstPassword: build.mutation<UserResponse, SetPasswordRequest>({
      query: (body) => ({ url: '/users/set-first-password', method: 'POST', body }),
    }),
    changePassword: build.mutation<MessageResponse, ChangePasswordRequest>({
      query: (body) => ({ url: '/users/password', method: 'PUT', body }),
    }),
    // The tour-flag calls change state on GET, so they are mutations here.
    disableTour: build.mutation<TourResponse, void>({
      query: () => '/users/disable-tour',
      invalidatesTags: ['CurrentUser'],
    }),
    enableTour: build.mutation<TourResponse, void>({
      query: () => '/users/enable-tour',
      invalidatesTags: ['CurrentUser'],
    }),
  }),
})

export const {
  useLoggedInQuery,
  useCurrentUserQuery,
  useCurrentCompanyQuery,
  useLazyCompanyExistsQuery,
  useSignupMutation,
  useSigninMutation,
  useLogoutMutation,
  useResetPasswordMutation,
  useTokenInfoQuery,
  useSetPasswordMutation,
  useAccessInfoQuery,
  useSetFirstPasswordMutation,
  useChangePasswordMutation,
  useDisableTourMutation,
  useEnableTourMutation,
} = identityApi
