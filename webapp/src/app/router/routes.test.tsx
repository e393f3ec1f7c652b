import { createMemoryRouter } from 'react-router'
import { describe, expect, it } from 'vitest'
import { createRoutes, patchSignedInRoutes } from './routes'

// The pages scripts/prerender.mjs prerenders: main.tsx hydrates them with the public routes only.
const PRERENDERED = ['/', '/tos', '/cost', '/locations', '/media-owners', '/how-it-works', '/register', '/login', '/forgot-password']

const lastPath = (router: ReturnType<typeof createMemoryRouter>) => router.state.matches.at(-1)?.route.path

describe('the public routes, and the signed-in ones patched in (issue 30)', () => {
  it('has no signed-in screen, and each prerendered page matches the routes of the same ids as in the whole table', () => {
    const pub = createMemoryRouter(createRoutes({ publicOnly: true }))
    const paths: string[] = []
    const walk = (routes: typeof pub.routes) => routes.forEach((r) => (r.path && paths.push(r.path), walk(r.children ?? [])))
    walk(pub.routes)
    expect(paths).toContain('locations')
    expect(paths).not.toContain('dashboard')
    expect(paths).not.toContain('admin/faces')
    for (const path of PRERENDERED) {
      const ids = (routes: ReturnType<typeof createRoutes>) => createMemoryRouter(routes, { initialEntries: [path] }).state.matches.map((m) => m.route.id)
      // The server prerenders with the whole table; the hydration's ids must be the same.
      expect(ids(createRoutes({ publicOnly: true })), path).toEqual(ids(createRoutes()))
    }
  })

  it('adds the signed-in screens on the first navigation to one, and once', async () => {
    const router = createMemoryRouter(createRoutes({ publicOnly: true }), { initialEntries: ['/tos'], patchRoutesOnNavigation: patchSignedInRoutes })
    await router.navigate('/campaigns/new')
    expect(router.state.location.pathname).toBe('/campaigns/new')
    expect(lastPath(router)).toBe('campaigns/new')
    await router.navigate('/admin/faces')
    expect(lastPath(router)).toBe('admin/faces')
    // A path only the catch-all matches: React Router asks for the routes again, and adds none twice.
    await router.navigate('/no-such-page')
    const signedIn = router.routes[0]!.children!.filter((r) => r.children?.some((c) => c.children?.some((s) => s.path === 'profile')))
    expect(signedIn).toHaveLength(1)
  })

  it('without the patch, a signed-in screen is the catch-all (the test above would fail without it)', async () => {
    const router = createMemoryRouter(createRoutes({ publicOnly: true }), { initialEntries: ['/tos'] })
    await router.navigate('/campaigns/new')
    expect(lastPath(router)).toBe('*')
  })
})
