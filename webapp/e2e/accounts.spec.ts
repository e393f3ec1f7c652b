import { expect, test, type Page } from '@playwright/test'
import { BASE_URL } from './env'
import { DEMO, expectAccessibleHere, lastScreen, MSG_SESSION_EXPIRED, signIn, signUpByApi, unique, waitForMail, XHR } from './support'

// The profile and its team members, the admin users and companies, signing in as a user,
// and the audit log, through the real app.

const escaped = BASE_URL.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
const overflow = (page: Page) => page.evaluate('document.documentElement.scrollWidth - window.innerWidth').then(Number)

/** A new user's first dashboard starts the guided tour by itself (A §4); Escape leaves it. */
async function leaveTour(page: Page) {
  const welcome = page.getByText('Welcome to Marquee')
  await expect(welcome).toBeVisible()
  await page.keyboard.press('Escape')
  await expect(welcome).toHaveCount(0)
}

test('an advertiser invites two team members; one sets a password from the emailed link and sees the company campaigns', async ({ page, browser }) => {
  const first = `team-a-${unique()}@example.com`
  const second = `team-b-${unique()}@example.com`
  await signIn(page, DEMO.advertiser)
  await page.goto('/profile?tab=team')
  const form = page.getByRole('form', { name: 'Invite team members' })

  // B §5: checked in the browser first.
  await form.getByRole('button', { name: 'Add another person' }).click()
  await form.getByLabel('Name of team member 1').fill('Grace')
  await form.getByLabel('Email of team member 1').fill(first)
  await form.getByLabel('Email of team member 2').fill(first.toUpperCase())
  await form.getByRole('button', { name: 'Send invites' }).click()
  await expect(form.getByText("Last name can't be blank")).toBeVisible()
  await expect(form.getByText('Required')).toBeVisible()
  await expect(form.getByText('Email already exist')).toBeVisible()

  await form.getByLabel('Name of team member 1').fill('Grace Hopper')
  await form.getByLabel('Name of team member 2').fill('Alan Turing')
  await form.getByLabel('Email of team member 2').fill(second)
  await form.getByRole('button', { name: 'Send invites' }).click()
  await expect(page.getByText('Your invite(s) have been sent successfully!')).toBeVisible()

  // Both are listed as invited.
  const team = page.getByRole('table', { name: 'Team members' })
  await expect(team.getByRole('row').filter({ hasText: first })).toContainText('invited')
  await expect(team.getByRole('row').filter({ hasText: second })).toContainText('invited')

  // Inviting an address that already has an account is refused by the server, beside its input.
  await form.getByLabel('Name of team member 1').fill('Ada Again')
  await form.getByLabel('Email of team member 1').fill(DEMO.admin)
  await form.getByRole('button', { name: 'Send invites' }).click()
  await expect(form.getByRole('alert')).toContainText('Sorry! ')
  await expect(form.getByLabel('Email of team member 1')).toHaveAttribute('aria-invalid', 'true')

  // The first invitee follows the link in a browser of their own.
  const [link] = await waitForMail(first, new RegExp(`${escaped}/access\\?token=[A-Za-z0-9_\\-.%~]+`))
  const context = await browser.newContext()
  const invitee = await context.newPage()
  await invitee.goto(link)
  await expect(invitee.getByRole('heading', { name: 'Set up your account' })).toBeVisible()
  await expect(invitee.getByLabel('First name')).toHaveValue('Grace')
  await expect(invitee.getByLabel('Last name')).toHaveValue('Hopper')
  await invitee.getByLabel('Password', { exact: true }).fill('a-team-password-2026')
  await invitee.getByRole('button', { name: 'Continue to your dashboard' }).click()
  await expect(invitee).toHaveURL(/\/dashboard$/)
  await leaveTour(invitee)

  // The same company: its campaigns are theirs to see.
  await expect(invitee.getByText('Sunrise Coffee Co.').first()).toBeVisible()
  await expect(invitee.getByTestId('count-total')).not.toHaveText('0')
  await invitee.goto('/campaigns')
  await invitee.getByLabel('Search campaigns').fill('Holiday Coffee Push')
  await expect(invitee.getByRole('table', { name: 'Campaigns' }).getByRole('link', { name: 'Holiday Coffee Push' })).toBeVisible()
  await lastScreen(invitee, 'accounts-team-member')

  // The link works once.
  await invitee.getByRole('button', { name: 'Logout' }).click()
  await invitee.goto(link)
  await expect(invitee.getByRole('alert')).toBeVisible()
  await context.close()

  // The inviter now sees them active.
  await page.reload()
  await expect(page.getByRole('table', { name: 'Team members' }).getByRole('row').filter({ hasText: first })).toContainText('active')
})

