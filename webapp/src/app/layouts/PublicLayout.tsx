import { Link, Outlet, useLocation } from 'react-router'
import Logo from '../../platform/Logo'
import SiteHeader, { SignedOutLinks } from '../../platform/SiteHeader'

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

/** The public pages' frame: a header with Login and Register, and a footer. */
export default function PublicLayout() {
  const { pathname } = useLocation()

  return (
    <div className="flex min-h-screen flex-col bg-white">
      <SiteHeader
        nav={NAV}
        menuId="public-menu"
        at={pathname}
        account={(className, loginClass) => <SignedOutLinks className={className} loginClass={loginClass} />}
        background="bg-white/90 backdrop-blur"
        tone="text-slate-600"
      />
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
