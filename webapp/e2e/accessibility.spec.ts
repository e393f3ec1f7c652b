import AxeBuilder from '@axe-core/playwright'
import { expect, test, type Page } from '@playwright/test'
import { BASE_URL } from './env'
import { DEMO, lastScreen, signIn } from './support'

// WCAG 2.1 A and AA checks of every screen this release has, with axe-core in Chromium. A serious
// or critical violation fails the journey.
async function expectAccessible(page: Page, path: string) {
  await page.goto(path)
  await expect(page.locator('h1').first()).toBeVisible()
  await expectNoSeriousViolations(page, path)
}

async function expectNoSeriousViolations(page: Page, path: string) {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze()
  const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
  expect(
    serious.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`),
    `accessibility violations on ${path}`,
  ).toEqual([])
}

test('public pages meet WCAG 2.1 AA', async ({ page }) => {
  for (const path of ['/', '/tos', '/cost', '/locations', '/media-owners', '/how-it-works', '/login', '/register', '/forgot-password']) {
    await expectAccessible(page, path)
  }
  await lastScreen(page, 'accessibility-public')
})

test('the locations map meets WCAG 2.1 AA with its markers, predictions and info window open', async ({ page }) => {
  // Offline: the map's tiles are not loaded (only this server answers).
  await page.context().route((url) => !url.href.startsWith(BASE_URL), (route) => route.abort())
  await page.goto('/locations')
  await expect(page.getByTestId('face-count')).toBeVisible()
  await expect(page.locator('.map-cluster').first()).toBeVisible()
  await expectNoSeriousViolations(page, '/locations with clusters')
  await page.getByText('Place and radius').click()
  await page.getByRole('combobox', { name: 'Place' }).fill('San Francisco')
  await page.getByRole('option', { name: 'San Francisco, CA' }).waitFor()
  await expectNoSeriousViolations(page, '/locations with place predictions')
  await page.getByRole('option', { name: 'San Francisco, CA' }).click()
  await page.getByRole('list', { name: 'Faces' }).getByRole('button').first().click()
  await expect(page.locator('.leaflet-popup')).toBeVisible()
  await expectNoSeriousViolations(page, '/locations with an info window')
  await lastScreen(page, 'accessibility-locations')
})

test('signed-in pages meet WCAG 2.1 AA', async ({ page }) => {
  await signIn(page, DEMO.advertiser)
  for (const path of ['/dashboard', '/profile', '/settings', '/faq']) {
    await expectAccessible(page, path)
  }
  await lastScreen(page, 'accessibility-signed-in')
})
