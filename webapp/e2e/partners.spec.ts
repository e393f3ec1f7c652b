import { expect, test, type APIRequestContext, type Page } from '@playwright/test'
import { bookByApi, campaignDefaults, cardByApi, libraryCreative, spots } from './campaignSupport'
import { BASE_URL } from './env'
import { DEMO, expectAccessibleHere, lastScreen, signIn, signUpByApi, unique, waitForMail, XHR } from './support'

// The partner program's screens against the real server (docs/partners-web.md).

const PASSWORD = 'partner-pass-2026'
const escaped = BASE_URL.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
const overflow = (page: Page) => page.evaluate('document.documentElement.scrollWidth - window.innerWidth').then(Number)

/** A fresh company whose user is signed in in `request`; returns its email. */
async function freshCompany(request: APIRequestContext, prefix: string): Promise<string> {
  const email = `${prefix}-${unique()}@example.com`
  await signUpByApi(request, email, PASSWORD)
  return email
}

/** /admin/users: the admin finds the user and upgrades its company, after the B §8 confirm. */
async function upgrade(page: Page, email: string, type: 'ambassador' | 'certified') {
  await page.goto('/admin/users')
  await page.getByLabel('Search users').fill(email)
  const grid = page.getByRole('table', { name: 'Users' })
  await expect(grid.locator('tbody tr')).toHaveCount(1)
  await expect(grid.locator('tbody tr').first()).toContainText(email)
  await grid.getByRole('checkbox', { name: 'Select row 1' }).check()
  await page.getByRole('button', { name: `Upgrade to ${type}` }).click()
  const confirm = page.getByRole('dialog', { name: /Upgrade/ })
  await expect(confirm).toContainText(`Are you sure you want Upgrade this user to ${type}?`)
  await confirm.getByRole('button', { name: 'Upgrade' }).click()
  await expect(page.getByText('User upgraded successfully!')).toBeVisible()
}

