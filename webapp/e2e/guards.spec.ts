import { expect, test } from '@playwright/test'
import { DEMO, lastScreen, MSG_SESSION_EXPIRED, signIn } from './support'

test.describe('route guards', () => {
  test('an anonymous visitor of /campaigns is sent to /login with the session-expired flash', async ({ page }) => {
    await page.goto('/campaigns')
    await expect(page).toHaveURL(/\/login$/)
    await expect(page.getByRole('alert').filter({ hasText: MSG_SESSION_EXPIRED })).toBeVisible()
    await lastScreen(page, 'guards-anonymous')
  })

  test('an advertiser is kept to the advertiser screens', async ({ page }) => {
    await signIn(page, DEMO.advertiser)
    await expect(page).toHaveURL(/\/dashboard$/)

    await page.goto('/login')
    await expect(page).toHaveURL(/\/dashboard$/)

    await page.goto('/admin/companies')
    await expect(page).toHaveURL(/\/dashboard$/)

    await page.goto('/no/such/page')
    await expect(page).toHaveURL(/\/dashboard$/)

    await page.goto('/campaings-linked')
    await expect(page.getByRole('heading', { name: 'Linked campaigns' })).toBeVisible()
    // A company outside the partner program: the screen shows the server's refusal (issue 14).
    await expect(page.getByText('Only ambassador and certified companies take part in the partner program.')).toBeVisible()
    await page.goto('/dashboard')
    await expect(page.getByTestId('count-total')).not.toHaveText('0')
    await lastScreen(page, 'guards-advertiser')
  })

  test('an admin visiting /dashboard is sent to /admin/users', async ({ page }) => {
    await signIn(page, DEMO.admin)
    await page.goto('/dashboard')
    await expect(page).toHaveURL(/\/admin\/users$/)
    const nav = page.getByRole('navigation', { name: 'Main' })
    await expect(nav.getByRole('link', { name: 'Companies' })).toBeVisible()
    await expect(nav.getByRole('link', { name: 'Promos' })).toHaveCount(0)
    await lastScreen(page, 'guards-admin')
  })

  test('a super admin visiting /dashboard is sent to /admin/campaigns', async ({ page }) => {
    await signIn(page, DEMO.superAdmin)
    await page.goto('/dashboard')
    await expect(page).toHaveURL(/\/admin\/campaigns$/)
    await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Promos' })).toBeVisible()
    await lastScreen(page, 'guards-super-admin')
  })

  test('partners see their menu entries', async ({ page }) => {
    await signIn(page, DEMO.ambassador)
    const nav = page.getByRole('navigation', { name: 'Main' })
    await expect(nav.getByRole('link', { name: 'Invite' })).toBeVisible()
    await expect(nav.getByRole('link', { name: 'Codes redeemed' })).toBeVisible()
    await expect(page.getByRole('banner').getByText('Ambassador', { exact: true })).toBeVisible()
    await page.getByRole('button', { name: 'Logout' }).click()
    await expect(page).toHaveURL(/\/login$/)

    await signIn(page, DEMO.certified)
    await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Hub' })).toBeVisible()
    await expect(page.getByRole('banner').getByText('Certified', { exact: true })).toBeVisible()
    await lastScreen(page, 'guards-partners')
  })
})
