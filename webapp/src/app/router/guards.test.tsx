import { screen, waitFor } from '@testing-library/react'
import { beforeEach, describe, expect, it } from 'vitest'
import { MSG_SESSION_EXPIRED, type SessionState } from '../../platform/session'
import { mockFetch } from '../../test/fetch'
import { renderApp } from '../../test/renderApp'
import { anonymousSession, makeUser, signedInSession } from '../../test/users'

const advertiser = () => signedInSession(makeUser())
const ambassador = () => signedInSession(makeUser({ companyType: 'ambassador' }))
const certified = () => signedInSession(makeUser({ companyType: 'certified' }))
const admin = () => signedInSession(makeUser({ role: 'admin' }))
const superAdmin = () => signedInSession(makeUser({ role: 'super_admin' }))

async function landsOn(path: string, session: SessionState, expected: string) {
  const app = renderApp(path, { session })
  await waitFor(() => expect(app.router.state.location.pathname).toBe(expected))
  return app
}

/**
 * The guard let the visitor in: the page's own heading shows, at `path`, and no redirect ever
 * happened (a guard's <Navigate replace> makes the history action REPLACE). Waiting for the path
 * alone passed at once, before a guard that always redirects had rendered.
 */
async function staysOn(path: string, session: SessionState, heading: string | RegExp) {
  const app = renderApp(path, { session })
  expect(await screen.findByRole('heading', { name: heading, level: 1 })).toBeInTheDocument()
  expect(app.router.state.location.pathname).toBe(path.split('?')[0])
  expect(app.router.state.historyAction).toBe('POP')
  return app
}

beforeEach(() => {
  // No network: page views and anything else answer from this fake.
  mockFetch({})
})

describe('logged-in routes (A §2)', () => {
  it.each(['/campaigns', '/dashboard', '/profile', '/admin/users', '/campaings-linked'])(
    'send an anonymous visitor of %s to /login with the session-expired flash',
    async (path) => {
      const app = await landsOn(path, anonymousSession(), '/login')
      expect(await screen.findByRole('alert')).toHaveTextContent(MSG_SESSION_EXPIRED)
      expect(app.store.getState().flash.messages).toEqual([expect.objectContaining({ text: MSG_SESSION_EXPIRED, type: 'danger' })])
      expect(await screen.findByRole('heading', { name: 'Welcome back' })).toBeInTheDocument()
    },
  )

  it('do not call a logout an expiry', async () => {
    const app = await landsOn('/dashboard', { ...anonymousSession(), endReason: 'logout' }, '/login')
    await screen.findByRole('heading', { name: 'Welcome back' })
    expect(app.store.getState().flash.messages).toEqual([])
  })
})

describe('public routes (A §2)', () => {
  it.each(['/login', '/register', '/', '/tos', '/forgot-password', '/access?token=abc'])(
    'send a logged-in user from %s to /dashboard',
    async (path) => {
      await landsOn(path, advertiser(), '/dashboard')
      expect(await screen.findByRole('heading', { name: /welcome/i })).toBeInTheDocument()
    },
  )

  it('send a user who just signed up to /thank-you', async () => {
    const app = await landsOn('/register', { ...advertiser(), next: '/thank-you' }, '/thank-you')
    expect(await screen.findByRole('heading', { name: 'Thank you for registering!' })).toBeInTheDocument()
    await waitFor(() => expect(app.store.getState().session.next).toBeNull())
  })

  it('let an anonymous visitor in', async () => {
    await landsOn('/login', anonymousSession(), '/login')
    expect(await screen.findByRole('heading', { name: 'Welcome back' })).toBeInTheDocument()
  })

  it('send /reset-password without a token to /', async () => {
    await landsOn('/reset-password', anonymousSession(), '/')
  })
})

describe('not-super-admin guard (B §6)', () => {
  it('sends a super admin from /dashboard to /admin/dashboard, which is /admin/campaigns', async () => {
    await landsOn('/dashboard', superAdmin(), '/admin/campaigns')
    expect(await screen.findByRole('heading', { name: 'Campaigns' })).toBeInTheDocument()
    expect(await screen.findByRole('table', { name: 'Campaigns' })).toBeInTheDocument()
  })

  it('sends an admin from /dashboard to /admin/users', async () => {
    await landsOn('/dashboard', admin(), '/admin/users')
    expect(await screen.findByRole('heading', { name: 'Users' })).toBeInTheDocument()
  })

  it('sends an admin away from /campaigns/new', async () => {
    await landsOn('/campaigns/new', admin(), '/admin/users')
  })

  it('lets a user pass', async () => {
    await landsOn('/campaigns/new', advertiser(), '/campaigns/new')
    expect(await screen.findByRole('heading', { name: 'New campaign' })).toBeInTheDocument()
  })
})

describe('admin guard (B §6)', () => {
  it.each(['/admin/companies', '/admin/users', '/admin/campaigns', '/admin/campaigns/edit/abc', '/admin/reports', '/admin/screens'])(
    'sends a user from %s to /dashboard',
    async (path) => {
      await landsOn(path, advertiser(), '/dashboard')
    },
  )

  it.each([
    ['/admin/companies', 'Companies'],
    ['/admin/users', 'Users'],
    ['/admin/campaigns/edit/week/abc', /week/i],
  ])('lets an admin into %s', async (path, heading) => {
    await staysOn(path, admin(), heading)
  })

  it('rejects a user without a local record', async () => {
    const user = makeUser({ role: 'admin' })
    const broken = { ...user, local: undefined } as unknown as typeof user
    await landsOn('/admin/companies', signedInSession(broken), '/dashboard')
    expect(await screen.findByRole('heading', { name: 'Welcome to Marquee' })).toBeInTheDocument()
  })
})

