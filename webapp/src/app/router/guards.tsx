import { useEffect } from 'react'
import { useDispatch, useSelector } from 'react-redux'
import { Navigate, Outlet, useLocation } from 'react-router'
import { flashShown } from '../../platform/flash/flash'
import { isAdmin, isSuperAdmin, MSG_SESSION_EXPIRED, nextConsumed, selectSession } from '../../platform/session'
import Spinner from '../../platform/Spinner'

// The client-side guards of A §2, A §6 and B §6. The server enforces every rule again.

function Waiting() {
  return (
    <div className="flex min-h-[50vh] items-center justify-center">
      <Spinner label="Loading" />
    </div>
  )
}

/** A §2: public routes send a logged-in user to /dashboard (or where sign-up said to go). */
export function PublicOnly() {
  const session = useSelector(selectSession)
  if (session.status === 'unknown') return <Waiting />
  if (session.status === 'authenticated') return <Navigate to={session.next ?? '/dashboard'} replace />
  return <Outlet />
}

/**
 * A §2: logged-in routes send an anonymous user to /login with the session-expired flash (danger);
 * after a logout the logout's own message is shown instead.
 */
export function RequireAuth() {
  const session = useSelector(selectSession)
  const dispatch = useDispatch()
  const { pathname } = useLocation()
  const anonymous = session.status === 'anonymous'
  const announce = anonymous && session.endReason !== 'logout'

  useEffect(() => {
    if (announce) dispatch(flashShown(MSG_SESSION_EXPIRED, 'danger'))
  }, [announce, dispatch])

  useEffect(() => {
    if (session.next && session.next === pathname) dispatch(nextConsumed())
  }, [session.next, pathname, dispatch])

  if (session.status === 'unknown') return <Waiting />
  if (anonymous) return <Navigate to="/login" replace />
  return <Outlet />
}

/** B §6: a super admin goes to /admin/dashboard, an admin to /admin/users; users pass. */
export function NotSuperAdmin() {
  const { user } = useSelector(selectSession)
  if (isAdmin(user)) return <Navigate to={homeOf(user)} replace />
  return <Outlet />
}

/** B §6: admins and super admins pass; others (and a user without a local record) go to /dashboard. */
export function RequireAdmin() {
  const { user } = useSelector(selectSession)
  if (!user?.local || !isAdmin(user)) return <Navigate to="/dashboard" replace />
  return <Outlet />
}

/** B §6: only a super admin passes; others go to /dashboard. */
export function RequireSuperAdmin() {
  const { user } = useSelector(selectSession)
  if (!user?.local || !isSuperAdmin(user)) return <Navigate to="/dashboard" replace />
  return <Outlet />
}

/** Where a signed-in user belongs (B §6): a super admin's dashboard, an admin's users, a user's dashboard. */
function homeOf(user: Parameters<typeof isAdmin>[0]): string {
  if (isSuperAdmin(user)) return '/admin/dashboard'
  if (isAdmin(user)) return '/admin/users'
  return '/dashboard'
}

/**
 * B §2 "Partner program", B §6: the partner screens are for regular users of a company of one of
 * `types` (ambassador, certified). Anyone else goes home before the screen mounts, so no call of
 * the screen is refused. The server enforces the same rules.
 */
export function RequireCompanyType({ types }: { types: readonly string[] }) {
  const { user } = useSelector(selectSession)
  if (!user?.local || isAdmin(user) || !types.includes(user.company?.type ?? '')) return <Navigate to={homeOf(user)} replace />
  return <Outlet />
}
