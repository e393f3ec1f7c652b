import { useEffect, useRef, useState } from 'react'
import { useDispatch, useSelector } from 'react-redux'
import { Link, NavLink, Outlet, useLocation, useNavigate } from 'react-router'
import { useLogoutMutation } from '../../features/identity/api'
import ModerationBanner, { useModerationEnded } from '../../features/identity/components/ModerationBanner'
import { CompanyCertified, MsgLoggedOut, type User } from '../../platform/api-types/identity'
import { flashShown } from '../../platform/flash/flash'
import Logo from '../../platform/Logo'
import Confirm from '../../platform/Confirm'
import PartnerBadge from '../../features/partners/shared/PartnerBadge'
import { isAdmin, isAmbassador, isSuperAdmin, selectModerator, selectUser, sessionEnded } from '../../platform/session'
import { useRouteMenu } from '../../platform/useRouteMenu'

interface NavItem {
  to: string
  label: string
  icon: string
}

// Outline icon paths (24×24).
const ICONS = {
  home: 'M3 11l9-7 9 7v9a1 1 0 0 1-1 1h-5v-6h-6v6H4a1 1 0 0 1-1-1z',
  megaphone: 'M3 11v2a1 1 0 0 0 1 1h3l5 4V6L7 10H4a1 1 0 0 0-1 1zm13-3a5 5 0 0 1 0 8',
  image: 'M4 5h16v14H4zM4 15l4-4 4 4 3-3 5 5M15 9h.01',
  folder: 'M3 7a2 2 0 0 1 2-2h4l2 2h8a2 2 0 0 1 2 2v8a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2z',
  chart: 'M4 20V10m6 10V4m6 16v-7m4 7H3',
  cog: 'M12 15a3 3 0 1 0 0-6 3 3 0 0 0 0 6zm7.4-3a7.4 7.4 0 0 0-.1-1.2l2-1.6-2-3.4-2.4 1a7.6 7.6 0 0 0-2-1.2L14.5 3h-5l-.4 2.6a7.6 7.6 0 0 0-2 1.2l-2.4-1-2 3.4 2 1.6a7.4 7.4 0 0 0 0 2.4l-2 1.6 2 3.4 2.4-1a7.6 7.6 0 0 0 2 1.2l.4 2.6h5l.4-2.6a7.6 7.6 0 0 0 2-1.2l2.4 1 2-3.4-2-1.6c.1-.4.1-.8.1-1.2z',
  user: 'M12 12a4 4 0 1 0 0-8 4 4 0 0 0 0 8zm-7 9a7 7 0 0 1 14 0',
  help: 'M9.1 9a3 3 0 0 1 5.8 1c0 2-3 3-3 3m.1 4h.01M21 12a9 9 0 1 1-18 0 9 9 0 0 1 18 0z',
  send: 'M22 2 11 13M22 2l-7 20-4-9-9-4z',
  ticket: 'M3 8a2 2 0 0 0 2-2h14a2 2 0 0 0 2 2v2a2 2 0 0 0 0 4v2a2 2 0 0 0-2 2H5a2 2 0 0 0-2-2v-2a2 2 0 0 0 0-4z',
  hub: 'M12 3l8 4.5v9L12 21l-8-4.5v-9zM12 12l8-4.5M12 12v9M12 12 4 7.5',
  users: 'M17 20v-2a4 4 0 0 0-4-4H7a4 4 0 0 0-4 4v2m18 0v-2a4 4 0 0 0-3-3.9M14 4.1a4 4 0 0 1 0 7.8M10 11a4 4 0 1 0 0-8 4 4 0 0 0 0 8z',
  building: 'M4 21V5a2 2 0 0 1 2-2h8a2 2 0 0 1 2 2v16m0-10h2a2 2 0 0 1 2 2v8M8 7h4m-4 4h4m-4 4h4M2 21h20',
  tag: 'M20.6 13.4 13.4 20.6a2 2 0 0 1-2.8 0L3 13V3h10l7.6 7.6a2 2 0 0 1 0 2.8zM7.5 7.5h.01',
  list: 'M9 6h11M9 12h11M9 18h11M4 6h.01M4 12h.01M4 18h.01',
  screen: 'M3 5h18v11H3zM8 20h8M12 16v4',
  star: 'M12 3l2.8 5.7 6.2.9-4.5 4.4 1.1 6.2L12 17.3 6.4 20.2l1.1-6.2L3 9.6l6.2-.9z',
}

