import { expect, test, type APIRequestContext } from '@playwright/test'
import { DEMO, DEMO_PASSWORD, expectAccessibleHere, lastScreen, signIn, waitForMail, XHR } from './support'

// Delivery assurance. The data is the demo seed (start-server.sh runs `seed --demo`):
// the certified company's campaigns, which the advertiser journeys do not read.

interface Week {
  id: string
  start_at: string
  end_at: string
  offer_price: number
  product_ooh: number
  act_imp?: number | null
  make_good?: { id: string } | null
  product: { location_name: string; face: string }
}
interface Campaign {
  id: string
  name: string
  status: string
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

const isoDay = (d: Date) => `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`
const displayDate = (iso: string) => {
  const [y, m, d] = iso.split('-').map(Number)
  const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec']
  return `${months[m! - 1]} ${String(d).padStart(2, '0')}, ${y}`
}
const dollars = (cents: number) => `$${new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(cents / 100)}`
const wholeDollars = (cents: number) => `$${new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 }).format(Math.trunc(cents / 100))}`

/** The make-good policy of docs/delivery-assurance.md, in cents: price × shortfall ÷ plan, half a cent up. */
const makeGoodCents = (priceCents: number, plan: number, delivered: number) => Math.floor((2 * priceCents * (plan - delivered) + plan) / (2 * plan))

test('an admin records a short week; the advertiser sees the make-good on the campaign and the credit in settings', async ({ page, browser }) => {
  // A certified campaign's week that finished more than a day ago, without a make-good yet (the
  // campaigns' weeks asked for together).
  const advertiser = await browser.newContext()
  await apiSignIn(advertiser.request, DEMO.certified)
  const list = await json<{ items: Campaign[] }>(advertiser.request, '/api/campaigns?page_size=0')
  const cutoff = isoDay(new Date(Date.now() - 2 * 24 * 3600 * 1000))
  const active = list.items.filter((c) => c.status === 'active')
  const weeksOf = await Promise.all(active.map((c) => json<{ items: Week[] }>(advertiser.request, `/api/campaigns/${c.id}/weeks?page_size=0`)))
  const found = active
    .map((campaign, i) => ({ campaign, week: weeksOf[i]!.items.find((w) => w.end_at < cutoff && !w.make_good && w.product_ooh > 0) }))
    .find((candidate): candidate is { campaign: Campaign; week: Week } => candidate.week !== undefined)
  if (!found) throw new Error('the demo seed gives the certified company no active campaign with a finished week')
  const { campaign, week } = found
  const before = Math.round((await json<{ account_credit: number }>(advertiser.request, '/companies/currentCompany')).account_credit * 100)
  const delivered = Math.floor(week.product_ooh / 2)
  const credit = makeGoodCents(Math.round(week.offer_price * 100), week.product_ooh, delivered)

  // The admin records the week at half its plan; an absurd figure is refused first, naming the limit.
  await signIn(page, DEMO.admin)
  await page.goto(`/admin/campaigns/edit/week/${campaign.id}`)
  await expect(page.getByRole('heading', { name: 'Edit campaign weeks' })).toBeVisible()
  const label = `week of ${displayDate(week.start_at)} at ${week.product.location_name}${week.product.face ? ` (${week.product.face})` : ''}`
  await page.getByRole('button', { name: `Record delivery of the ${label}` }).click()
  const dialog = page.getByRole('dialog', { name: 'Record delivery' })
  await dialog.getByLabel('Actual impressions').fill(String(week.product_ooh * 10 + 1))
  await dialog.getByRole('button', { name: 'Save impressions' }).click()
  await expect(dialog.getByText(/Actual impressions can be at most [\d,]+ for this week: 10 times its [\d,]+ contracted impressions\./)).toBeVisible()
  await dialog.getByLabel('Actual impressions').fill(String(delivered))
  await dialog.getByRole('button', { name: 'Save impressions' }).click()
  await expect(page.getByText("The week's impressions have been recorded.")).toBeVisible()
  await dialog.getByRole('button', { name: 'Close' }).click()

  // The admin's make-goods filter lists it.
  await page.goto('/admin/campaigns')
  await page.getByLabel('Show').selectOption('make-goods')
  const grid = page.getByRole('table', { name: 'Make-goods' })
  await expect(grid.getByRole('row').filter({ hasText: campaign.name }).filter({ hasText: dollars(credit) }).first()).toBeVisible()
  await expectAccessibleHere(page, 'the make-goods filter')

  // The advertiser: the make-good on the campaign page, the week's row, the email, the credit.
  const adv = await advertiser.newPage() // signed in through the API above
  await adv.goto(`/campaigns/${campaign.id}`)
  const makeGoods = adv.getByRole('list', { name: 'Make-goods' })
  const item = makeGoods.getByRole('listitem').filter({ hasText: `week of ${displayDate(week.start_at)}` }).filter({ hasText: week.product.location_name })
  await expect(item).toContainText(`${dollars(credit)} credit`)
  await expect(item).toContainText('(50.0%)')
  await expect(adv.getByRole('table', { name: 'Campaign weeks' }).getByText(`Make-good ${dollars(credit)}`).first()).toBeAttached()
  await expectAccessibleHere(adv, '/campaigns/{id} with a make-good')
  await lastScreen(adv, 'delivery-assurance-make-good')
  await waitForMail(DEMO.certified, new RegExp(`We have added \\${dollars(credit).replace(/[.,]/g, '\\$&')} to your account credit as a make-good`))
  await adv.goto('/settings')
  await adv.getByRole('tab', { name: 'Card and credit' }).click()
  await expect(adv.getByTestId('account-credit')).toHaveText(wholeDollars(before + credit))
  await advertiser.close()
})
