import { expect, test, type APIRequestContext, type Browser } from '@playwright/test'
import { pngImage } from './images'
import { DEMO, DEMO_PASSWORD, expectAccessibleHere, lastScreen, signIn, waitForMail, XHR } from './support'

// Admin side: an admin finds a campaign in the grid, records a past week's actual
// impressions and a proof image, moves a future week, and the advertiser's chart shows the
// delivery. The data is the demo seed (start-server.sh runs `seed --demo`).


interface Week {
  id: string
  product_id: string
  start_at: string
  end_at: string
  act_imp?: number | null
  product: { location_name: string; face: string }
  creatives: { id: string; creative_type: string }[]
}
interface Campaign {
  id: string
  name: string
  company: string
  status: string
  start_date: string
}
interface Detail extends Campaign {
  chart: { labels: string[]; minimum: number[]; actual: (number | null)[] }
}

async function apiSignIn(request: APIRequestContext, email: string) {
  const response = await request.post('/signin', { headers: XHR, data: { email, password: DEMO_PASSWORD } })
  expect(response.ok(), await response.text()).toBe(true)
}

async function json<T>(request: APIRequestContext, url: string): Promise<T> {
  const response = await request.get(url, { headers: XHR })
  expect(response.ok(), `${url}: ${await response.text()}`).toBe(true)
  return (await response.json()) as T
}

function isoDay(date: Date): string {
  return `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(date.getDate()).padStart(2, '0')}`
}

const displayDate = (iso: string) => {
  const [y, m, d] = iso.split('-').map(Number)
  const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec']
  return `${months[m! - 1]} ${String(d).padStart(2, '0')}, ${y}`
}
const inputDate = (iso: string) => {
  const [y, m, d] = iso.split('-')
  return `${m}/${d}/${y}`
}
const addDaysIso = (iso: string, days: number) => {
  const [y, m, d] = iso.split('-').map(Number)
  return isoDay(new Date(y!, m! - 1, d! + days))
}

/**
 * The admin journeys work on the ambassador's and the certified company's demo campaigns, so the
 * advertiser journeys of campaigns.spec.ts (which run later, on the same data) keep theirs.
 *
 * A demo ambassador's campaign with a week that ended more than a day ago (its actual impressions
 * show on the chart) and a week not started yet (it can be moved).
 */
async function findCampaign(browser: Browser) {
  const context = await browser.newContext()
  try {
    await apiSignIn(context.request, DEMO.ambassador)
    const list = await json<{ items: Campaign[] }>(context.request, '/api/campaigns?page_size=0')
    const yesterday = isoDay(new Date(Date.now() - 2 * 24 * 3600 * 1000))
    const today = isoDay(new Date())
    for (const campaign of list.items.filter((c) => c.status === 'active')) {
      const weeks = (await json<{ items: Week[] }>(context.request, `/api/campaigns/${campaign.id}/weeks?page_size=0`)).items
      const past = weeks.find((w) => w.end_at < yesterday)
      const future = weeks.filter((w) => w.start_at > today)
      if (past && future.length > 0) return { campaign, past, future: future.sort((a, b) => b.start_at.localeCompare(a.start_at))[0]! }
    }
    throw new Error('the demo seed gives the ambassador no active campaign with a past and a future week')
  } finally {
    await context.close()
  }
}