// Every role's own account pages.
const ACCOUNT_ITEMS: NavItem[] = [
  { to: '/settings', label: 'Settings', icon: ICONS.cog },
  { to: '/profile', label: 'Profile', icon: ICONS.user },
  { to: '/faq', label: 'FAQ', icon: ICONS.help },
]

/** The navigation for the user's role (A §6, B §6). */
export function navigationFor(user: User | null): NavItem[] {
  if (isAdmin(user)) {
    const items: NavItem[] = [
      { to: '/admin/campaigns', label: 'Campaigns', icon: ICONS.megaphone },
      { to: '/admin/users', label: 'Users', icon: ICONS.users },
      { to: '/admin/companies', label: 'Companies', icon: ICONS.building },
      { to: '/admin/reports', label: 'Reports', icon: ICONS.chart },
      { to: '/admin/faces', label: 'Faces', icon: ICONS.image },
      // Issue 28 §6: the paired players and their health.
      { to: '/admin/screens', label: 'Screens', icon: ICONS.screen },
      { to: '/admin/screens/imports', label: 'Imports', icon: ICONS.list },
      // A §6: admins manage the content library (its management actions are theirs alone).
      { to: '/content', label: 'Content', icon: ICONS.folder },
    ]
    if (isSuperAdmin(user)) {
      items.push({ to: '/admin/promos', label: 'Promos', icon: ICONS.tag }, { to: '/admin/special-users', label: 'Special users', icon: ICONS.star })
    }
    // The audit log, and an admin's own profile (where the password is changed),
    // settings and help.
    items.push({ to: '/admin/audit', label: 'Audit log', icon: ICONS.list }, { to: '/admin/api-keys', label: 'API keys', icon: ICONS.list }, ...ACCOUNT_ITEMS)
    return items
  }
  const items: NavItem[] = [
    { to: '/dashboard', label: 'Dashboard', icon: ICONS.home },
    { to: '/campaigns', label: 'Campaigns', icon: ICONS.megaphone },
    { to: '/creatives', label: 'Creatives', icon: ICONS.image },
    { to: '/content', label: 'Content', icon: ICONS.folder },
    { to: '/reports', label: 'Reports', icon: ICONS.chart },
  ]
  // B §2 "Partner program": an ambassador invites and sees its codes redeemed; both partner kinds
  // see their linked campaigns and the hub; a certified company's users take the exam.
  if (isAmbassador(user)) {
    items.push({ to: '/invite', label: 'Invite', icon: ICONS.send }, { to: '/codes-redeemed', label: 'Codes redeemed', icon: ICONS.ticket })
  }
  if (isAmbassador(user) || user?.company?.type === CompanyCertified) {
    items.push({ to: '/campaings-linked', label: 'Linked campaigns', icon: ICONS.list }, { to: '/admin/hub', label: 'Hub', icon: ICONS.hub })
  }
  if (user?.company?.type === CompanyCertified) items.push({ to: '/admin/special-users/exam', label: 'Certification exam', icon: ICONS.star })
  items.push(...ACCOUNT_ITEMS)
  return items
}

function Icon({ path }: { path: string }) {
  return (
    <svg aria-hidden="true" viewBox="0 0 24 24" className="h-5 w-5 shrink-0" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" strokeLinejoin="round">
      <path d={path} />
    </svg>
  )
}

function initials(user: User): string {
  const letters = `${user.local?.first_name?.[0] ?? ''}${user.local?.last_name?.[0] ?? ''}`.trim()
  return (letters || user.local?.email?.[0] || '?').toUpperCase()
}