test('an admin disables a user whose open browser is then sent to /login', async ({ page, browser }) => {
  const email = `disabled-${unique()}@example.com`
  const password = 'the-user-password-1'
  const context = await browser.newContext()
  await signUpByApi(context.request, email, password)
  const victim = await context.newPage()
  await victim.goto('/profile')
  await expect(victim.getByRole('heading', { name: 'Profile' })).toBeVisible()

  await signIn(page, DEMO.admin)
  await page.goto('/admin/users')
  await page.getByLabel('Search users').fill(email)
  const grid = page.getByRole('table', { name: 'Users' })
  const row = grid.getByRole('row').filter({ hasText: email })
  await expect(row).toHaveCount(1)
  await row.getByRole('checkbox').check()
  await page.getByRole('button', { name: 'Disable' }).click()
  await expect(page.getByText('The user has been disabled.')).toBeVisible()
  // The grid shows the status the server answers.
  await expect(row).toContainText('disabled')

  // The open browser's next call finds its session gone.
  await victim.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Campaigns' }).click()
  await expect(victim).toHaveURL(/\/login$/)
  await expect(victim.getByRole('alert').filter({ hasText: MSG_SESSION_EXPIRED })).toBeVisible()
  // And signing in again is refused with a clear message.
  await victim.getByLabel('Email').fill(email)
  await victim.getByLabel('Password', { exact: true }).fill(password)
  await victim.getByRole('button', { name: 'Sign in' }).click()
  await expect(victim.getByRole('alert').filter({ hasText: 'Your account has been disabled. Please contact support.' })).toBeVisible()
  await lastScreen(victim, 'accounts-disabled-user')
  await context.close()

  // Enabled again, the user signs in.
  await row.getByRole('checkbox').check()
  await page.getByRole('button', { name: 'Enable' }).click()
  await expect(row).toContainText('active')
  expect((await page.request.post('/signin', { headers: XHR, data: { email, password } })).ok()).toBe(true)
})

test('an admin signs in as an advertiser, sees the banner on every page, returns, and finds the audit entry', async ({ page }) => {
  await signIn(page, DEMO.admin)
  await page.goto('/admin/companies')
  await page.getByLabel('Search companies').fill('Sunrise Coffee')
  const grid = page.getByRole('table', { name: 'Companies' })
  const row = grid.getByRole('row').filter({ hasText: 'Sunrise Coffee Co.' })
  await expect(row).toHaveCount(1)
  await row.getByRole('radio').check()
  await page.getByRole('button', { name: 'Sign in as a user' }).click()
  const dialog = page.getByRole('dialog', { name: 'Sign in as a user' })
  await dialog.getByLabel("User's email").fill(DEMO.advertiser)
  await dialog.getByRole('button', { name: 'Sign in as this user' }).click()

  await expect(page).toHaveURL(/\/dashboard$/)
  const banner = page.getByRole('region', { name: 'Signed in as another user' })
  await expect(banner).toContainText(`(${DEMO.advertiser}) of Sunrise Coffee Co.`)
  await expect(banner).toContainText(DEMO.admin)
  await expectAccessibleHere(page, 'the dashboard with the sign-in-as banner')
  // Every page, also after a reload (the server says whose session it is).
  await page.goto('/campaigns')
  await expect(banner).toBeVisible()
  await page.reload()
  await expect(banner).toBeVisible()
  await lastScreen(page, 'accounts-signed-in-as')

  await banner.getByRole('button', { name: 'Return to my account' }).click()
  await expect(page).toHaveURL(/\/admin\/companies$/)
  await expect(banner).toHaveCount(0)
  await expect(page.getByText('You are back in your own account.')).toBeVisible()

  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Audit log' }).click()
  await page.getByLabel('Action').fill('moderate.signin')
  const audit = page.getByRole('table', { name: 'Audit log' })
  const entry = audit.getByRole('row').filter({ hasText: 'moderate.signin' }).first()
  await expect(entry).toContainText(DEMO.admin)
  await lastScreen(page, 'accounts-audit-log')
})

test('the new screens have no serious accessibility violation and work at 390 px wide', async ({ page }) => {
  // Eleven axe runs on a shared machine.
  test.setTimeout(240_000)
  await signIn(page, DEMO.advertiser)
  for (const tab of ['', '?tab=password', '?tab=team', '?tab=card']) {
    await page.goto(`/profile${tab}`)
    await expect(page.getByRole('tabpanel')).toBeVisible()
    await expect(page.getByRole('tabpanel').getByText(/Loading/)).toHaveCount(0)
    await expectAccessibleHere(page, `/profile${tab}`)
  }
  await page.goto('/faq')
  await expect(page.getByRole('heading', { name: 'Frequently asked questions' })).toBeVisible()
  await page.getByText('What is the Wednesday cut-off?').click()
  await expectAccessibleHere(page, '/faq')

  await page.setViewportSize({ width: 390, height: 844 })
  for (const path of ['/profile', '/profile?tab=team', '/faq']) {
    await page.goto(path)
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
    expect(await overflow(page), path).toBeLessThanOrEqual(1)
  }
  await lastScreen(page, 'accounts-profile-phone')

  await page.getByRole('button', { name: 'Open menu' }).click()
  await page.getByRole('button', { name: 'Logout' }).click()
  await page.setViewportSize({ width: 1280, height: 800 })
  await signIn(page, DEMO.admin)
  for (const [path, table] of [
    ['/admin/users', 'Users'],
    ['/admin/companies', 'Companies'],
    ['/admin/audit', 'Audit log'],
  ] as const) {
    await page.goto(path)
    await expect(page.getByRole('table', { name: table }).locator('tbody tr').first()).toBeVisible()
    await expectAccessibleHere(page, path)
  }
  await page.goto('/admin/companies')
  await page.getByRole('table', { name: 'Companies' }).getByRole('radio').first().check()
  await page.getByRole('button', { name: 'Edit company' }).click()
  await expect(page.getByRole('dialog', { name: 'Edit company' })).toBeVisible()
  await expectAccessibleHere(page, 'the edit-company dialog')
  await page.keyboard.press('Escape')

  await page.setViewportSize({ width: 390, height: 844 })
  for (const path of ['/admin/users', '/admin/companies', '/admin/audit']) {
    await page.goto(path)
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
    expect(await overflow(page), path).toBeLessThanOrEqual(1)
  }
  await lastScreen(page, 'accounts-admin-phone')
})
