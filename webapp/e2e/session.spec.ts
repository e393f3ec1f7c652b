import { expect, test } from '@playwright/test'
import { BASE_URL } from './env'
import { DEMO, lastScreen, MSG_SESSION_EXPIRED, signIn, XHR } from './support'

test('the 15-minute check closes the modals and sends a user whose session is gone to /login', async ({ page, browser }) => {
  await page.clock.install()
  await signIn(page, DEMO.advertiser)
  await expect(page).toHaveURL(/\/dashboard$/)
  // The dashboard has read the demo advertiser's campaign counts (the session works).
  await expect(page.getByRole('region', { name: 'Your campaigns' }).getByTestId('count-total')).toHaveText(/^[1-9][\d,]*$/)

  // The session ends on the server: the same cookie logs out from another browser context.
  const other = await browser.newContext({ baseURL: BASE_URL })
  await other.addCookies(await page.context().cookies())
  const logout = await other.request.get('/users/logout', { headers: XHR })
  expect(logout.ok()).toBe(true)
  const check = await other.request.get('/users/loggedin', { headers: XHR })
  expect(await check.json()).toEqual({ loggedin: false })
  await other.close()

  // The person is in the middle of something: a modal is open.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Profile' }).click()
  await page.getByRole('tab', { name: 'Password' }).click()
  await page.getByRole('button', { name: 'Change password' }).click()
  const dialog = page.getByRole('dialog', { name: 'Change password' })
  await expect(dialog).toBeVisible()

  // Nothing happens before the 15 minutes are up …
  await page.clock.fastForward('14:00')
  // The tab is in the address (docs/identity-web.md).
  await expect(page).toHaveURL(/\/profile\?tab=password$/)
  await expect(dialog).toBeVisible()

  // … then the client asks the server, and learns the session is gone.
  await page.clock.fastForward('01:01')
  await expect(page).toHaveURL(/\/login$/)
  await expect(page.getByRole('alert').filter({ hasText: MSG_SESSION_EXPIRED })).toBeVisible()
  await expect(page.getByRole('dialog')).toHaveCount(0)
  await lastScreen(page, 'session-expiry-journey')
})
