import { expect, test } from '@playwright/test'
import { offline } from './support'

// The public pages are prerendered at build time, so their content is in the HTML the
// server sends and a first paint needs no JavaScript; the JavaScript then hydrates them.

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false })

  test('the landing page has its headline, the budget input and its buttons', async ({ page }) => {
    await page.goto('/')
    await expect(page.getByRole('heading', { level: 1, name: 'Your ad on digital billboards, booked in minutes' })).toBeVisible()
    await expect(page.getByRole('textbox', { name: 'Weekly budget' })).toHaveValue('1,000')
    const hero = page.getByRole('region', { name: 'Your ad on digital billboards, booked in minutes' })
    await expect(hero.getByRole('link', { name: 'Create an account' })).toBeVisible()
    await expect(hero.getByRole('link', { name: 'Sign in' })).toBeVisible()
    await expect(page.getByRole('banner').getByRole('link', { name: 'Register' })).toBeAttached()
    await expect(page.getByRole('button', { name: 'Open menu', includeHidden: true })).toBeAttached()
    // The estimate for the budget shown is in the HTML too.
    await expect(page.getByText('Estimated weekly impressions')).toBeVisible()
  })

  test('the other public pages and the login form are in the HTML', async ({ page }) => {
    for (const [path, heading] of [
      ['/cost', 'Simple weekly pricing, face by face'],
      ['/how-it-works', 'From sign-up to your ad on screen'],
      ['/media-owners', 'Fill your screens with self-serve advertisers'],
      ['/tos', 'Terms of service'],
      ['/register', 'Create your account'],
      ['/forgot-password', 'Reset your password'],
      ['/locations', 'Every billboard face, on one map'],
    ] as const) {
      await page.goto(path)
      await expect(page.getByRole('heading', { level: 1 }).first(), path).toHaveText(heading)
    }
    await page.goto('/login')
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Welcome back')
    await expect(page.getByLabel('Email')).toBeVisible()
    await expect(page.getByLabel('Password', { exact: true })).toBeVisible()
    await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible()
  })
})

test('the prerendered landing page hydrates: the estimate follows the budget, links navigate', async ({ page }) => {
  const errors: string[] = []
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()))
  page.on('pageerror', (e) => errors.push(e.message))
  const scripts: string[] = []
  page.on('request', (r) => r.resourceType() === 'script' && scripts.push(r.url()))
  await page.goto('/')
  const budget = page.getByRole('textbox', { name: 'Weekly budget' })
  await expect(async () => {
    await budget.fill('100')
    await expect(page.getByText('too small for a measurable estimate')).toBeVisible({ timeout: 500 })
  }).toPass()
  // The landing page never loads the whole app (Redux Toolkit, RTK Query, the signed-in frame).
  expect(scripts.filter((u) => /\/assets\/index-/.test(u))).toEqual([])
  await page.getByRole('link', { name: 'Cost', exact: true }).first().click()
  await expect(page).toHaveURL(/\/cost$/)
  await page.getByRole('banner').getByRole('link', { name: 'Login' }).first().click()
  await expect(page).toHaveURL(/\/login$/)
  await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible()
  expect(errors).toEqual([])
})

test('the prerendered /locations hydrates: the week is filled in, the map and the faces load', async ({ page }) => {
  await offline(page) // the map's tiles are refused; the embedded basemap is drawn instead
  const errors: string[] = []
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text())) // no failed tile either
  page.on('pageerror', (e) => errors.push(e.message))
  const facesAsked: string[] = []
  page.on('request', (r) => r.url().includes('/api/od/locations/') && facesAsked.push(r.url()))
  // The scripts and the faces, in the order the page asks for them.
  const asked: string[] = []
  page.on('request', (r) => (r.resourceType() === 'script' || r.url().includes('/api/od/locations/')) && asked.push(new URL(r.url()).pathname))
  const response = await page.goto('/locations')
  const html = (await response?.text()) ?? ''
  // The server's HTML already has the page (the map and the week wait for the JavaScript).
  expect(html).toContain('Every billboard face, on one map')
  // The faces are loading, not missing: their query reads as fetching before it starts (quietStart).
  expect(html).toContain('Loading faces')
  expect(html).not.toContain('No faces to show')
  await expect(page.getByRole('textbox', { name: 'Week starting' })).toHaveValue(/^\d\d\/\d\d\/\d{4}$/)
  await expect(page.locator('.map-cluster').first()).toBeVisible()
  await expect(page.getByTestId('face-count')).toContainText('faces')
  // Asked for once, by the page's HTML before any script (scripts/prerender.mjs: the route's first
  // requests), and taken by the page.
  expect(facesAsked).toEqual([expect.stringMatching(/\/api\/od\/locations\/\?format=columns$/)])
  expect(asked[0]).toBe('/api/od/locations/')
  // The entry imports the app's parts one a task as it runs (main.tsx): each is in the page's own
  // list of scripts to fetch (scripts/prerender.mjs), so none waits for the one before it. The
  // map's code is asked for once they have run (the route's prefetch). (The map's cluster worker,
  // which the page's code starts about then to cluster the faces while it hydrates, is no script of
  // the page: platform/map/signIndex.ts.)
  const listed = new Set(html.match(/assets\/[\w-]+\.js/g)?.map((file) => `/${file}`))
  const mapAt = asked.findIndex((path) => /^\/assets\/Map-/.test(path))
  const beforeMap = asked.slice(1, mapAt).filter((path) => !/^\/assets\/clusterWorker-/.test(path))
  expect(beforeMap).toContainEqual(expect.stringMatching(/^\/assets\/index-[\w-]+\.js$/))
  expect(beforeMap.filter((path) => !listed.has(path))).toEqual([])
  expect(errors).toEqual([])
})

test('a wait under 600 ms shows no spinner: the faces’ indicator fades in and turns after it', async ({ page }) => {
  await offline(page)
  // The faces never come, so the page stays at "Loading faces".
  await page.route('**/api/od/locations/**', () => {})
  await page.goto('/locations')
  const indicator = page.getByRole('status').filter({ hasText: 'Loading faces' }).locator('svg')
  await expect(indicator).toBeAttached()
  // Each of its animations set to a time since it appeared (the animations' own clock, not the
  // test's: a slow machine cannot make this pass or fail).
  const at = (ms: number) =>
    indicator.evaluate((svg, time) => {
      const animations = svg.getAnimations()
      for (const animation of animations) {
        animation.pause()
        animation.currentTime = time
      }
      const style = svg.ownerDocument.defaultView!.getComputedStyle(svg)
      return { animations: animations.length, opacity: Number(style.opacity), turned: style.transform !== 'none' && style.transform !== 'matrix(1, 0, 0, 1, 0, 0)' }
    }, ms)
  expect(await at(300)).toEqual({ animations: 2, opacity: 0, turned: false })
  expect(await at(1000)).toEqual({ animations: 2, opacity: 1, turned: true })
})

test('the whole app’s page preloads what its entry imports as it runs', async ({ request }) => {
  // A page not prerendered (here, for a visitor without a session) is the whole app's index.html.
  // Its entry imports React DOM, the router, the store, the routes and the app one a task
  // (main.tsx); index.html lists their chunks to fetch with the entry (vite.config.ts).
  const html = await (await request.get('/dashboard')).text()
  const preloaded = [...html.matchAll(/<link rel="modulepreload" crossorigin href="\/assets\/([\w-]+?)-[\w-]{8}\.js"/g)].map((m) => m[1])
  for (const chunk of ['client', 'browserRouter', 'store', 'routes', 'App']) expect(preloaded).toContain(chunk)
})
