import { useEffect, useState, type ReactNode } from 'react'
import { useSelector } from 'react-redux'
import { Link, NavLink, useLocation } from 'react-router'
import Logo from '../../platform/Logo'
import { selectSession } from '../../platform/session'

const NAV = [
  { to: '/how-it-works', label: 'How it works' },
  { to: '/cost', label: 'Cost' },
  { to: '/locations', label: 'Locations' },
  { to: '/developers', label: 'Developers' },
]

const navClass = ({ isActive }: { isActive: boolean }) =>
  `rounded-lg px-3 py-2 text-sm font-medium ${isActive ? 'text-brand-700' : 'text-slate-700 hover:text-slate-900'}`

/**
 * /developers' frame (issue 25 §3): the app's header and navigation for everyone. /developers is
 * read signed in or not, so the account links follow the session: the dashboard when signed in,
 * Login and Register otherwise.
 */
export default function DevelopersFrame({ children }: { children: ReactNode }) {
  const [menuOpen, setMenuOpen] = useState(false)
  const { pathname, hash } = useLocation()
  useEffect(() => setMenuOpen(false), [pathname, hash])
  const { status } = useSelector(selectSession)
  const signedIn = status === 'authenticated'
  const account = (className: string, loginClass: string) =>
    signedIn ? (
      <div className={className}>
        <Link to="/dashboard" className="btn-primary">
          Back to the app
        </Link>
      </div>
    ) : (
      <div className={className}>
        <Link to="/login" className={loginClass}>
          Login
        </Link>
        <Link to="/register" className="btn-primary">
          Register
        </Link>
      </div>
    )
  return (
    <div className="flex min-h-screen flex-col bg-white">
      <header className="sticky top-0 z-30 border-b border-slate-200 bg-white">
        <div className="mx-auto flex h-16 max-w-7xl items-center justify-between gap-4 px-4 sm:px-6">
          <Link to="/" aria-label="Marquee home">
            <Logo />
          </Link>
          <nav aria-label="Main" className="hidden items-center gap-1 md:flex">
            {NAV.map((item) => (
              <NavLink key={item.to} to={item.to} className={navClass}>
                {item.label}
              </NavLink>
            ))}
          </nav>
          {account('hidden items-center gap-2 md:flex', 'btn-ghost')}
          <button
            type="button"
            className="rounded-lg p-2 text-slate-700 hover:bg-slate-100 md:hidden"
            aria-expanded={menuOpen}
            aria-controls="developers-menu"
            aria-label={menuOpen ? 'Close menu' : 'Open menu'}
            onClick={() => setMenuOpen((o) => !o)}
          >
            <svg aria-hidden="true" viewBox="0 0 24 24" className="h-6 w-6" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round">
              {menuOpen ? <path d="M6 6l12 12M18 6 6 18" /> : <path d="M4 7h16M4 12h16M4 17h16" />}
            </svg>
          </button>
        </div>
        {menuOpen && (
          <div id="developers-menu" className="border-t border-slate-200 px-4 pt-2 pb-4 md:hidden">
            <nav aria-label="Main" className="flex flex-col">
              {NAV.map((item) => (
                <NavLink key={item.to} to={item.to} className={navClass}>
                  {item.label}
                </NavLink>
              ))}
            </nav>
            {account('mt-3 grid grid-cols-2 gap-2', 'btn-secondary')}
          </div>
        )}
      </header>
      <main id="main" className="flex-1">
        {children}
      </main>
      <footer className="border-t border-slate-200 bg-slate-50">
        <p className="mx-auto max-w-7xl px-4 py-6 text-sm text-slate-700 sm:px-6">
          © {new Date().getFullYear()} Marquee ·{' '}
          <Link to="/tos" className="link">
            Terms of service
          </Link>
        </p>
      </footer>
    </div>
  )
}