/** B §6: an admin shows a different avatar. */
function Avatar({ user }: { user: User }) {
  if (isAdmin(user)) {
    return (
      <span className="flex h-9 w-9 items-center justify-center rounded-lg bg-slate-900 text-marquee-400" title={isSuperAdmin(user) ? 'Super admin' : 'Admin'}>
        <svg aria-hidden="true" viewBox="0 0 24 24" className="h-5 w-5" fill="none" stroke="currentColor" strokeWidth="2" strokeLinejoin="round">
          <path d="M12 3l7 3v5c0 4.5-3 8.5-7 10-4-1.5-7-5.5-7-10V6z" />
        </svg>
        <span className="sr-only">{isSuperAdmin(user) ? 'Super admin' : 'Admin'}</span>
      </span>
    )
  }
  return (
    <span aria-hidden="true" className="flex h-9 w-9 items-center justify-center rounded-full bg-brand-100 text-sm font-semibold text-brand-800">
      {initials(user)}
    </span>
  )
}

function Badges({ user }: { user: User }) {
  return (
    <>
      {isAmbassador(user) && <span className="rounded-full bg-marquee-300/50 px-2 py-0.5 text-xs font-medium text-amber-900">Ambassador</span>}
      <PartnerBadge />
      {isAdmin(user) && (
        <span className="rounded-full bg-slate-900 px-2 py-0.5 text-xs font-medium text-white">{isSuperAdmin(user) ? 'Super admin' : 'Admin'}</span>
      )}
    </>
  )
}

function NavList({ items }: { items: NavItem[] }) {
  return (
    <ul className="space-y-1">
      {items.map((item) => (
        <li key={item.to}>
          <NavLink
            to={item.to}
            className={({ isActive }) =>
              `flex items-center gap-3 rounded-lg px-3 py-2 text-sm font-medium ${
                isActive ? 'bg-brand-700 text-white' : 'text-slate-300 hover:bg-white/10 hover:text-white'
              }`
            }
          >
            <Icon path={item.icon} />
            {item.label}
          </NavLink>
        </li>
      ))}
    </ul>
  )
}

