import type { ReactNode } from 'react'
import { Link, NavLink } from 'react-router'
import Logo from './Logo'
import { useRouteMenu } from './useRouteMenu'

export interface SiteHeaderProps {
  /** The main links, on wide screens and in the phone menu. */
  nav: readonly { to: string; label: string }[]
  /** The id of the phone menu. */
  menuId: string
  /** Where the phone menu belongs: it closes when this changes. */
  at: string
  /** The account links, with the classes of the wide header or of the phone menu. */
  account: (className: string, loginClass: string) => ReactNode
  /** The header's background. */
  background: string
  /** The text colour of the links and the menu button. */
  tone: string
}

/** The header of the pages read signed out: the logo, the main links, the account links, and a phone menu. */
export default function SiteHeader({ nav, menuId, at, account, background, tone }: SiteHeaderProps) {
  const [menuOpen, setMenuOpen] = useRouteMenu(at)
  const navClass = ({ isActive }: { isActive: boolean }) => `rounded-lg px-3 py-2 text-sm font-medium ${isActive ? 'text-brand-700' : `${tone} hover:text-slate-900`}`
  const links = (className: string) => (
    <nav aria-label="Main" className={className}>
      {nav.map((item) => (
        <NavLink key={item.to} to={item.to} className={navClass}>
          {item.label}
        </NavLink>
      ))}
    </nav>
  )
  return (
    <header className={`sticky top-0 z-30 border-b border-slate-200 ${background}`}>
      <div className="mx-auto flex h-16 max-w-7xl items-center justify-between gap-4 px-4 sm:px-6">
        <Link to="/" aria-label="Marquee home">
          <Logo />
        </Link>
        {links('hidden items-center gap-1 md:flex')}
        {account('hidden items-center gap-2 md:flex', 'btn-ghost')}
        <button
          type="button"
          className={`rounded-lg p-2 ${tone} hover:bg-slate-100 md:hidden`}
          aria-expanded={menuOpen}
          aria-controls={menuId}
          aria-label={menuOpen ? 'Close menu' : 'Open menu'}
          onClick={() => setMenuOpen((o) => !o)}
        >
          <svg aria-hidden="true" viewBox="0 0 24 24" className="h-6 w-6" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round">
            {menuOpen ? <path d="M6 6l12 12M18 6 6 18" /> : <path d="M4 7h16M4 12h16M4 17h16" />}
          </svg>
        </button>
      </div>
      {menuOpen && (
        <div id={menuId} className="border-t border-slate-200 px-4 pt-2 pb-4 md:hidden">
          {links('flex flex-col')}
          {account('mt-3 grid grid-cols-2 gap-2', 'btn-secondary')}
        </div>
      )}
    </header>
  )
}

/** Login and Register, for someone not signed in. */
export function SignedOutLinks({ className, loginClass }: { className: string; loginClass: string }) {
  return (
    <div className={className}>
      <Link to="/login" className={loginClass}>
        Login
      </Link>
      <Link to="/register" className="btn-primary">
        Register
      </Link>
    </div>
  )
}
