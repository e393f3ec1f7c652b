import { expect, test } from '@playwright/test'
import { lastScreen, unique } from './support'

test('sign up in two steps with the call consent, log out, and sign in again', async ({ page }) => {
  const id = unique()
  const company = `Sunny Bakery ${id}`
  const email = `owner-${id}@example.com`
  const password = 'billboards-by-the-week'

  await page.goto('/')
  await page.getByRole('banner').getByRole('link', { name: 'Register' }).click()
  await expect(page).toHaveURL(/\/register$/)

  // Step 1: the company name is checked.
  await expect(page.getByText('Step 1 of 2')).toBeVisible()
  await page.getByLabel('Company name').fill(company)
  await page.getByRole('button', { name: 'Continue' }).click()

  // Step 2: the rest of the form.
  await expect(page.getByText('Step 2 of 2')).toBeVisible()
  await expect(page.getByLabel('Company name')).toHaveValue(company)
  await page.getByLabel('Email').fill(email)
  await page.getByLabel('Phone').fill('(415) 555-0100')
  await page.getByLabel('Password', { exact: true }).fill(password)
  await page.getByRole('button', { name: 'Create account' }).click()

  // A phone number asks for consent to call.
  const consent = page.getByRole('dialog', { name: 'May we give you a call?' })
  await expect(consent).toBeVisible()
  await consent.getByRole('button', { name: 'Yes, call me' }).click()

  await expect(page).toHaveURL(/\/thank-you$/)
  await expect(page.getByText('Great, someone will be in touch with you soon')).toBeVisible()
  await expect(page.getByRole('heading', { name: 'Thank you for registering!' })).toBeVisible()
  await page.getByRole('link', { name: 'Go to your dashboard' }).click()

  await expect(page).toHaveURL(/\/dashboard$/)
  // A new user gets the dashboard tour once (A §4); ending it early asks first.
  await expect(page.locator('.driver-popover')).toContainText('Welcome to Marquee')
  await page.keyboard.press('Escape')
  await page.getByRole('dialog', { name: 'End the tour?' }).getByRole('button', { name: 'End the tour' }).click()
  await expect(page.locator('.driver-popover')).toHaveCount(0)
  await expect(page.getByRole('heading', { name: 'Your campaigns will appear here' })).toBeVisible()
  await expect(page.getByRole('banner')).toContainText(company)

  await page.getByRole('button', { name: 'Logout' }).click()
  await expect(page).toHaveURL(/\/login$/)
  await expect(page.getByText('You have been logged out successfully')).toBeVisible()

  // The company name is taken now.
  await page.goto('/register')
  await page.getByLabel('Company name').fill(company)
  await page.getByRole('button', { name: 'Continue' }).click()
  await expect(page.getByText('This company has already been registered.')).toBeVisible()

  await page.goto('/login')
  await page.getByLabel('Email').fill(email)
  await page.getByLabel('Password', { exact: true }).fill(password)
  await page.getByRole('button', { name: 'Sign in' }).click()
  await expect(page).toHaveURL(/\/dashboard$/)
  await expect(page.getByRole('heading', { name: 'Welcome to Marquee' })).toBeVisible()
  await lastScreen(page, 'signup-journey')
})
