import type { ReactNode } from 'react'
import { useSelector } from 'react-redux'
import { Link, useLocation } from 'react-router'
import { selectSession } from '../../platform/session'
import SiteHeader, { SignedOutLinks } from '../../platform/SiteHeader'

const NAV = [
  { to: '/how-it-works', label: 'How it works' },
  { to: '/cost', label: 'Cost' },
  { to: '/locations', label: 'Locations' },
  { to: '/developers', label: 'Developers' },
]

/**
 * /developers' frame: the app's header and navigation for everyone. /developers is
 * read signed in or not, so the account links follow the session: the dashboard when signed in,
 * Login and Register otherwise.
 */
export default function DevelopersFrame({ children }: { children: ReactNode }) {
  const { pathname, hash } = useLocation()
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
      <SignedOutLinks className={className} loginClass={loginClass} />
    )
  return (
    <div className="flex min-h-screen flex-col bg-white">
      <SiteHeader nav={NAV} menuId="developers-menu" at={pathname + hash} account={account} background="bg-white" tone="text-slate-700" />
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
