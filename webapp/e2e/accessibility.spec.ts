import { expect, test, type Page } from '@playwright/test'
import { DEMO, expectAccessibleHere, lastScreen, offline, signIn } from './support'

// WCAG 2.1 A and AA checks of every screen this release has, with axe-core in Chromium. A serious
// or critical violation fails the journey.
async function expectAccessible(page: Page, path: string) {
  await page.goto(path)
  await expect(page.locator('h1').first()).toBeVisible()
  await expectAccessibleHere(page, path)
}

test('public pages meet WCAG 2.1 AA', async ({ page }) => {
  for (const path of ['/', '/tos', '/cost', '/locations', '/media-owners', '/how-it-works', '/login', '/register', '/forgot-password']) {
    await expectAccessible(page, path)
  }
  await lastScreen(page, 'accessibility-public')
})

test('the locations map meets WCAG 2.1 AA with its markers, predictions and info window open', async ({ page }) => {
  // Offline: the map's tiles are not loaded (only this server answers).
  await offline(page)
  await page.goto('/locations')
  await expect(page.getByTestId('face-count')).toBeVisible()
  await expect(page.locator('.map-cluster').first()).toBeVisible()
  await expectAccessibleHere(page, '/locations with clusters')
  await page.getByText('Place and radius').click()
  await page.getByRole('combobox', { name: 'Place' }).fill('San Francisco')
  await page.getByRole('option', { name: 'San Francisco, CA' }).waitFor()
  await expectAccessibleHere(page, '/locations with place predictions')
  await page.getByRole('option', { name: 'San Francisco, CA' }).click()
  // The place's faces, not the list before them (it stays while they load): they have distances.
  const firstFace = page.getByRole('list', { name: 'Faces' }).getByRole('button').first()
  await expect(firstFace).toContainText(' mi')
  await firstFace.click()
  await expect(page.locator('.leaflet-popup')).toBeVisible()
  await expectAccessibleHere(page, '/locations with an info window')
  await lastScreen(page, 'accessibility-locations')
})

test('signed-in pages meet WCAG 2.1 AA', async ({ page }) => {
  await signIn(page, DEMO.advertiser)
  for (const path of ['/dashboard', '/profile', '/settings', '/faq', '/content', '/creatives', '/creatives/create']) {
    await expectAccessible(page, path)
  }
  await lastScreen(page, 'accessibility-signed-in')
})

test('billing screens meet WCAG 2.1 AA', async ({ page }) => {
  await signIn(page, DEMO.advertiser)
  await expectAccessible(page, '/settings')
  await page.getByRole('tab', { name: 'Card and credit' }).click()
  await expect(page.getByRole('heading', { name: 'Account credit' })).toBeVisible()
  await expectAccessibleHere(page, '/settings (card and credit)')
  await page.getByRole('button', { name: 'Redeem a promo code' }).click()
  await expectAccessibleHere(page, '/settings (promo redeem modal)')
  await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click()
  await page.getByRole('button', { name: /^(Add|Replace) card$/ }).click()
  await expect(page.getByLabel('Card number')).toBeVisible()
  await expectAccessibleHere(page, '/settings (card modal)')
  await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click()

  await page.getByRole('button', { name: 'Logout' }).click()
  await signIn(page, DEMO.superAdmin)
  for (const path of ['/admin/promos', '/admin/promos/new']) {
    await expectAccessible(page, path)
  }
  await lastScreen(page, 'accessibility-billing')
})

test('the creatives modals and the admin content library meet WCAG 2.1 AA', async ({ page }) => {
  await signIn(page, DEMO.advertiser)
  await page.goto('/creatives')
  await page.getByRole('button', { name: 'New creative' }).click()
  await expect(page.getByRole('dialog', { name: 'New creative' })).toBeVisible()
  await expectAccessibleHere(page, '/creatives (new creative modal)')
  await page.context().clearCookies()
  await signIn(page, DEMO.admin)
  await expectAccessible(page, '/content')
  await page.getByRole('button', { name: 'New content' }).first().click()
  await expect(page.getByRole('dialog', { name: 'New content' })).toBeVisible()
  await expectAccessibleHere(page, '/content (new content modal)')
  await lastScreen(page, 'accessibility-creatives')
})
