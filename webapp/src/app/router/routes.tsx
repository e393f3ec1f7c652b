import type { ComponentType } from 'react'
import { Navigate, type PatchRoutesOnNavigationFunction, type RouteObject } from 'react-router'
import Root from '../Root'
import RouteError from '../RouteError'
import Spinner from '../../platform/Spinner'
import { CompanyAmbassador, CompanyCertified } from '../../platform/api-types/identity'
import type { EarlyRequest } from '../../platform/http'
import { NotSuperAdmin, PublicOnly, RequireAdmin, RequireAuth, RequireCompanyType, RequireSuperAdmin } from './guards'

// Every route of A §2 and B §2 with its guard (A §6, B §6). Screens load lazily, one bundle per
// section (DESIGN §6: public, advertiser, partner, admin; see ./sections), so the landing page does
// not download the admin area.

type Screens = Record<string, ComponentType>

/** A route's handle: what its screen asks for before it renders, when the page is prerendered. */
export interface RouteHandle {
  /**
   * The screen's first GETs: the prerendered page's HTML starts them before any of the app's code
   * has run (scripts/prerender.mjs), and the screen's queries take their answers (platform/http.ts).
   */
  firstRequests?: readonly EarlyRequest[]
  /** Anything else the screen needs first (its code), started before the page hydrates (main.tsx). */
  prefetch?: () => void
}

/** Shown while the first screen's bundle loads. */
function Loading() {
  return (
    <div className="flex min-h-screen items-center justify-center">
      <Spinner label="Loading Marquee" className="h-8 w-8" />
    </div>
  )
}

function section<S extends Screens>(load: () => Promise<{ screens: S }>) {
  return (name: keyof S): RouteObject['lazy'] =>
    async () => ({ Component: (await load()).screens[name] })
}

const publicScreen = section(() => import('./sections/public'))
const advertiserScreen = section(() => import('./sections/advertiser'))
const partnerScreen = section(() => import('./sections/partner'))
const adminScreen = section(() => import('./sections/admin'))

// The campaign screens are bundles of their own (DESIGN §6): the map, the chart and the grids load
// only where they are used.
const campaignScreen = (load: () => Promise<{ default: ComponentType }>): RouteObject['lazy'] =>
  async () => ({ Component: (await load()).default })

// Public section.
const publicRoutes: RouteObject[] = [
  { index: true, lazy: publicScreen('Landing') },
  { path: 'tos', lazy: publicScreen('Tos') },
  { path: 'cost', lazy: publicScreen('Cost') },
  // The map page is its own bundle, so the rest of the public section never downloads leaflet.
  // Its handle names the page's first requests, which its prerendered HTML starts, and its prefetch
  // the map's code (main.tsx).
  {
    path: 'locations',
    lazy: async () => {
      const page = await import('../../features/locations/routes/LocationsPage')
      return { Component: page.default, handle: { firstRequests: page.FIRST_REQUESTS, prefetch: page.prefetch } satisfies RouteHandle }
    },
  },
  { path: 'media-owners', lazy: publicScreen('MediaOwners') },
  { path: 'how-it-works', lazy: publicScreen('HowItWorks') },
  { path: 'register', lazy: publicScreen('Register') },
  { path: 'login', lazy: publicScreen('Login') },
  { path: 'forgot-password', lazy: publicScreen('ForgotPassword') },
  { path: 'reset-password', lazy: publicScreen('ResetPassword') },
  { path: 'access', lazy: publicScreen('Access') },
]