/** The logged-in frame: navigation for the role, the company, badges and logout. */
export default function AppLayout() {
  const user = useSelector(selectUser)
  const dispatch = useDispatch()
  const navigate = useNavigate()
  const { pathname } = useLocation()
  const [logout, { isLoading: leaving }] = useLogoutMutation()
  const moderator = useSelector(selectModerator)
  const moderationEnded = useModerationEnded()
  // Logging out of a moderated session returns to the admin's own account: asked first, so the
  // admin is never signed out by surprise.
  const [confirmLogout, setConfirmLogout] = useState(false)
  const menuButton = useRef<HTMLButtonElement>(null)
  const closeButton = useRef<HTMLButtonElement>(null)
  const [menuOpen, setMenuOpen] = useRouteMenu(pathname)
  // The phone menu takes the focus when it opens and gives it back to its button when closed.
  useEffect(() => {
    if (menuOpen) closeButton.current?.focus()
  }, [menuOpen])
  const closeMenu = () => {
    setMenuOpen(false)
    menuButton.current?.focus()
  }

  if (!user) return null
  const items = navigationFor(user)
  const fullName = `${user.local?.first_name ?? ''} ${user.local?.last_name ?? ''}`.trim()
  const home = isAdmin(user) ? '/admin/campaigns' : '/dashboard'

  const onLogout = async () => {
    if (moderator && !confirmLogout) {
      setConfirmLogout(true)
      return
    }
    const result = await logout()
    setConfirmLogout(false)
    // A network or server failure is already reported; the session is still there.
    if ('error' in result && result.error && 'status' in result.error && (result.error.status === 0 || result.error.status >= 500)) return
    if (moderator && 'data' in result && result.data) {
      moderationEnded({ message: result.data.message, user: result.data.user })
      return
    }
    const message = 'data' in result && result.data?.message ? result.data.message : MsgLoggedOut
    dispatch(sessionEnded('logout'))
    dispatch(flashShown(message, 'success'))
    void navigate('/login', { replace: true })
  }

  const sidebar = (
    <div className="flex h-full flex-col bg-slate-900 px-3 py-4">
      <Link to={home} className="mb-6 px-2" aria-label="Marquee home">
        <Logo light />
      </Link>
      <nav aria-label="Main" className="flex-1 overflow-y-auto">
        <NavList items={items} />
      </nav>
      <button type="button" className="mt-4 flex items-center gap-3 rounded-lg px-3 py-2 text-sm font-medium text-slate-300 hover:bg-white/10 hover:text-white" onClick={onLogout} disabled={leaving}>
        <Icon path="M9 21H5a2 2 0 0 1-2-2V5a2 2 0 0 1 2-2h4M16 17l5-5-5-5M21 12H9" />
        Logout
      </button>
    </div>
  )

  return (
    <div className="min-h-screen bg-slate-50 lg:flex">
      {/* A column of the page's own height (its dark background runs to the bottom of a long page,
          also in a full-page capture), with the menu itself sticky in the first screen. A fixed
          aside was only one screen tall. */}
      <aside data-testid="app-sidebar" className="hidden w-64 shrink-0 bg-slate-900 lg:block">
        <div className="sticky top-0 h-screen">{sidebar}</div>
      </aside>
      {menuOpen && (
        <div className="fixed inset-0 z-40 lg:hidden" onKeyDown={(e) => e.key === 'Escape' && closeMenu()}>
          <div aria-hidden="true" className="absolute inset-0 bg-slate-900/50" onClick={closeMenu} />
          <aside id="app-menu" aria-label="Menu" className="relative h-full w-72 max-w-[85%] shadow-xl">
            <button
              ref={closeButton}
              type="button"
              className="absolute top-4 right-3 z-10 rounded-lg p-2 text-slate-300 hover:bg-white/10 hover:text-white"
              aria-label="Close menu"
              onClick={closeMenu}
            >
              <svg aria-hidden="true" viewBox="0 0 24 24" className="h-5 w-5" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round">
                <path d="M6 6l12 12M18 6 6 18" />
              </svg>
            </button>
            {sidebar}
          </aside>
        </div>
      )}
      <div className="min-w-0 flex-1">
        {/* The banner of a moderated session stays in view with the header on every page:
            both in one sticky block. */}
        <div className="sticky top-0 z-30">
        <ModerationBanner />
        <header className="flex h-16 items-center gap-3 border-b border-slate-200 bg-white/90 px-4 backdrop-blur sm:px-6">
          <button
            ref={menuButton}
            type="button"
            className="rounded-lg p-2 text-slate-600 hover:bg-slate-100 lg:hidden"
            aria-expanded={menuOpen}
            aria-controls={menuOpen ? 'app-menu' : undefined}
            aria-label="Open menu"
            onClick={() => setMenuOpen((o) => !o)}
          >
            <svg aria-hidden="true" viewBox="0 0 24 24" className="h-6 w-6" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round">
              <path d="M4 7h16M4 12h16M4 17h16" />
            </svg>
          </button>
          <div className="flex min-w-0 flex-1 flex-wrap items-center gap-2">
            <span className="truncate font-semibold text-slate-900" title="Company">
              {user.company?.name}
            </span>
            <Badges user={user} />
          </div>
          <Link
            to="/profile"
            className="flex items-center gap-2 rounded-lg p-1 hover:bg-slate-100"
          >
            <span className="sr-only">Your profile: </span>
            <span className="hidden text-right text-sm sm:block">
              {fullName && <span className="block font-medium text-slate-900">{fullName}</span>}
              <span className={fullName ? 'block text-xs text-slate-500' : 'block font-medium text-slate-900'}>{user.local?.email}</span>
            </span>
            <Avatar user={user} />
          </Link>
        </header>
        </div>
        <Confirm
          open={confirmLogout}
          title="Return to your own account?"
          message={`You are signed in as ${user.local?.email}. Logging out ends this session and takes you back to your own account${moderator?.email ? ` (${moderator.email})` : ''}.`}
          confirmText="Return to my account"
          busy={leaving}
          onConfirm={onLogout}
          onCancel={() => setConfirmLogout(false)}
        />
        <main id="main" className="mx-auto max-w-7xl px-4 py-6 sm:px-6 lg:py-8">
          <Outlet />
        </main>
      </div>
    </div>
  )
}
