import { expect, test } from '@playwright/test'
import { DEMO, expectAccessibleHere, lastScreen, MSG_SESSION_EXPIRED, signIn } from './support'

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

// B §2, B §6: the partner screens are for partners. Anyone else who types their
// address goes home before the screen shows, and no call of the screen is made to be refused.
const PARTNER_PATHS = ['/invite', '/codes-redeemed', '/campaings-linked', '/admin/hub', '/admin/special-users/exam']

for (const size of [
  { width: 1366, height: 850 },
  { width: 390, height: 844 },
]) {
  test.describe(`partner guards at ${size.width}×${size.height}`, () => {
    test.use({ viewport: size })

    for (const [who, email, home] of [
      ['an advertiser', DEMO.advertiser, /\/dashboard$/],
      ['an admin', DEMO.admin, /\/admin\/users$/],
    ] as const) {
      test(`${who} typing a partner address is sent home, with no refused call`, async ({ page }) => {
        await signIn(page, email)
        const refused: string[] = []
        page.on('response', (r) => {
          if (r.url().includes('/api/') && r.status() >= 400) refused.push(`${r.status()} ${r.url()}`)
        })
        for (const path of PARTNER_PATHS) {
          await page.goto(path)
          await expect(page, path).toHaveURL(home)
          await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
          await expect(page.getByText('Only ambassador and certified companies take part in the partner program.')).toHaveCount(0)
        }
        expect(refused).toEqual([])
        await expectAccessibleHere(page, `${who}'s home after a partner address`)
        await lastScreen(page, `guards-partner-${who.split(' ')[1]}-${size.width}`)
      })
    }

    test('partners still reach their screens', async ({ page }) => {
      await signIn(page, DEMO.ambassador)
      for (const [path, heading] of [
        ['/invite', 'Invite clients'],
        ['/codes-redeemed', 'Codes redeemed'],
        ['/campaings-linked', 'Linked campaigns'],
        ['/admin/hub', 'Partner hub'],
      ] as const) {
        await page.goto(path)
        await expect(page).toHaveURL(new RegExp(`${path}$`))
        await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible()
      }
      // The exam is a certified company's: an ambassador goes home.
      await page.goto('/admin/special-users/exam')
      await expect(page).toHaveURL(/\/dashboard$/)
    })
  })
}