// Advertiser section: logged-in screens of A §2 and B §2.
const advertiserRoutes: RouteObject[] = [
  {
    // A §2 "not for admins", B §6 not-super-admin guard.
    Component: NotSuperAdmin,
    children: [
      { path: 'dashboard', lazy: campaignScreen(() => import('../../features/campaigns/routes/Dashboard')) },
      { path: 'campaigns/new', lazy: campaignScreen(() => import('../../features/campaigns/routes/NewCampaign')) },
    ],
  },
  { path: 'thank-you', lazy: advertiserScreen('ThankYou') },
  { path: 'faq', lazy: advertiserScreen('Faq') },
  { path: 'profile', lazy: advertiserScreen('Profile') },
  { path: 'settings', lazy: advertiserScreen('Settings') },
  { path: 'campaigns', lazy: campaignScreen(() => import('../../features/campaigns/routes/CampaignList')) },
  { path: 'campaigns/success/submitted', lazy: campaignScreen(() => import('../../features/campaigns/routes/CampaignSubmitted')) },
  { path: 'campaigns/edit/:id', lazy: campaignScreen(() => import('../../features/campaigns/routes/EditCampaign')) },
  { path: 'campaigns/:id', lazy: campaignScreen(() => import('../../features/campaigns/routes/CampaignDetail')) },
  // The creatives screens are bundles of their own, so the other user screens do not load the grid,
  // the uploader or konva (DESIGN §6, STYLE "Lazy routes"); konva is only in the Ad Design Tool's.
  { path: 'content', lazy: async () => ({ Component: (await import('../../features/creatives/routes/Content')).default }) },
  { path: 'creatives', lazy: async () => ({ Component: (await import('../../features/creatives/routes/Creatives')).default }) },
  { path: 'creatives/create', lazy: async () => ({ Component: (await import('../../features/creatives/routes/AdBuilder')).default }) },
  // The report screens are a bundle of their own (the chart loads only on a report's page).
  { path: 'reports', lazy: campaignScreen(() => import('../../features/reports/routes/Reports')) },
  { path: 'reports/new', lazy: campaignScreen(() => import('../../features/reports/routes/NewReport')) },
  // B §2: /report/new is the older spelling of /reports/new (DESIGN §1.6).
  { path: 'report/new', element: <Navigate to="/reports/new" replace /> },
  { path: 'reports/:id', lazy: campaignScreen(() => import('../../features/reports/routes/ReportView')) },
]

// Partner section (B §2 "Partner program"): login required, and a company of the program. The
// guards send anyone else home before a screen mounts; the server refuses them too.
const PARTNERS = [CompanyAmbassador, CompanyCertified]
const partnerRoutes: RouteObject[] = [
  {
    element: <RequireCompanyType types={PARTNERS} />,
    children: [
      // A §2 keeps the spelling 'campaings-linked'; DESIGN §1.6 also answers 'campaigns-linked'.
      { path: 'campaings-linked', lazy: partnerScreen('CampaignsLinked') },
      { path: 'campaigns-linked', lazy: partnerScreen('CampaignsLinked') },
      { path: 'codes-redeemed', lazy: partnerScreen('CodesRedeemed') },
      { path: 'admin/hub', lazy: partnerScreen('Hub') },
    ],
  },
  // Inviting clients is an ambassador's (POST /users/ambassador/invite).
  { element: <RequireCompanyType types={[CompanyAmbassador]} />, children: [{ path: 'invite', lazy: partnerScreen('Invite') }] },
  // The exam is a certified company's (GET /api/special/certified/exam).
  { element: <RequireCompanyType types={[CompanyCertified]} />, children: [{ path: 'admin/special-users/exam', lazy: partnerScreen('Exam') }] },
]