test('an admin makes an ambassador, who invites a client; the client books, and the ambassador sees the campaign and its bonus', async ({ page, browser }) => {
  test.setTimeout(180_000)
  const ambassadorContext = await browser.newContext()
  const ambassadorEmail = await freshCompany(ambassadorContext.request, 'amb')

  await signIn(page, DEMO.admin)
  await upgrade(page, ambassadorEmail, 'ambassador')
  await page.getByRole('button', { name: 'Logout' }).click()

  // The ambassador signs in (their session now carries the company type) and invites a client.
  await signIn(page, ambassadorEmail, PASSWORD)
  // (The first dashboard opens the tutorial video; the partner screens are reached by address.)
  await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Invite' })).toBeVisible()
  await page.goto('/invite')
  await expect(page.getByRole('heading', { level: 1, name: 'Invite clients' })).toBeVisible()
  await expect(page.getByText('You have not invited anyone yet.')).toBeVisible()
  await expectAccessibleHere(page, '/invite')
  await page.getByRole('button', { name: 'Invite a client' }).click()
  const modal = page.getByRole('dialog', { name: 'Invite a client' })
  await modal.getByRole('button', { name: 'Send invitation' }).click()
  await expect(modal.getByText('Full name must be present')).toBeVisible()
  await modal.getByLabel('Full name').fill('Cleo')
  await modal.getByRole('button', { name: 'Send invitation' }).click()
  await expect(modal.getByText("Please enter the client's first and last name.")).toBeVisible()
  // An email that already has an account: the server's message.
  await modal.getByLabel('Full name').fill('Cleo Client')
  await modal.getByLabel('Email').fill(DEMO.advertiser)
  await modal.getByRole('button', { name: 'Send invitation' }).click()
  await expect(modal.getByRole('alert').first()).toBeVisible()
  const clientEmail = `client-${unique()}@example.com`
  const clientCompany = `Cleo Bakery ${unique()}`
  await modal.getByLabel('Email').fill(clientEmail)
  await modal.getByLabel(/Company name/).fill(clientCompany)
  await expectAccessibleHere(page, 'the invite-client modal')
  await modal.getByRole('button', { name: 'Send invitation' }).click()
  await expect(page.getByText('The client was invited successfully.')).toBeVisible()
  const row = page.getByRole('table', { name: 'Invited clients' }).getByRole('row').filter({ hasText: clientEmail })
  await expect(row).toContainText('Invited')
  await expect(row).toContainText(clientCompany)

  // The client sets a password from the emailed link, in a browser of their own, and books.
  const [link] = await waitForMail(clientEmail, new RegExp(`${escaped}/access\\?token=[A-Za-z0-9_\\-.%~]+`))
  const clientContext = await browser.newContext()
  const client = await clientContext.newPage()
  await client.goto(link)
  await expect(client.getByRole('heading', { name: 'Set up your account' })).toBeVisible()
  await client.getByLabel('Password', { exact: true }).fill('client-pass-2026')
  await client.getByRole('button', { name: 'Continue to your dashboard' }).click()
  await expect(client).toHaveURL(/\/dashboard$/)
  await cardByApi(client.request)
  const creative = await libraryCreative(client, client.request, `Cleo ${unique()}`)
  const { default_start: week } = await campaignDefaults(client.request)
  const free = (await spots(client.request, 'Denver', week)).filter((s) => s.available)
  expect(free.length).toBeGreaterThan(0)
  expect(await bookByApi(client.request, creative.id, 'Denver', [free[0]!.xxx], week)).toBe(201)
  await clientContext.close()

  // The first week's charge settles; the ambassador sees the campaign and its 10% bonus.
  await page.reload()
  await expect(row).toContainText('Active')
  await expect
    .poll(async () => {
      const answer = await page.request.get('/api/special/campaigns', { headers: XHR })
      return ((await answer.json()) as { total: number }).total
    }, { timeout: 60_000 })
    .toBe(1)
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Linked campaigns' }).click()
  await expect(page).toHaveURL(/\/campaings-linked$/)
  const campaigns = page.getByRole('table', { name: 'Linked campaigns' })
  const campaignRow = campaigns.locator('tbody tr').first()
  await expect(campaignRow).toContainText(/^Rival /)
  await expect(campaignRow).toContainText(clientCompany)
  const [billed, bonus] = await Promise.all([campaignRow.locator('td').nth(3).innerText(), campaignRow.locator('td').nth(4).innerText()])
  const dollars = (text: string) => Number(text.replace(/[^0-9.]/g, ''))
  expect(dollars(billed)).toBeGreaterThan(0)
  expect(dollars(bonus)).toBeCloseTo(dollars(billed) / 10, 1)
  await expectAccessibleHere(page, '/campaings-linked')
  // The year parameter: this year has it, 2018 does not.
  await page.goto('/campaings-linked?year=2018')
  await expect(page.getByText('No linked campaign was billed in 2018.')).toBeVisible()
  await expect(page.getByLabel('Year')).toHaveValue('2018')

  // The hub: the profile with the bonus, and this year's chart.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Hub' }).click()
  await expect(page.getByRole('heading', { level: 1, name: 'Partner hub' })).toBeVisible()
  await expect(page.getByTestId('hub-total-bonus')).toHaveText(bonus)
  await expect(page.getByTestId('hub-year-earnings')).toHaveText(bonus)
  await expect(page.getByTestId('hub-linked')).toHaveText('1')
  await expect(page.locator('.apexcharts-canvas')).toBeVisible()
  await page.getByRole('button', { name: 'Edit partner profile' }).click()
  const profile = page.getByRole('dialog', { name: 'Partner profile' })
  await profile.getByLabel(/Website/).fill('example.com')
  await profile.getByRole('button', { name: 'Save profile' }).click()
  await expect(profile.getByText('Sorry! something went wrong, please try again')).toBeVisible()
  // B §8: the failure shows for 3 seconds.
  await expect(profile.getByText('Sorry! something went wrong, please try again')).toBeHidden({ timeout: 6_000 })
  await profile.getByLabel(/Website/).fill('https://cleo-partners.example')
  await profile.getByRole('button', { name: 'Save profile' }).click()
  await expect(profile.getByText('Your information has been updated successfully!')).toBeVisible()
  await page.keyboard.press('Escape')
  await expect(page.getByRole('link', { name: 'https://cleo-partners.example' })).toBeVisible()
  await expectAccessibleHere(page, '/admin/hub')

  await page.goto('/codes-redeemed')
  await expect(page.getByRole('heading', { level: 1, name: 'Codes redeemed' })).toBeVisible()
  await expect(page.getByLabel('Year')).toHaveValue('0')
  await expectAccessibleHere(page, '/codes-redeemed')

  // On a phone.
  await page.setViewportSize({ width: 390, height: 844 })
  for (const path of ['/invite', '/campaings-linked', '/codes-redeemed', '/admin/hub']) {
    await page.goto(path)
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
    expect(await overflow(page), path).toBeLessThanOrEqual(1)
  }
  await lastScreen(page, 'partners-hub-phone')
  await ambassadorContext.close()
})