test('an admin records a week’s delivery and moves a week; the advertiser’s chart shows the impressions', async ({ page, browser }) => {
  const { campaign, past, future } = await findCampaign(browser)
  const impressions = 70_000 + Math.floor(Math.random() * 20_000)

  await signIn(page, DEMO.admin)
  await page.goto('/admin/dashboard')
  await expect(page).toHaveURL(/\/admin\/campaigns$/)
  const grid = page.getByRole('table', { name: 'Campaigns' })
  await expect(grid.getByRole('columnheader', { name: /Start date/ })).toHaveAttribute('aria-sort', 'descending')
  await expect(grid.locator('tbody tr').first()).toBeVisible()
  await expectAccessibleHere(page, '/admin/campaigns')

  // Find and select the campaign, then open its weeks.
  await page.getByLabel('Search campaigns').fill(campaign.name)
  const row = grid.getByRole('row').filter({ hasText: campaign.name }).first()
  await expect(row).toBeVisible()
  await row.getByRole('radio').check()
  await lastScreen(page, 'admin-campaigns-grid')
  await page.getByRole('button', { name: 'Edit weeks' }).click()
  await expect(page).toHaveURL(new RegExp(`/admin/campaigns/edit/week/${campaign.id}$`))
  await expect(page.getByRole('heading', { name: 'Edit campaign weeks' })).toBeVisible()

  // Record the past week's delivery: its actual impressions and a proof image.
  const pastLabel = `week of ${displayDate(past.start_at)} at ${past.product.location_name}${past.product.face ? ` (${past.product.face})` : ''}`
  await page.getByRole('button', { name: `Record delivery of the ${pastLabel}` }).click()
  const dialog = page.getByRole('dialog', { name: 'Record delivery' })
  await dialog.getByLabel('Actual impressions').fill(String(impressions))
  await dialog.getByRole('button', { name: 'Save impressions' }).click()
  await expect(page.getByText("The week's impressions have been recorded.")).toBeVisible()
  // The proofs, not the upload's preview of the file just sent.
  const proofImages = dialog.getByRole('img', { name: /^(?!Preview of )/ })
  const proofsBefore = await proofImages.count()
  await dialog.locator('input[type=file]').setInputFiles({ name: 'proof.png', mimeType: 'image/png', buffer: pngImage(800, 450) })
  await expect(page.getByText('The proofs have been added.')).toBeVisible()
  await expect(proofImages).toHaveCount(proofsBefore + 1)
  await expect(dialog.getByRole('img', { name: 'Preview of proof.png' })).toBeVisible()
  await expectAccessibleHere(page, 'the delivery recorder')
  await lastScreen(page, 'admin-campaigns-delivery')
  await dialog.getByRole('button', { name: 'Close' }).click()

  // Move the latest future week one week later; the product's other weeks are not selected.
  const futureLabel = `week of ${displayDate(future.start_at)} at ${future.product.location_name}${future.product.face ? ` (${future.product.face})` : ''}`
  const newStart = addDaysIso(future.start_at, 7)
  await page.getByRole('checkbox', { name: `Move the ${futureLabel}` }).check()
  await page.getByRole('textbox', { name: `New start of the ${futureLabel}` }).fill(inputDate(newStart))
  await page.getByRole('textbox', { name: `New end of the ${futureLabel}` }).fill(inputDate(addDaysIso(newStart, 6)))
  await expectAccessibleHere(page, '/admin/campaigns/edit/week')
  await page.getByRole('button', { name: 'Update selected weeks' }).click()
  const confirm = page.getByRole('dialog', { name: 'Update weeks' })
  await expect(confirm.getByText('Do you confirm updating the selected weeks?')).toBeVisible()
  await confirm.getByRole('button', { name: 'Update weeks' }).click()
  await expect(page).toHaveURL(/\/admin\/campaigns$/)
  await expect(page.getByText('The campaign weeks has been updated')).toBeVisible()

  // The advertiser sees the recorded impressions on the chart and the moved week.
  const advertiser = await browser.newContext()
  try {
    await apiSignIn(advertiser.request, DEMO.ambassador)
    const detail = await json<Detail>(advertiser.request, `/api/campaigns/${campaign.id}`)
    expect(detail.chart.actual.some((v) => v !== null && v >= impressions), JSON.stringify(detail.chart)).toBe(true)
    const weeks = (await json<{ items: Week[] }>(advertiser.request, `/api/campaigns/${campaign.id}/weeks?page_size=0`)).items
    expect(weeks.find((w) => w.id === past.id)?.act_imp).toBe(impressions)
    expect(weeks.some((w) => w.product_id === future.product_id && w.start_at === newStart)).toBe(true)
    expect(weeks.find((w) => w.id === past.id)?.creatives.some((c) => c.creative_type === 'Proof')).toBe(true)
    const advertiserPage = await advertiser.newPage()
    await advertiserPage.goto(`/campaigns/${campaign.id}`)
    await expect(advertiserPage.locator('h1').first()).toBeVisible()
    await lastScreen(advertiserPage, 'admin-campaigns-advertiser-detail')
  } finally {
    await advertiser.close()
  }
  await lastScreen(page, 'admin-campaigns-weeks-moved')
})

/** A demo certified company's campaign that starts more than 5 days from now, so it can still be edited. */
async function findUpcomingCampaign(browser: Browser): Promise<Campaign> {
  const context = await browser.newContext()
  try {
    await apiSignIn(context.request, DEMO.certified)
    const list = await json<{ items: Campaign[] }>(context.request, '/api/campaigns?page_size=0')
    const after = isoDay(new Date(Date.now() + 6 * 24 * 3600 * 1000))
    const campaign = list.items.find((c) => c.start_date > after)
    if (!campaign) throw new Error('the demo seed has no campaign starting in more than 5 days')
    return campaign
  } finally {
    await context.close()
  }
}