// Admin section.
const adminRoutes: RouteObject[] = [
  // B §2: the deprecated admin campaign list becomes the current one (DESIGN §1.6).
  { path: 'admin/dashboard', element: <Navigate to="/admin/campaigns" replace /> },
  {
    Component: RequireAdmin,
    children: [
      { path: 'admin/campaigns', lazy: campaignScreen(() => import('../../features/campaigns/admin/AdminCampaigns')) },
      { path: 'admin/campaigns/edit/:id', lazy: campaignScreen(() => import('../../features/campaigns/admin/AdminEditCampaign')) },
      { path: 'admin/campaigns/edit/week/:id', lazy: campaignScreen(() => import('../../features/campaigns/admin/AdminEditWeeks')) },
      { path: 'admin/users', lazy: adminScreen('AdminUsers') },
      { path: 'admin/companies', lazy: adminScreen('AdminCompanies') },
      { path: 'admin/audit', lazy: adminScreen('AuditLog') },
      { path: 'admin/api-keys', lazy: async () => ({ Component: (await import('../../features/developers/AdminApiKeys')).default }) },
      // Its own bundle: the map and the grid load only here.
      { path: 'admin/screens', lazy: campaignScreen(() => import('../../features/screens/routes/ScreensPage')) },
      { path: 'admin/screens/imports', lazy: async () => ({ Component: (await import('../../features/screens/imports/ImportsPage')).default }) },
      { path: 'admin/reports', lazy: campaignScreen(() => import('../../features/reports/admin/AdminReports')) },
      { path: 'admin/reports/new', lazy: campaignScreen(() => import('../../features/reports/admin/AdminNewReport')) },
      { path: 'admin/reports/:id', lazy: campaignScreen(() => import('../../features/reports/admin/AdminReportView')) },
      // Issue 29: the faces' geometry and screen corners; its own bundle (konva loads inside it).
      { path: 'admin/faces', lazy: campaignScreen(() => import('../../features/locations/admin/AdminFaces')) },
    ],
  },
  {
    Component: RequireSuperAdmin,
    children: [
      { path: 'admin/promos', lazy: adminScreen('Promos') },
      { path: 'admin/promos/new', lazy: adminScreen('NewPromo') },
      // Its own bundle: the admin section does not carry the partner feature.
      { path: 'admin/special-users', lazy: campaignScreen(() => import('../../features/partners/admin/SpecialUsers')) },
    ],
  },
]

/** The root route's id: the signed-in screens' routes are patched in under it (patchSignedInRoutes). */
const ROOT_ROUTE_ID = 'root'

/** The signed-in screens: login required, in the logged-in frame. */
function signedInRoutes(): RouteObject {
  return {
    Component: RequireAuth,
    children: [
      {
        // The logged-in frame is its own bundle: admins load it without the advertiser screens.
        lazy: async () => ({ Component: (await import('../layouts/AppLayout')).default }),
        children: [...advertiserRoutes, ...partnerRoutes, ...adminRoutes],
      },
    ],
  }
}

/**
 * Every route of the app; with `publicOnly`, all but the signed-in screens', which
 * patchSignedInRoutes adds on the first navigation that needs them. A prerendered public page
 * hydrates with the public routes only (main.tsx): React Router goes through every route of its
 * tree as it is made and as it matches a path, three times before /locations hydrates, and four
 * routes in five are the signed-in screens' (issue 30, Total Blocking Time). The signed-in branch is
 * the root's last child, so the routes before it have the same ids in both trees.
 */
export function createRoutes({ publicOnly = false }: { publicOnly?: boolean } = {}): RouteObject[] {
  return [
    {
      id: ROOT_ROUTE_ID,
      path: '/',
      Component: Root,
      ErrorBoundary: RouteError,
      HydrateFallback: Loading,
      children: [
        {
          Component: PublicOnly,
          // The public frame is its own bundle: /locations (a bundle of its own) loads it without the
          // other public screens (issue 30, the module evaluation of its first task).
          children: [{ lazy: async () => ({ Component: (await import('../layouts/PublicLayout')).default }), children: publicRoutes }],
        },
        // A proof-of-play record, for anyone holding its code, signed in or not.
        { path: 'verify/:code', lazy: async () => ({ Component: (await import('../../features/verify/VerifyPage')).default }) },
        { path: 'developers', lazy: async () => ({ Component: (await import('../../features/developers/routes/Developers')).default }) },
        // A §2: any unknown path goes to /dashboard.
        { path: '*', element: <Navigate to="/dashboard" replace /> },
        ...(publicOnly ? [] : [signedInRoutes()]),
      ],
    },
  ]
}

/**
 * React Router's patchRoutesOnNavigation for a router of createRoutes({ publicOnly: true }): the
 * signed-in screens' routes. React Router calls it on a navigation to a path that only the
 * catch-all (or a route with a parameter) matches, such as /dashboard, before it matches again; it
 * calls it again for each new such path, and leaves out the routes it already has.
 */
export const patchSignedInRoutes: PatchRoutesOnNavigationFunction = ({ patch }) => patch(ROOT_ROUTE_ID, [signedInRoutes()])
