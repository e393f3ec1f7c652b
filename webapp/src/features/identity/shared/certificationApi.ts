import { api } from '../../../platform/api'
import type { UserResult } from '../../../platform/api-types/identity'

// A user's certification, set from two admin grids: identity's users (/admin/users) and partners'
// special users (/admin/special-users). Certification is PUT /api/users/{id} with `certified` alone
// (docs/api.md "Identity").
export const certificationApi = api
  .enhanceEndpoints({ addTagTypes: ['AdminUser', 'AuditEntry', 'UserProfile'] })
  .injectEndpoints({
    endpoints: (build) => ({
      setCertification: build.mutation<UserResult, { id: string; certified: boolean }>({
        query: ({ id: userId, certified }) => ({ url: `/api/users/${encodeURIComponent(userId)}`, method: 'PUT', body: { certified } }),
        extraOptions: { silent: true },
        invalidatesTags: (_r, _e, { id: userId }) => ['AdminUser', 'AuditEntry', { type: 'UserProfile', id: userId }],
      }),
    }),
  })

export const { useSetCertificationMutation } = certificationApi
