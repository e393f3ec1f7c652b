import { expect, test, type Page } from '@playwright/test'
import { DEMO, expectAccessibleHere, lastScreen, signIn } from './support'

// Signing in as a user, the audit log of what was done so, and the way out of a moderated session, at 1366 and 390 px:
// the "signed in as" banner stays in view on every page, the admin's toasts do not follow into the
// user's session, logging out returns to the admin's own account after asking, and the audit log
// names the admin behind a moderated change, shows objects by name and the changed fields.

const SIZES = [
  { name: 'desktop', width: 1366, height: 850 },
  { name: 'phone', width: 390, height: 844 },
] as const

const overflow = (page: Page) => page.evaluate('document.documentElement.scrollWidth - window.innerWidth').then(Number)

const MSG_COMPANY_UPDATED = 'Company data updated!'

/**
 * Signs the admin's page in as the demo advertiser through the companies grid's dialog. With
 * toast, the admin first saves the company unchanged, so that a toast of the admin's page is on
 * screen at the switch.
 */
async function signInAsAdvertiser(page: Page, toast = false) {
  await page.goto('/admin/companies')
  await page.getByLabel('Search companies').fill('Sunrise Coffee')
  const row = page.getByRole('table', { name: 'Companies' }).getByRole('row').filter({ hasText: 'Sunrise Coffee Co.' })
  await expect(row).toHaveCount(1)
  await row.getByRole('radio').check()
  if (toast) {
    await page.getByRole('button', { name: 'Edit company' }).click()
    await page.getByRole('dialog', { name: 'Edit company' }).getByRole('button', { name: 'Save company' }).click()
    await expect(page.getByText(MSG_COMPANY_UPDATED)).toBeVisible()
  }
  await page.getByRole('button', { name: 'Sign in as a user' }).click()
  const dialog = page.getByRole('dialog', { name: 'Sign in as a user' })
  // The company's users are listed by the company's id: the advertiser is offered.
  await expect(dialog.getByLabel('User', { exact: true }).locator('option', { hasText: DEMO.advertiser })).toHaveCount(1)
  await dialog.getByLabel("User's email").fill(DEMO.advertiser)
  await dialog.getByRole('button', { name: 'Sign in as this user' }).click()
  await expect(page).toHaveURL(/\/dashboard$/)
}

