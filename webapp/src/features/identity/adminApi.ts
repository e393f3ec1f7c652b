import { api } from '../../platform/api'
import type { Page } from '../../platform/api-types/pagination'
import type { Entry } from '../../platform/api-types/audit'
import type { AdminCompany, CompanyResult, ModerateResponse, UpdateCompanyRequest, User, UserResult } from '../../platform/api-types/identity'

export interface AdminListArgs {
  page: number
  /** 0 means all rows. */
  page_size: number
  /** A field, '-field' for descending (docs/api.md "Lists"). */
  sort: string
  q: string
  /** A company's id: its users only (GET /api/admin/users/ `company`). */
  company?: string
}

export interface AuditListArgs {
  page: number
  page_size: number
  sort: string
  actor: string
  action: string
  object_type: string
  object_id: string
  /** YYYY-MM-DD, inclusive. */
  from: string
  to: string
}

const id = (value: string) => encodeURIComponent(value)
const orUndefined = (value: string) => value || undefined

// The admin calls (B §2 "Admin area", B §6, B §7). Every admin change invalidates the
// grids it shows in, so each grid shows what the server answers.
export const identityAdminApi = api
  .enhanceEndpoints({ addTagTypes: ['AdminUser', 'AdminCompany', 'AuditEntry', 'UserProfile', 'TeamMembers'] })
  .injectEndpoints({
    endpoints: (build) => ({
      adminUsers: build.query<Page<User>, AdminListArgs>({
        query: ({ page, page_size, sort, q, company }) => ({
          url: '/api/admin/users/',
          params: { page, page_size, sort: orUndefined(sort), q: orUndefined(q), company: orUndefined(company ?? '') },
        }),
        providesTags: ['AdminUser'],
      }),
      setUserEnabled: build.mutation<UserResult, { id: string; enable: boolean }>({
        query: ({ id: userId, enable }) => ({ url: `/api/users/${id(userId)}/disable`, method: 'PUT', body: { enable } }),
        extraOptions: { silent: true },
        invalidatesTags: ['AdminUser', 'AuditEntry', 'TeamMembers'],
      }),
      upgradeUser: build.mutation<UserResult, { id: string; type: string }>({
        query: ({ id: userId, type }) => ({ url: `/api/users/upgrade/${id(userId)}`, method: 'PUT', body: { type } }),
        extraOptions: { silent: true },
        invalidatesTags: ['AdminUser', 'AdminCompany', 'AuditEntry'],
      }),
      adminCompanies: build.query<Page<AdminCompany>, AdminListArgs>({
        query: ({ page, page_size, sort, q }) => ({ url: '/api/admin/companies/', params: { page, page_size, sort: orUndefined(sort), q: orUndefined(q) } }),
        providesTags: ['AdminCompany'],
      }),
      updateCompany: build.mutation<CompanyResult, { id: string; body: UpdateCompanyRequest }>({
        query: ({ id: companyId, body }) => ({ url: `/api/companies/${id(companyId)}`, method: 'PUT', body }),
        extraOptions: { silent: true },
        invalidatesTags: ['AdminCompany', 'AdminUser', 'AuditEntry'],
      }),
      // B §2 "authorize a moderator": the session cookie becomes that user's.
      moderateSignIn: build.mutation<ModerateResponse, { email: string }>({
        query: (body) => ({ url: '/moderate-signin', method: 'POST', body }),
        extraOptions: { silent: true },
      }),
      // Back to the admin's own session.
      moderateSignOut: build.mutation<ModerateResponse, void>({
        query: () => ({ url: '/moderate-signout', method: 'POST' }),
        extraOptions: { silent: true },
      }),
      auditLog: build.query<Page<Entry>, AuditListArgs>({
        query: ({ page, page_size, sort, actor, action, object_type, object_id, from, to }) => ({
          url: '/api/admin/audit/',
          params: {
            page,
            page_size,
            sort: orUndefined(sort),
            actor: orUndefined(actor),
            action: orUndefined(action),
            object_type: orUndefined(object_type),
            object_id: orUndefined(object_id),
            from: orUndefined(from),
            to: orUndefined(to),
          },
        }),
        providesTags: ['AuditEntry'],
      }),
    }),
  })

export const {
  useAdminUsersQuery,
  useSetUserEnabledMutation,
  useUpgradeUserMutation,
  useAdminCompaniesQuery,
  useUpdateCompanyMutation,
  useModerateSignInMutation,
  useModerateSignOutMutation,
  useAuditLogQuery,
} = identityAdminApi
