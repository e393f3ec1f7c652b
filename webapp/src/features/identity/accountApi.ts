import { api } from '../../platform/api'
import type { User } from '../../platform/api-types/identity'
import type { MessageAnswer, TeamInviteRequest, UserProfile, UserUpdate, UserUpdateResponse } from './accountTypes'

const id = (value: string) => encodeURIComponent(value)

// The profile and team-member calls of issue 13 (B §2 "Settings and profile", B §7 "Users").
export const accountApi = api.enhanceEndpoints({ addTagTypes: ['UserProfile', 'TeamMembers', 'AdminUser'] }).injectEndpoints({
  endpoints: (build) => ({
    userProfile: build.query<UserProfile, string>({
      query: (userId) => `/api/users/${id(userId)}`,
      providesTags: (_r, _e, userId) => [{ type: 'UserProfile', id: userId }],
    }),
    updateUser: build.mutation<UserUpdateResponse, { id: string; body: UserUpdate }>({
      query: ({ id: userId, body }) => ({ url: `/api/users/${id(userId)}`, method: 'PUT', body }),
      // The form shows the failure inline, with the fields the server names.
      extraOptions: { silent: true },
      invalidatesTags: (_r, _e, { id: userId }) => [{ type: 'UserProfile', id: userId }, 'TeamMembers', 'AdminUser'],
    }),
    // B §7 GET /api/users: the users of the caller's company.
    teamMembers: build.query<User[], void>({
      query: () => '/api/users',
      transformResponse: (answer: User[] | { items: User[] }) => (Array.isArray(answer) ? answer : (answer.items ?? [])),
      providesTags: ['TeamMembers'],
    }),
    inviteTeamMembers: build.mutation<MessageAnswer, TeamInviteRequest>({
      query: (body) => ({ url: '/api/team-members/', method: 'POST', body }),
      extraOptions: { silent: true },
      invalidatesTags: ['TeamMembers'],
    }),
  }),
})

export const { useUserProfileQuery, useUpdateUserMutation, useTeamMembersQuery, useInviteTeamMembersMutation } = accountApi