for (const size of SIZES) {
  test.describe(`at ${size.width} px`, () => {
    test.use({ viewport: { width: size.width, height: size.height } })

    test('the banner stays in view, the admin toasts stay behind, logout asks and returns to the admin', async ({ page }) => {
      test.setTimeout(180_000)
      await signIn(page, DEMO.admin)
      // A toast of the admin's own page is on screen at the switch.
      await signInAsAdvertiser(page, true)
      const banner = page.getByRole('region', { name: 'Signed in as another user' })
      await expect(banner).toBeVisible()
      await expect(banner).toContainText('Sunrise Coffee Co.')
      await expect(banner).toContainText(DEMO.admin)
      // No toast of the admin's session came along.
      await expect(page.getByText(MSG_COMPANY_UPDATED)).toHaveCount(0)

      // Sticky: scrolled to the bottom of a long page, the banner is still at the top of the view.
      for (const path of ['/campaigns', '/creatives', '/profile?tab=team']) {
        await page.goto(path)
        await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
        await page.evaluate('window.scrollTo(0, document.documentElement.scrollHeight)')
        await expect(banner).toBeInViewport()
        const box = await banner.boundingBox()
        expect(box?.y, `${path}: the banner's top`).toBeLessThanOrEqual(1)
        expect(await overflow(page), path).toBeLessThanOrEqual(1)
      }
      await page.goto('/campaigns')
      await page.evaluate('window.scrollTo(0, document.documentElement.scrollHeight)')
      await expectAccessibleHere(page, `a moderated session's page at ${size.width} px`)
      await lastScreen(page, `moderation-banner-${size.name}`)

      // Logout inside the moderated session asks first, then returns to the admin's own account.
      if (size.width < 1024) await page.getByRole('button', { name: 'Open menu' }).click()
      await page.getByRole('button', { name: 'Logout' }).click()
      const confirm = page.getByRole('dialog', { name: 'Return to your own account?' })
      await expect(confirm).toContainText(DEMO.admin)
      await expectAccessibleHere(page, `the logout confirmation at ${size.width} px`)
      await confirm.getByRole('button', { name: 'Return to my account' }).click()
      await expect(page).toHaveURL(/\/admin\/companies$/)
      await expect(banner).toHaveCount(0)
      await expect(page.getByText('You are back in your own account.')).toBeVisible()
      // The admin's own session is live: an admin page answers.
      await page.goto('/admin/users')
      await expect(page.getByRole('table', { name: 'Users' }).locator('tbody tr').first()).toBeVisible()
    })

    test('the audit log names the admin behind a moderated change, links objects by name and shows the changed fields', async ({ page }) => {
      test.setTimeout(180_000)
      await signIn(page, DEMO.admin)
      await signInAsAdvertiser(page)
      // A change made as the advertiser: the phone in the profile.
      await page.goto('/profile')
      const phone = page.getByLabel('Phone')
      const next = (await phone.inputValue()).endsWith('1') ? '+1 415 555 0102' : '+1 415 555 0101'
      await phone.fill(next)
      await page.getByRole('button', { name: /^Save/ }).click()
      await expect(page.getByText('User data updated!')).toBeVisible()
      await page.getByRole('region', { name: 'Signed in as another user' }).getByRole('button', { name: 'Return to my account' }).click()
      await expect(page).toHaveURL(/\/admin\/companies$/)

      await page.goto('/admin/audit')
      await page.getByLabel('Action').fill('user.update')
      const audit = page.getByRole('table', { name: 'Audit log' })
      const entry = audit.getByRole('row').filter({ hasText: 'user.update' }).first()
      // Who: the advertiser, by the admin signed in as them.
      await expect(entry).toContainText(DEMO.advertiser)
      await expect(entry).toContainText(`by admin`)
      await expect(entry).toContainText(DEMO.admin)
      // The object by name, with a link to it.
      const link = entry.getByRole('link').first()
      await expect(link).not.toHaveText(/^[0-9a-f-]{36}$/)
      await expect(link).toHaveAttribute('href', /\/admin\/users\?q=/)
      // The diff: only the changed field, before and after.
      await entry.getByText(/1 field: phone/).click()
      const diff = entry.getByRole('table', { name: 'Changed fields' })
      await expect(diff.getByRole('rowheader', { name: 'phone' })).toBeVisible()
      await expect(diff.getByRole('row')).toHaveCount(2)
      expect(await overflow(page), 'the audit log with a diff open').toBeLessThanOrEqual(1)
      const diffBox = await diff.boundingBox()
      if (size.width >= 1024) expect(diffBox?.width ?? 0, 'the diff is readable: wider than a sliver').toBeGreaterThan(250)
      await expectAccessibleHere(page, `the audit log at ${size.width} px`)
      await lastScreen(page, `moderation-audit-${size.name}`)

      // The filter by actor: the moderating admin's id finds the entry too.
      await page.getByLabel('Action').fill('')
      await page.getByLabel('Who').fill(DEMO.advertiser)
      await expect(audit.getByRole('row').filter({ hasText: 'user.update' }).first()).toBeVisible()
      await page.getByLabel('Object type').selectOption('user')
      await expect(audit.getByRole('row').filter({ hasText: 'user.update' }).first()).toBeVisible()
      // The link opens the user grid searching that user.
      await audit.getByRole('row').filter({ hasText: 'user.update' }).first().getByRole('link').first().click()
      await expect(page).toHaveURL(/\/admin\/users\?q=/)
      await expect(page.getByRole('table', { name: 'Users' }).getByRole('row').filter({ hasText: DEMO.advertiser })).toHaveCount(1)
    })
  })
}

test('team members: the owner removes and re-invites, after confirmations, at 1366 and 390 px', async ({ page }) => {
  test.setTimeout(180_000)
  await signIn(page, DEMO.advertiser)
  for (const size of SIZES) {
    await page.setViewportSize({ width: size.width, height: size.height })
    const email = `leaver-${size.name}-${Date.now()}@example.com`
    await page.goto('/profile?tab=team')
    const form = page.getByRole('form', { name: 'Invite team members' })
    await form.getByLabel('Name of team member 1').fill('Lee Leaver')
    await form.getByLabel('Email of team member 1').fill(email)
    await form.getByRole('button', { name: 'Send invites' }).click()
    await expect(page.getByText('Your invite(s) have been sent successfully!')).toBeVisible()
    const team = page.getByRole('table', { name: 'Team members' })
    const row = team.getByRole('row').filter({ hasText: email })
    await row.getByRole('button', { name: 'Resend the invitation to Lee Leaver' }).click()
    const resend = page.getByRole('dialog', { name: 'Resend the invitation?' })
    await expect(resend).toContainText(email)
    await expectAccessibleHere(page, `the resend confirmation at ${size.width} px`)
    await resend.getByRole('button', { name: 'Resend' }).click()
    await expect(page.getByText('The invitation has been sent again.')).toBeVisible()
    await expect(team).toBeVisible()
    await expectAccessibleHere(page, `the team members at ${size.width} px`)
    await lastScreen(page, `moderation-team-${size.name}`)

    await row.getByRole('button', { name: 'Remove Lee Leaver' }).click()
    const remove = page.getByRole('dialog', { name: 'Remove this team member?' })
    await expect(remove).toContainText('invitation will be cancelled')
    await remove.getByRole('button', { name: 'Remove' }).click()
    await expect(page.getByText('The team member has been removed.')).toBeVisible()
    await expect(row).toHaveCount(0)
  }
})
