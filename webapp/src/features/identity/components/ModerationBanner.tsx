import { useDispatch, useSelector } from 'react-redux'
import { useNavigate } from 'react-router'
import { flashShown } from '../../../platform/flash/flash'
import { errorMessage } from '../../../platform/http'
import { selectModerator, selectUser, sessionEnded, signedIn } from '../../../platform/session'
import { useModerateSignOutMutation } from '../adminApi'

/**
 * B §2 "authorize a moderator": while an admin is signed in as a user, every page says whose
 * account it is and offers the way back to the admin's own session.
 */
export default function ModerationBanner() {
  const user = useSelector(selectUser)
  const [signOut, { isLoading }] = useModerateSignOutMutation()
  const dispatch = useDispatch()
  const navigate = useNavigate()
  const moderator = useSelector(selectModerator)
  if (!user || !moderator) return null
  const name = `${user.local.first_name ?? ''} ${user.local.last_name ?? ''}`.trim() || user.local.email

  const onReturn = async () => {
    try {
      const answer = await signOut().unwrap()
      if (!answer.user) {
        // The admin's own session ended meanwhile: both are gone, sign in again.
        dispatch(sessionEnded('logout'))
        dispatch(flashShown(answer.message, 'danger'))
        void navigate('/login', { replace: true })
        return
      }
      dispatch(signedIn({ user: answer.user }))
      dispatch(flashShown(answer.message, 'success'))
      void navigate('/admin/companies', { replace: true })
    } catch (error) {
      dispatch(flashShown(errorMessage(error), 'danger'))
    }
  }

  return (
    <div role="region" aria-label="Signed in as another user" className="flex flex-col gap-2 bg-amber-100 px-4 py-2 text-sm text-amber-950 sm:flex-row sm:items-center sm:justify-between sm:px-6">
      <p>
        You are signed in as <strong>{name}</strong> ({user.local.email}) of <strong>{user.company?.name}</strong> — your own account is{' '}
        {moderator.name ? `${moderator.name} (${moderator.email})` : moderator.email}
      </p>
      <button type="button" className="btn-secondary shrink-0" onClick={onReturn} disabled={isLoading}>
        {isLoading ? 'Returning…' : 'Return to my account'}
      </button>
    </div>
  )
}