describe('super-admin guard (B §6)', () => {
  it.each([
    ['/admin/promos', 'Promos'],
    ['/admin/promos/new', /promo/i],
    ['/admin/special-users', 'Special users'],
  ])('lets a super admin into %s', async (path, heading) => {
    await staysOn(path, superAdmin(), heading)
  })

  it('sends an admin to /dashboard, and so on to /admin/users', async () => {
    await landsOn('/admin/promos', admin(), '/admin/users')
  })

  it('sends a user to /dashboard', async () => {
    await landsOn('/admin/special-users', advertiser(), '/dashboard')
  })
})

describe('other routes', () => {
  it('send an unknown path to /dashboard', async () => {
    await landsOn('/no/such/page', advertiser(), '/dashboard')
  })

  it('answer both spellings of the linked campaigns list', async () => {
    await staysOn('/campaings-linked?year=2025', ambassador(), 'Linked campaigns')
  })

  it('answer /campaigns-linked too', async () => {
    await staysOn('/campaigns-linked', certified(), 'Linked campaigns')
  })

  it('send the old /report/new to /reports/new', async () => {
    await landsOn('/report/new', advertiser(), '/reports/new')
  })

  it.each([
    ['/invite', 'Invite clients', ambassador],
    ['/codes-redeemed', 'Codes redeemed', ambassador],
    ['/admin/hub', 'Partner hub', certified],
    ['/admin/special-users/exam', 'Certification exam', certified],
  ])('%s shows its partner screen (%s)', async (path, heading, who) => {
    await staysOn(path, who(), heading)
  })
})

describe('partner guards (B §2, B §6; issue 26)', () => {
  const partnerPaths = ['/invite', '/codes-redeemed', '/campaings-linked', '/campaigns-linked', '/admin/hub', '/admin/special-users/exam']

  it.each(partnerPaths)('send an advertiser from %s home to /dashboard, calling no partner API', async (path) => {
    const fetch = mockFetch({})
    await landsOn(path, advertiser(), '/dashboard')
    expect(await screen.findByRole('heading', { name: /welcome/i })).toBeInTheDocument()
    expect(fetch.calls.map((c) => c.path).filter((p) => p.includes('/special') || p.includes('ambassador'))).toEqual([])
  })

  it.each(partnerPaths)('send an admin from %s home to /admin/users', async (path) => {
    await landsOn(path, admin(), '/admin/users')
    expect(await screen.findByRole('heading', { name: 'Users', level: 1 })).toBeInTheDocument()
  })

  it.each(partnerPaths)('send a super admin from %s home to /admin/campaigns', async (path) => {
    await landsOn(path, superAdmin(), '/admin/campaigns')
  })

  it('send a certified company away from /invite (inviting is an ambassador\'s)', async () => {
    await landsOn('/invite', certified(), '/dashboard')
  })

  it('send an ambassador away from the exam (a certified company\'s)', async () => {
    await landsOn('/admin/special-users/exam', ambassador(), '/dashboard')
  })
})

describe('navigation for the role', () => {
  const links = async () => {
    const nav = await screen.findByRole('navigation', { name: 'Main' })
    return Array.from(nav.querySelectorAll('a')).map((a) => a.textContent)
  }

  it('shows a user the advertiser menu', async () => {
    await landsOn('/faq', advertiser(), '/faq')
    expect(await links()).toEqual(['Dashboard', 'Campaigns', 'Creatives', 'Content', 'Reports', 'Settings', 'Profile', 'FAQ'])
  })

  it('adds Invite, Codes redeemed, Linked campaigns and Hub for an ambassador', async () => {
    await landsOn('/faq', ambassador(), '/faq')
    expect(await links()).toEqual(expect.arrayContaining(['Invite', 'Codes redeemed', 'Linked campaigns', 'Hub']))
    expect(await links()).not.toContain('Certification exam')
    expect(screen.getByText('Ambassador')).toBeInTheDocument()
  })

  it('adds Linked campaigns, Hub and the exam for a certified company, and the badge while the hub says it earns the certification bonus', async () => {
    // The badge follows the hub, so the header, the hub and the rate agree.
    mockFetch({ 'GET /api/special/hub': { body: { success: true, profile: { certification_bonus: true, rate_percent: 15 } } } })
    await landsOn('/faq', signedInSession(makeUser({ companyType: 'certified' })), '/faq')
    expect(await links()).toEqual(expect.arrayContaining(['Linked campaigns', 'Hub', 'Certification exam']))
    expect(await links()).not.toContain('Invite')
    expect(await screen.findByText('Certified')).toBeInTheDocument()
  })

  it('shows a certified user of a standard company neither the badge nor the partner screens (no certification bonus there)', async () => {
    const net = mockFetch({})
    await landsOn('/faq', signedInSession(makeUser({ certified: true })), '/faq')
    expect(await links()).not.toContain('Hub')
    expect(screen.queryByText('Certified')).not.toBeInTheDocument()
    expect(net.called('GET', '/api/special/hub')).toEqual([])
  })

  it('shows an admin the admin menu, and a super admin Promos and Special users too', async () => {
    await landsOn('/admin/users', admin(), '/admin/users')
    expect(await links()).toEqual(['Campaigns', 'Users', 'Companies', 'Reports', 'Faces', 'Screens', 'Imports', 'Content', 'Audit log', 'API keys', 'Settings', 'Profile', 'FAQ'])
  })

  it('shows a super admin Promos and Special users', async () => {
    await landsOn('/admin/users', superAdmin(), '/admin/users')
    expect(await links()).toEqual(['Campaigns', 'Users', 'Companies', 'Reports', 'Faces', 'Screens', 'Imports', 'Content', 'Promos', 'Special users', 'Audit log', 'API keys', 'Settings', 'Profile', 'FAQ'])
  })
})
