import { api } from '../../platform/api'
import type { InviteRequest, InviteResponse, MessageResponse, UpdateUserRequest, User, UserResult } from '../../platform/api-types/identity'

const id = (value: string) => encodeURIComponent(value)

// The profile and team-member calls (B §2 "Settings and profile", B §7 "Users";
// docs/api.md "Identity").
export const accountApi = api.enhanceEndpoints({ addTagTypes: ['UserProfile', 'TeamMembers', 'AdminUser', 'AuditEntry'] }).injectEndpoints({
  endpoints: (build) => ({
    userProfile: build.query<User, string>({
      query: (userId) => `/api/users/${id(userId)}`,
      providesTags: (_r, _e, userId) => [{ type: 'UserProfile', id: userId }],
    }),
    updateUser: build.mutation<UserResult, { id: string; body: UpdateUserRequest }>({
      query: ({ id: userId, body }) => ({ url: `/api/users/${id(userId)}`, method: 'PUT', body }),
      // The form shows the failure inline, with the fields the server names.
      extraOptions: { silent: true },
      invalidatesTags: (_r, _e, { id: userId }) => [{ type: 'UserProfile', id: userId }, 'TeamMembers', 'AdminUser', 'AuditEntry'],
    }),
    // The users of the caller's company.
    teamMembers: build.query<User[], void>({
      query: () => '/api/team-members/',
      providesTags: ['TeamMembers'],
    }),
    inviteTeamMembers: build.mutation<InviteResponse, Omit<InviteRequest, 'user'>>({
      query: (body) => ({ url: '/api/team-members/', method: 'POST', body }),
      extraOptions: { silent: true },
      invalidatesTags: ['TeamMembers'],
    }),
    // The company's owner removes a member, or mails an invited one a new link.
    removeTeamMember: build.mutation<MessageResponse, string>({
      query: (userId) => ({ url: `/api/team-members/${id(userId)}`, method: 'DELETE' }),
      extraOptions: { silent: true },
      invalidatesTags: ['TeamMembers', 'AdminUser', 'AuditEntry'],
    }),
    resendTeamInvite: build.mutation<MessageResponse, string>({
      query: (userId) => ({ url: `/api/team-members/${id(userId)}/resend`, method: 'POST' }),
      extraOptions: { silent: true },
    }),
  }),
})

export const {
  useUserProfileQuery,
  useUpdateUserMutation,
  useTeamMembersQuery,
  useInviteTeamMembersMutation,
  useRemoveTeamMemberMutation,
  useResendTeamInviteMutation,
} = accountApi