// The correct options of the question bank (modules/partners/questions.go): the browser never gets them.
const CORRECT: Record<string, string[]> = {
  q1: ['b'], q2: ['a'], q3: ['c'], q4: ['a', 'b', 'c'], q5: ['a', 'b'], q6: ['d'], q7: ['a'], q8: ['b'], q9: ['b'],
  q10: ['a'], q11: ['b'], q12: ['a', 'b'], q13: ['a', 'b'], q14: ['a'], q15: ['a', 'b', 'c'], q16: ['a'], q17: ['a'], q18: ['a'],
}

test('a certified user fails the exam, passes it, and a super admin removes the certification on /admin/special-users', async ({ page, browser }) => {
  test.setTimeout(180_000)
  const partnerContext = await browser.newContext()
  const email = await freshCompany(partnerContext.request, 'cert')
  await partnerContext.close()
  await signIn(page, DEMO.admin)
  await upgrade(page, email, 'certified')
  await page.getByRole('button', { name: 'Logout' }).click()

  // B §4: an uncertified user of a certified company is offered the exam.
  await signIn(page, email, PASSWORD)
  await page.goto('/admin/hub')
  const prompt = page.getByRole('region', { name: 'Your company is not certified yet' })
  // The rate says why: no certificate in the company yet, so the ambassador rate; and no badge.
  await expect(page.getByTestId('hub-rate')).toContainText('10% the ambassador rate; 15% once a user of your company is certified')
  await expect(page.getByTestId('certified-badge')).toHaveCount(0)
  await expect(prompt.getByRole('button', { name: 'Continue without the certification bonus' })).toBeVisible()
  await prompt.getByRole('link', { name: 'Take the exam' }).click()
  await expect(page).toHaveURL(/\/admin\/special-users\/exam$/)
  await expect(page.getByRole('heading', { level: 1, name: 'Certification exam' })).toBeVisible()
  await expectAccessibleHere(page, 'the exam')

  // Every question needs an answer (B §5): the message names the question by its number, and the
  // page goes to that question and marks it.
  await page.locator('#q-q1-b').check()
  await page.getByRole('button', { name: 'Submit answers' }).click()
  await expect(page.getByRole('status').or(page.getByRole('alert')).filter({ hasText: 'You must answer the question 2!' }).first()).toBeVisible()
  const second = page.getByTestId('question-2')
  await expect(second).toHaveAttribute('aria-invalid', 'true')
  await expect(second).toBeInViewport()
  await expect(page.locator('#q-q2-a')).toBeFocused()

  // A first attempt with the first option everywhere fails: score and points only, the toast gone.
  for (const id of Object.keys(CORRECT)) await page.locator(`#q-${id}-a`).check()
  await page.getByRole('button', { name: 'Submit answers' }).click()
  await expect(page.getByTestId('exam-score')).toContainText(/Your score: \d+%, \d+ of \d+ points/)
  await expect(page.getByText('You must answer the question 2!')).toHaveCount(0)
  await expect(page.getByTestId('exam-attempts-left')).toHaveText('2 attempts left today.')
  await page.getByRole('button', { name: 'Take the exam again' }).click()

  for (const [id, options] of Object.entries(CORRECT)) for (const o of options) await page.locator(`#q-${id}-${o}`).check()
  await page.getByRole('button', { name: 'Submit answers' }).click()
  await expect(page.getByRole('heading', { name: 'You passed: you are a certified partner' })).toBeVisible()
  await expect(page.getByTestId('certificate')).toContainText(/MQ-\d{4}-/)
  await expect(page.getByTestId('exam-promo')).toContainText('CERT-')
  await page.goto('/admin/hub')
  await expect(page.getByRole('heading', { level: 1, name: 'Partner hub' })).toBeVisible()
  await expect(page.getByRole('region', { name: 'Your company is not certified yet' })).toHaveCount(0)
  // The hub, the badge and the rate agree: 15% with the certification bonus; the reward is shown
  // until it is redeemed.
  await expect(page.getByTestId('hub-rate')).toContainText('15% with the certification bonus')
  await expect(page.getByTestId('certified-badge')).toBeVisible()
  await expect(page.getByTestId('hub-exam-promo')).toContainText('CERT-')
  await page.getByRole('button', { name: 'Logout' }).click()

  // The super admin finds the partner and removes its certification (B §8).
  await signIn(page, DEMO.superAdmin)
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Special users' }).click()
  const grid = page.getByRole('table', { name: 'Special users' })
  await expect(grid.locator('th[aria-sort="descending"]')).toHaveText(/Bonus/)
  const row = grid.getByRole('row').filter({ hasText: email })
  await expect(row).toContainText('Certified user')
  await expectAccessibleHere(page, '/admin/special-users')
  await row.getByRole('radio').check()
  await page.getByRole('button', { name: 'View bonus' }).click()
  const bonus = page.getByRole('dialog', { name: /^Bonus of/ })
  await expect(bonus.getByText('No bonus earned yet.')).toBeVisible()
  await page.keyboard.press('Escape')
  await page.getByRole('button', { name: 'Remove certification' }).click()
  const confirm = page.getByRole('dialog', { name: 'Remove certification' })
  await expect(confirm).toContainText('Are you sure you want to remove certification?')
  await confirm.getByRole('button', { name: 'Remove certification' }).click()
  await expect(page.getByText('Certification removed successfully!')).toBeVisible()
  await expect(row).not.toContainText('Certified user')
  // The grid offers All.
  await expect(page.getByLabel(/rows per page|page size/i).first().locator('option', { hasText: 'All' })).toHaveCount(1)

  // The demo ambassador's linked companies, some expired.
  const demoRow = grid.getByRole('row').filter({ hasText: DEMO.ambassador })
  await demoRow.getByRole('radio').check()
  await page.getByRole('button', { name: 'Linked companies' }).click()
  const linked = page.getByRole('dialog', { name: /^Linked companies of/ })
  await expect(linked.getByRole('row').filter({ hasText: 'Harbor Fitness' })).toContainText('Link expired')
  await expectAccessibleHere(page, 'the linked-companies modal')
  await page.keyboard.press('Escape')

  await page.setViewportSize({ width: 390, height: 844 })
  await page.goto('/admin/special-users')
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
  expect(await overflow(page), '/admin/special-users').toBeLessThanOrEqual(1)
  await lastScreen(page, 'partners-special-users-phone')
})

