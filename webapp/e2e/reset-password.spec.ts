import { expect, test } from '@playwright/test'
import { BASE_URL } from './env'
import { lastScreen, signUpByApi, unique, waitForMail } from './support'

test('forgot password, follow the emailed link, set a new password and sign in with it', async ({ page, request }) => {
  const email = `reset-${unique()}@example.com`
  const oldPassword = 'the-first-password-1'
  const newPassword = 'the-second-password-2'
  await signUpByApi(request, email, oldPassword)

  await page.goto('/login')
  await page.getByRole('link', { name: 'Forgot your password?' }).click()
  await expect(page).toHaveURL(/\/forgot-password$/)

  // A malformed address is refused before sending.
  await page.getByLabel('Email').fill('not-an-email')
  await page.getByRole('button', { name: 'Send reset link' }).click()
  await expect(page.getByText('* Invalid email address')).toBeVisible()

  await page.getByLabel('Email').fill(email)
  await page.getByRole('button', { name: 'Send reset link' }).click()
  await expect(page).toHaveURL(/\/login$/)
  await expect(page.getByText('We have sent you an email with instructions to reset your password')).toBeVisible()

  const escaped = BASE_URL.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
  const [link] = await waitForMail(email, new RegExp(`${escaped}/reset-password\\?token=[A-Za-z0-9_\\-.%~]+`))
  await page.goto(link)

  await expect(page.getByRole('heading', { name: 'Choose a new password' })).toBeVisible()
  await expect(page.getByText(email)).toBeVisible()
  await page.getByLabel('New password', { exact: true }).fill(newPassword)
  await page.getByLabel('Confirm new password', { exact: true }).fill(newPassword)
  await page.getByRole('button', { name: 'Set new password' }).click()

  await expect(page).toHaveURL(/\/login$/)
  await expect(page.getByText('Your password has been reset successsfully!')).toBeVisible()

  // The old password no longer works.
  await page.getByLabel('Email').fill(email)
  await page.getByLabel('Password', { exact: true }).fill(oldPassword)
  await page.getByRole('button', { name: 'Sign in' }).click()
  await expect(page.getByRole('alert').filter({ hasText: 'Invalid email or password' })).toBeVisible()

  // The new one does.
  await page.getByLabel('Password', { exact: true }).fill(newPassword)
  await page.getByRole('button', { name: 'Sign in' }).click()
  await expect(page).toHaveURL(/\/dashboard$/)
  // A new user's first dashboard shows the tutorial video by itself (A §2).
  await page.getByRole('dialog', { name: 'How Marquee works' }).getByRole('button', { name: 'Got it' }).click()

  // The link works once.
  await page.getByRole('button', { name: 'Logout' }).click()
  await expect(page).toHaveURL(/\/login$/)
  await page.goto(link)
  await expect(page.getByRole('alert')).toContainText(/./)
  await expect(page.getByRole('heading', { name: 'Choose a new password' })).toHaveCount(0)
  await lastScreen(page, 'reset-password-journey')
})