test('an admin edits a campaign with the Monday-only picker and the update mailer', async ({ page, browser }) => {
  const campaign = await findUpcomingCampaign(browser)
  await signIn(page, DEMO.admin)
  await page.goto(`/admin/campaigns/edit/${campaign.id}`)
  const name = page.getByLabel('Campaign name')
  await expect(name).toHaveValue(campaign.name)

  // The picker offers Mondays only.
  await page.getByRole('button', { name: 'Choose start date' }).click()
  const calendar = page.getByRole('group', { name: /Start date/ })
  await calendar.getByRole('button', { name: 'Next month' }).click()
  const enabledDays = calendar.locator('button[aria-label*=", 20"]:not([aria-disabled="true"])')
  await expect(enabledDays.first()).toBeVisible()
  for (const label of await enabledDays.evaluateAll((els) => els.map((e) => e.getAttribute('aria-label') ?? ''))) {
    expect(label.startsWith('Monday')).toBe(true)
  }
  await calendar.getByRole('button', { name: 'Close' }).click()

  // Without any location the update is refused on the client.
  const boxes = page.getByRole('group', { name: 'Locations' }).getByRole('checkbox')
  const count = await boxes.count()
  for (let i = 0; i < count; i += 1) await boxes.nth(i).uncheck()
  await page.getByRole('button', { name: 'Update campaign' }).click()
  await expect(page.getByText('Please select at least one location!').first()).toBeVisible()
  await expectAccessibleHere(page, '/admin/campaigns/edit')
  for (let i = 0; i < count; i += 1) await boxes.nth(i).check()

  await name.fill(`${campaign.name} (edited)`)
  await page.getByRole('button', { name: 'Update campaign' }).click()
  const mailer = page.getByRole('dialog', { name: 'Update mailer' })
  await expect(mailer).toBeVisible({ timeout: 15_000 })
  await expect(page.getByText('Campaign has been updated successfully!')).toBeVisible()
  const note = `We renamed your campaign (${Date.now()}).`
  await mailer.getByLabel(/A note for the advertiser/).fill(note)
  await lastScreen(page, 'admin-campaigns-update-mailer')
  await mailer.getByRole('button', { name: 'Email the advertiser' }).click()
  await expect(page).toHaveURL(/\/admin\/campaigns$/)
  await expect(page.getByText('The advertiser has been emailed about the update.')).toBeVisible()
  // The outbox mails the campaign's advertiser, with the admin's note.
  await waitForMail(DEMO.certified, new RegExp(note.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
})

test('the admin campaign grid works at 390 px wide', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 })
  await signIn(page, DEMO.admin)
  await page.goto('/admin/campaigns')
  const grid = page.getByRole('table', { name: 'Campaigns' })
  await expect(grid.locator('tbody tr').first()).toBeVisible()
  await grid.getByRole('radio').first().check()
  await expect(page.getByRole('button', { name: 'Edit weeks' })).toBeEnabled()
  const overflow = () => page.evaluate('document.documentElement.scrollWidth - window.innerWidth').then(Number)
  expect(await overflow()).toBeLessThanOrEqual(1)
  await lastScreen(page, 'admin-campaigns-phone')
  // The weeks and edit screens scroll their tables, not the page.
  await page.getByRole('button', { name: 'Edit weeks' }).click()
  await expect(page.getByRole('heading', { name: 'Edit campaign weeks' })).toBeVisible()
  await expect(page.getByRole('button', { name: 'Update selected weeks' })).toBeVisible()
  expect(await overflow()).toBeLessThanOrEqual(1)
  await page.getByRole('link', { name: 'Edit campaign' }).click()
  await expect(page.getByLabel('Campaign name')).toBeVisible()
  expect(await overflow()).toBeLessThanOrEqual(1)
})

test('an admin deletes a campaign after the confirmation; it is no longer listed', async ({ page }) => {
  // A campaign no other journey reads: phones.spec.ts follows Fall Clearance's make-good later in
  // the same run, on the same server.
  await signIn(page, DEMO.admin)
  await page.goto('/admin/campaigns')
  await page.getByLabel('Search campaigns').fill('Holiday Hours')
  const grid = page.getByRole('table', { name: 'Campaigns' })
  // A campaign's row (the empty-state row also names the search).
  const row = grid.getByRole('row').filter({ has: page.getByRole('radio') }).filter({ hasText: 'Holiday Hours' })
  await expect(row).toHaveCount(1)
  await row.getByRole('radio').check()
  await page.getByRole('button', { name: 'Delete campaign' }).click()
  const confirm = page.getByRole('dialog', { name: 'Delete campaign' })
  await expect(confirm).toBeVisible()
  await expectAccessibleHere(page, 'the delete confirmation')
  await confirm.getByRole('button', { name: 'Delete campaign' }).click()
  await expect(page.getByText('The campaign has been deleted')).toBeVisible()
  await expect(row).toHaveCount(0)
  await page.reload()
  await page.getByLabel('Search campaigns').fill('Holiday Hours')
  await expect(grid.getByText('No campaign matches “Holiday Hours”.')).toBeVisible()
  await lastScreen(page, 'admin-campaigns-deleted')
})
