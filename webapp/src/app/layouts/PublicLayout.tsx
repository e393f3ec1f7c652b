import { useEffect, useState } from 'react'
import { Link, NavLink, Outlet, useLocation } from 'react-router'
import Logo from '../../platform/Logo'

const NAV = [
  { to: '/how-it-works', label: 'How it works' },
  { to: '/cost', label: 'Cost' },
  { to: '/locations', label: 'Locations' },
  { to: '/media-owners', label: 'Media owners' },
]

const FOOTER = [
  { to: '/how-it-works', label: 'How it works' },
  { to: '/cost', label: 'Cost' },
  { to: '/locations', label: 'Locations' },
  { to: '/media-owners', label: 'Media owners' },
  { to: '/tos', label: 'Terms of service' },
]

const navClass = ({ isActive }: { isActive: boolean }) =>
  `rounded-lg px-3 py-2 text-sm font-medium ${isActive ? 'text-brand-700' : 'text-slate-600 hover:text-slate-900'}`

/** The public pages' frame: a header with Login and Register, and a footer. */
export default function PublicLayout() {
  const [menuOpen, setMenuOpen] = useState(false)
  const { pathname } = useLocation()
  useEffect(() => setMenuOpen(false), [pathname])

  return (
    <div className="flex min-h-screen flex-col bg-white">
      <header className="sticky top-0 z-30 border-b border-slate-200 bg-white/90 backdrop-blur">
        <div className="mx-auto flex h-16 max-w-7xl items-center justify-between gap-4 px-4 sm:px-6">
          <Link to="/" aria-label="Marquee home">
            <Logo />
          </Link>
          <MainNav className="hidden items-center gap-1 md:flex" />
          <AccountLinks className="hidden items-center gap-2 md:flex" loginClass="btn-ghost" />
          <button
            type="button"
            className="rounded-lg p-2 text-slate-600 hover:bg-slate-100 md:hidden"
            aria-expanded={menuOpen}
            aria-controls="public-menu"
            aria-label={menuOpen ? 'Close menu' : 'Open menu'}
            onClick={() => setMenuOpen((o) => !o)}
          >
            <svg aria-hidden="true" viewBox="0 0 24 24" className="h-6 w-6" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round">
              {menuOpen ? <path d="M6 6l12 12M18 6 6 18" /> : <path d="M4 7h16M4 12h16M4 17h16" />}
            </svg>
          </button>
        </div>
        {menuOpen && (
          <div id="public-menu" className="border-t border-slate-200 px-4 pt-2 pb-4 md:hidden">
            <MainNav className="flex flex-col" />
            <AccountLinks className="mt-3 grid grid-cols-2 gap-2" loginClass="btn-secondary" />
          </div>
        )}
      </header>
      <main id="main" className="flex-1">
        <Outlet />
      </main>
      <footer className="border-t border-slate-200 bg-slate-50">
        <div className="mx-auto flex max-w-7xl flex-col gap-6 px-4 py-10 sm:px-6 md:flex-row md:items-center md:justify-between">
          <div>
            <Logo />
            <p className="mt-2 max-w-sm text-sm text-slate-600">Digital billboard advertising you can buy yourself, week by week.</p>
          </div>
          <nav aria-label="Footer">
            <ul className="flex flex-wrap gap-x-6 gap-y-2 text-sm">
              {FOOTER.map((item) => (
                <li key={item.to}>
                  <Link to={item.to} className="text-slate-600 hover:text-slate-900">
                    {item.label}
                  </Link>
                </li>
              ))}
            </ul>
          </nav>
        </div>
        <p className="pb-8 text-center text-xs text-slate-500">© {new Date().getFullYear()} Marquee</p>
      </footer>
    </div>
  )
}

/** The public pages' links; the same list on wide screens and in the phone menu. */
function MainNav({ className }: { className: string }) {
  return (
    <nav aria-label="Main" className={className}>
      {NAV.map((item) => (
        <NavLink key={item.to} to={item.to} className={navClass}>
          {item.label}
        </NavLink>
      ))}
    </nav>
  )
}

function AccountLinks({ className, loginClass }: { className: string; loginClass: string }) {
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