test('the exam allows three attempts a business day: the third failure says when the next is allowed', async ({ page }) => {
  test.setTimeout(180_000)
  const email = await freshCompany(page.request, 'limit')
  await page.context().clearCookies()
  await signIn(page, DEMO.admin)
  await upgrade(page, email, 'certified')
  await page.getByRole('button', { name: 'Logout' }).click()
  await signIn(page, email, PASSWORD)
  for (let attempt = 1; attempt <= 3; attempt++) {
    await page.goto('/admin/special-users/exam')
    await expect(page.getByText(`${4 - attempt === 1 ? '1 attempt' : `${4 - attempt} attempts`} left today (3 a day).`)).toBeVisible()
    for (const id of Object.keys(CORRECT)) await page.locator(`#q-${id}-a`).check()
    await page.getByRole('button', { name: 'Submit answers' }).click()
    await expect(page.getByTestId('exam-score')).toBeVisible()
    if (attempt === 1) {
      for (const size of [{ width: 1366, height: 850 }, { width: 390, height: 844 }]) {
        await page.setViewportSize(size)
        await lastScreen(page, `exam-failed-${size.width}`)
      }
      await page.setViewportSize({ width: 1366, height: 850 })
    }
  }
  // The third failure: no retake, and the day's end named.
  await expect(page.getByRole('button', { name: 'Take the exam again' })).toHaveCount(0)
  await expect(page.getByTestId('exam-limit')).toContainText('You have used your 3 attempts for today. You can take the exam again from')
  // On a new visit the page says so at once, without the form; the server refuses a 4th with 429.
  await page.goto('/admin/special-users/exam')
  await expect(page.getByTestId('exam-limit')).toBeVisible()
  await expect(page.getByRole('form', { name: 'Certification exam' })).toHaveCount(0)
  const fourth = await page.request.put('/api/special/certified/exam', { headers: XHR, data: { answers: [] } })
  expect(fourth.status()).toBe(429)
  expect(((await fourth.json()) as { message: string }).message).toMatch(/^You have used your 3 attempts for today\. You can take the exam again from /)
  await expectAccessibleHere(page, 'the exam, out of attempts')
  for (const size of [{ width: 1366, height: 850 }, { width: 390, height: 844 }]) {
    await page.setViewportSize(size)
    expect(await overflow(page)).toBeLessThanOrEqual(1)
    await lastScreen(page, `exam-limited-${size.width}`)
  }
  for (const size of [{ width: 1366, height: 850 }, { width: 390, height: 844 }]) {
    await page.setViewportSize(size)
    await page.goto('/admin/hub') // loaded at that size, as on a phone (the chart measures on load)
    await expect(page.getByTestId('hub-rate')).toBeVisible()
    await expect(page.locator('.apexcharts-canvas')).toBeVisible()
    expect(await overflow(page)).toBeLessThanOrEqual(1)
    await lastScreen(page, `hub-${size.width}`)
  }
})
