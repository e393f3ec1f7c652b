import { expect, test } from '@playwright/test'
import { DEMO, expectAccessibleHere, lastScreen, signIn, XHR } from './support'

// Pacing and renewal: the demo advertiser sees the pacing of a running campaign on the
// dashboard and on its detail page (spent, committed, remaining, projected finish, delivery against
// plan), follows the renew link, and lands on /campaigns/new prefilled with the same faces and the
// weeks after the campaign. Nothing is created: the journey only reads (the renewal goes through
// the normal creation, which the creation journeys cover).

interface Pacing {
  campaign_id: string
  name: string
  spent: number
  committed: number
  finish_date: string | null
  pace_percent: number | null
}

test('the advertiser sees the pacing and renews a campaign through a prefilled /campaigns/new', async ({ page }) => {
  await signIn(page, DEMO.advertiser)
  const list = await page.request.get('/api/campaigns/pacing', { headers: XHR })
  expect(list.ok()).toBe(true)
  const { items } = (await list.json()) as { items: Pacing[] }
  const holiday = items.find((p) => p.name === 'Holiday Coffee Push')
  expect(holiday).toBeDefined()
  expect(holiday!.spent).toBeGreaterThan(0)
  expect(holiday!.pace_percent).not.toBeNull()

  // The dashboard lists each live campaign's pacing.
  await page.goto('/dashboard')
  const dashboard = page.getByRole('region', { name: 'Pacing' })
  await expect(dashboard.getByRole('link', { name: 'Holiday Coffee Push' })).toBeVisible()
  await expect(dashboard.getByRole('listitem').filter({ hasText: 'Holiday Coffee Push' })).toContainText(/Finish: [A-Z][a-z]{2} \d{2}, \d{4}/)

  // The detail page: the figures and the delivery against plan.
  await dashboard.getByRole('link', { name: 'Holiday Coffee Push' }).click()
  await expect(page.getByRole('heading', { level: 1, name: 'Holiday Coffee Push' })).toBeVisible()
  const panel = page.getByTestId('pacing-panel')
  await expect(panel.getByText('Spent to date')).toBeVisible()
  await expect(panel.getByText('Committed')).toBeVisible()
  await expect(panel.getByText('Remaining')).toBeVisible()
  await expect(panel.getByTestId('pacing-finish')).toContainText('Projected finish: Ends')
  await expect(panel.getByTestId('pacing-delivery')).toContainText(`${holiday!.pace_percent}% of plan`)
  await expectAccessibleHere(page, '/campaigns/{id} with pacing')

  // The renew link opens the creation form prefilled from GET /api/campaigns/{id}/renew.
  const prefill = (await (await page.request.get(`/api/campaigns/${holiday!.campaign_id}/renew`, { headers: XHR })).json()) as { faces: string[]; startDate: string }
  await panel.getByRole('link', { name: 'Renew this campaign' }).click()
  await expect(page).toHaveURL(new RegExp(`/campaigns/new\\?renew=${holiday!.campaign_id}$`))
  await expect(page.getByText('Renewing “Holiday Coffee Push”')).toBeVisible()
  await expect(page.getByLabel('Campaign name')).toHaveValue('Holiday Coffee Push (renewed)')
  const [y, m, d] = prefill.startDate.split('-')
  await expect(page.getByRole('textbox', { name: 'Start date (a Monday)' })).toHaveValue(`${m}/${d}/${y}`)
  await expect(page.getByText(`(${prefill.faces.length} chosen)`)).toBeVisible()
  await expectAccessibleHere(page, '/campaigns/new?renew={id}')
  await lastScreen(page, 'pacing-renew-prefilled')
})
