import { expect, test, type Page } from '@playwright/test'
import { newAdvertiser } from './campaignSupport'
import { axeScan, lastScreen } from './support'

// The guided tours (A §2, §4; B §2, §4): the dashboard tour started for a new user, its end
// continuing on /campaigns/new?tour=true, the 16-step tour there, the tour-cancel modal, and the
// end on a route change.

const popover = (page: Page) => page.locator('.driver-popover')

async function next(page: Page, times: number) {
  for (let i = 0; i < times; i++) await popover(page).getByRole('button', { name: 'Next' }).click()
}

test('a new user takes the dashboard tour, which continues into the 16-step new-campaign tour', async ({ page }) => {
  // A new user's tour flag is on: the tour starts by itself, once (A §4).
  const disabled = page.waitForResponse((r) => r.url().endsWith('/users/disable-tour'))
  await newAdvertiser(page, { tour: true })
  await disabled
  await expect(popover(page)).toContainText('Welcome to Marquee')
  const steps = Number((await popover(page).locator('.driver-popover-progress-text').innerText()).match(/of (\d+)/)![1])
  await next(page, steps - 1)
  await popover(page).getByRole('button', { name: 'Finish' }).click()

  // The new-campaign tour starts and the parameter is removed from the address.
  await expect(page).toHaveURL(/\/campaigns\/new$/)
  await expect(popover(page)).toContainText('Step 1 of 16')
  await next(page, 1)
  await expect(popover(page)).toContainText('Campaign name')
  await expect(page.locator('[data-tour="name"]')).toHaveClass(/driver-active-element/)
  await next(page, 8)
  await expect(popover(page)).toContainText('Frequency')
  await expect(popover(page)).toContainText('Ongoing, One Week, or a Specified End Date')
  await lastScreen(page, 'campaign-tour-frequency')

  // Closing early asks first; continuing keeps the step.
  await page.keyboard.press('Escape')
  const ask = page.getByRole('dialog', { name: 'End the tour?' })
  await expect(ask).toBeVisible()
  const axe = await axeScan(page)
  expect(axe.violations.map((v) => v.id)).toEqual([])
  await ask.getByRole('button', { name: 'Continue the tour' }).click()
  await expect(popover(page)).toContainText('Step 10 of 16')
  await next(page, 6)
  await expect(popover(page)).toContainText('Review and confirm')
  await popover(page).getByRole('button', { name: 'Finish' }).click()
  await expect(popover(page)).toHaveCount(0)

  // Given once: the dashboard does not start it again.
  await page.goto('/dashboard')
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
  await expect(popover(page)).toHaveCount(0)
  await lastScreen(page, 'campaign-tour')
})

test('?tour=true starts the new-campaign tour, and any route change ends it', async ({ page }) => {
  await newAdvertiser(page)
  await page.goto('/campaigns/new?tour=true')
  await expect(popover(page)).toContainText('Step 1 of 16')
  await expect(page).toHaveURL(/\/campaigns\/new$/)
  await next(page, 3)
  await expect(popover(page)).toContainText('Strategy')
  await page.evaluate("window.history.pushState({}, '', '/faq'); window.dispatchEvent(new PopStateEvent('popstate'))")
  await expect(page).toHaveURL(/\/faq$/)
  await expect(popover(page)).toHaveCount(0)
  await expect(page.getByRole('dialog', { name: 'End the tour?' })).toHaveCount(0)

  // The dashboard tour by its parameter.
  await page.goto('/dashboard?tour=true')
  await expect(popover(page)).toContainText('Welcome to Marquee')
  await expect(page).toHaveURL(/\/dashboard$/)
  await lastScreen(page, 'campaign-tour-dashboard')
})
