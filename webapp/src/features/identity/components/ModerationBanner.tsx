import { useDispatch, useSelector } from 'react-redux'
import { useNavigate } from 'react-router'
import type { ModerateResponse } from '../../../platform/api-types/identity'
import { flashesCleared, flashShown } from '../../../platform/flash/flash'
import { errorMessage } from '../../../platform/http'
import { selectModerator, selectUser, sessionEnded, signedIn } from '../../../platform/session'
import { useModerateSignOutMutation } from '../adminApi'

/**
 * What the browser does once a moderated session has ended (the banner's way back, or a logout
 * inside it: the server answers both the same way): the user's toasts go (they
 * are not the admin's), and the admin is back in their own account, or asked to sign in again when it ended
 * meanwhile.
 */
export function useModerationEnded() {
  const dispatch = useDispatch()
  const navigate = useNavigate()
  return (answer: Pick<ModerateResponse, 'message' | 'user'>) => {
    dispatch(flashesCleared())
    if (!answer.user) {
      dispatch(sessionEnded('logout'))
      dispatch(flashShown(answer.message, 'danger'))
      void navigate('/login', { replace: true })
      return
    }
    dispatch(signedIn({ user: answer.user }))
    dispatch(flashShown(answer.message, 'success'))
    void navigate('/admin/companies', { replace: true })
  }
}

/**
 * B §2 "authorize a moderator": while an admin is signed in as a user, every page says whose
 * account it is and offers the way back to the admin's own session. AppLayout keeps it in view
 * (sticky, with the header) on every page.
 */
export default function ModerationBanner() {
  const user = useSelector(selectUser)
  const [signOut, { isLoading }] = useModerateSignOutMutation()
  const dispatch = useDispatch()
  const ended = useModerationEnded()
  const moderator = useSelector(selectModerator)
  if (!user || !moderator) return null
  const name = `${user.local.first_name ?? ''} ${user.local.last_name ?? ''}`.trim() || user.local.email

  const onReturn = async () => {
    try {
      ended(await signOut().unwrap())
    } catch (error) {
      dispatch(flashShown(errorMessage(error), 'danger'))
    }
  }

  return (
    <div
      role="region"
      aria-label="Signed in as another user"
      data-testid="moderation-banner"
      className="flex items-center gap-3 border-b border-amber-300 bg-amber-100 px-4 py-2 text-sm text-amber-950 sm:px-6"
    >
      <svg aria-hidden="true" viewBox="0 0 24 24" className="hidden h-5 w-5 shrink-0 sm:block" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round">
        <path d="M12 12a4 4 0 1 0 0-8 4 4 0 0 0 0 8zm-7 9a7 7 0 0 1 14 0" />
      </svg>
      <p className="min-w-0 flex-1">
        <span className="block">
          Signed in as <strong>{name}</strong>
          <span className="hidden md:inline"> ({user.local.email})</span> of <strong>{user.company?.name}</strong>
        </span>
        <span className="block truncate text-xs text-amber-900">
          Your own account: {moderator.name ? `${moderator.name} (${moderator.email})` : moderator.email}
        </span>
      </p>
      <button type="button" className="btn-secondary shrink-0 px-3 py-1.5" onClick={onReturn} disabled={isLoading}>
        {isLoading ? 'Returning…' : 'Return to my account'}
      </button>
    </div>
  )
}
