import { expect, test, type Page } from '@playwright/test'
import {
  bookByApi,
  campaignDefaults,
  cardByApi,
  faceBox,
  faceList,
  libraryCreative,
  marketBox,
  MSG,
  newAdvertiser,
  otherCompany,
  spots,
} from './campaignSupport'
import { axeScan, lastScreen, unique, XHR } from './support'

// /campaigns/new against the real server (market and radius flows, a conflict
// resolved both ways, the validation messages), each with a screenshot of its last screen.

async function expectAccessible(page: Page, what: string) {
  const results = await axeScan(page)
  expect(results.violations.map((v) => `${what}: ${v.id} ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([])
}

/** Checks the first `count` faces that can be checked; returns their ids. */
async function checkFaces(page: Page, count: number): Promise<string[]> {
  const list = faceList(page)
  await expect(list.getByRole('checkbox').first()).toBeVisible()
  await expect(list.getByText('Loading price…')).toHaveCount(0)
  const enabled = list.locator('input[type=checkbox]:not([disabled])')
  const ids: string[] = []
  for (let i = 0; i < count; i++) {
    const box = enabled.nth(i)
    const id = (await box.getAttribute('id'))!.replace(/^face-/, '')
    await box.check()
    ids.push(id)
  }
  return ids
}

async function reviewAndConfirm(page: Page) {
  await page.getByRole('button', { name: 'Review and confirm' }).click()
  const review = page.getByRole('dialog', { name: 'Review and confirm' })
  await expect(review).toBeVisible()
  return review
}

test('market flow: faces on the map, a library creative, a 4242 card, a promo, confirm, and the campaign turns active', async ({ page }) => {
  await newAdvertiser(page)
  const creativeName = `Launch ${unique()}`
  await libraryCreative(page, page.request, creativeName)

  await page.goto('/campaigns/new')
  await expect(page.getByRole('heading', { level: 1, name: 'New campaign' })).toBeVisible()
  await page.getByLabel('Campaign name').fill(`Denver launch ${unique()}`)
  await marketBox(page, 'Denver').check()
  await expect(page.locator('.leaflet-container')).toHaveAttribute('data-faces', /^[1-9]\d*$/)
  const [first] = await checkFaces(page, 2)
  await expect(page.getByText('(2 chosen)')).toBeVisible()
  await expect(page.getByTestId('weekly-budget')).not.toHaveText('$0')
  await expect(page.getByTestId('impressions')).not.toHaveText('0')

  // The info window on the map carries the same check.
  await page.getByRole('button', { name: new RegExp(`^Show .* on the map$`) }).first().click()
  await expect(page.locator('.leaflet-popup')).toContainText('Remove from campaign')
  expect(first).toBeTruthy()

  // Weekly, three weeks.
  await page.getByRole('radio', { name: /Specified end date/ }).check()
  await expect(page.getByTestId('duration')).toHaveText(/2 weeks/)

  // The creative from the library.
  await page.getByRole('button', { name: 'Add creative' }).click()
  const selector = page.getByRole('dialog', { name: 'Choose a creative' })
  await selector.getByRole('tab', { name: 'Pick from library' }).click()
  await selector.getByRole('button', { name: `Use ${creativeName}` }).click()
  await expect(page.getByTestId('creative-name')).toHaveText(creativeName)

  // The 4242 card in the card modal (campaign flow).
  await page.getByRole('button', { name: 'Add card' }).click()
  const cardDialog = page.getByRole('dialog', { name: 'Add a payment card' })
  await cardDialog.getByLabel('Card number').fill('4242 4242 4242 4242')
  await cardDialog.getByLabel('Month').selectOption('12')
  await cardDialog.getByLabel('Year').selectOption(String(new Date().getFullYear() + 2))
  await cardDialog.getByLabel('Security code').fill('123')
  await cardDialog.getByRole('button', { name: 'Add card' }).click()
  await expect(page.getByTestId('card-on-file')).toHaveText('xxxx-xxxx-xxxx-4242')

  // A promo redeemed: its amount lands on the account credit the budget uses.
  const before = await page.getByTestId('weekly-budget').innerText()
  await page.getByRole('button', { name: 'Redeem a promo code' }).click()
  const promo = page.getByRole('dialog', { name: 'Redeem a promo code' })
  await promo.getByLabel('Promo code').fill('WELCOME50')
  await promo.getByRole('button', { name: 'Redeem' }).click()
  await promo.getByRole('button', { name: 'Done' }).click()
  await expect(page.getByTestId('account-credit')).toHaveText('$50')
  await expect(page.getByTestId('weekly-budget')).not.toHaveText(before)

  const review = await reviewAndConfirm(page)
  await expect(review).toContainText(creativeName)
  await expect(review).toContainText('xxxx-xxxx-xxxx-4242')
  await expectAccessible(page, '/campaigns/new (review)')
  const created = page.waitForResponse((r) => r.url().endsWith('/api/campaigns') && r.request().method() === 'POST')
  await review.getByRole('button', { name: 'Confirm campaign' }).click()
  const answer = await created
  expect(answer.status()).toBe(201)
  expect(answer.request().headers()['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/)
  const { campaign } = (await answer.json()) as { campaign: { id: string; status: string } }

  await expect(page).toHaveURL(/\/campaigns\/success\/submitted$/)
  await expect(page.getByText(MSG.created)).toBeVisible()
  await expectAccessible(page, '/campaigns/success/submitted')

  await page.getByRole('link', { name: 'Go to my campaigns' }).click()
  await expect(page).toHaveURL(/\/campaigns$/)

  // The first week is charged after commit; the detail page polls the pending campaign every
  // 5 s (A §4) and shows it active once the gateway has said so.
  await page.goto(`/campaigns/${campaign.id}`)
  const status = page.getByTestId('campaign-header').getByText(/^(Pending|Active)$/)
  await expect(status).toHaveText('Active', { timeout: 60_000 })
  await lastScreen(page, 'campaign-create-market')
})

test('radius flow around a searched place', async ({ page }) => {
  await newAdvertiser(page)
  await cardByApi(page.request)
  const creative = await libraryCreative(page, page.request, `Radius ${unique()}`)
  const setDefault = await page.request.put(`/api/creatives/${creative.id}/default`, { headers: XHR })
  expect(setDefault.ok()).toBe(true)

  await page.goto('/campaigns/new')
  await page.getByLabel('Campaign name').fill(`Around SF ${unique()}`)
  await page.getByText('Radius around an address', { exact: true }).click()
  await page.getByRole('combobox', { name: 'Address or place' }).fill('San Francisco')
  await page.getByRole('option', { name: 'San Francisco, CA' }).click()
  await page.getByLabel('Radius', { exact: true }).selectOption('25')
  await expect(page.locator('.leaflet-overlay-pane path')).toHaveCount(1)
  await checkFaces(page, 1)
  await expect(page.getByText(`Use the company default (${creative.name})`)).toBeVisible()
  await page.getByRole('radio', { name: 'Ongoing' }).check()

  const review = await reviewAndConfirm(page)
  await expect(review).toContainText('25 miles around San Francisco')
  const created = page.waitForResponse((r) => r.url().endsWith('/api/campaigns') && r.request().method() === 'POST')
  await review.getByRole('button', { name: 'Confirm campaign' }).click()
  const answer = await created
  expect(answer.status(), await answer.text()).toBe(201)
  const body = JSON.parse(answer.request().postData() ?? '{}') as { strategySelected: number; radiusCheckValue: number; place_id: string; frequencySelected: string }
  expect(body).toMatchObject({ strategySelected: 0, radiusCheckValue: 25, frequencySelected: 'ongoing' })
  expect(body.place_id).toBeTruthy()
  await expect(page).toHaveURL(/\/campaigns\/success\/submitted$/)
  await lastScreen(page, 'campaign-create-radius')
})

for (const choice of ['suggested', 'own'] as const) {
  test(`a conflict resolved with ${choice === 'own' ? 'my own dates' : 'the suggested dates'}`, async ({ page, request }) => {
    await newAdvertiser(page)
    await cardByApi(page.request)
    const mine = await libraryCreative(page, page.request, `Mine ${unique()}`)
    await page.request.put(`/api/creatives/${mine.id}/default`, { headers: XHR })
    const rival = await otherCompany(request, page)
    const { default_start: week } = await campaignDefaults(page.request)
    const market = choice === 'own' ? 'Chicago' : 'Boston'

    await page.goto('/campaigns/new')
    await page.getByLabel('Campaign name').fill(`Contested ${unique()}`)
    await marketBox(page, market).check()
    const list = faceList(page)
    await expect(list.getByText('Loading price…')).toHaveCount(0)

    // Two faces the form shows as available; the rival takes every free spot of the first.
    const free = (await spots(page.request, market, week)).filter((s) => s.available).sort((a, b) => a.available_spots - a.used_spots - (b.available_spots - b.used_spots))
    const [taken, other] = [free[0]!, free[1]!]
    await faceBox(page, taken.xxx).check()
    if (choice === 'own') await faceBox(page, other.xxx).check()
    for (let i = taken.used_spots; i < taken.available_spots; i++) {
      expect(await bookByApi(request, rival.creativeId, market, [taken.xxx], week)).toBe(201)
    }

    const review = await reviewAndConfirm(page)
    const conflictAnswer = page.waitForResponse((r) => r.url().endsWith('/api/campaigns') && r.request().method() === 'POST')
    await review.getByRole('button', { name: 'Confirm campaign' }).click()
    expect((await conflictAnswer).status()).toBe(409)

    const dialog = page.getByRole('dialog', { name: 'Some locations are taken' })
    await expect(dialog).toBeVisible()
    await expect(dialog).toContainText(MSG.conflict)
    await expect(dialog.getByRole('region', { name: 'Suggested dates' }).getByRole('listitem')).not.toHaveCount(0)
    await expect(page.getByLabel('Campaign name')).toBeDisabled()
    await expectAccessible(page, '/campaigns/new (conflict dialog)')
    await lastScreen(page, `campaign-conflict-${choice}-dialog`)

    const resolved = page.waitForResponse((r) => r.url().includes('/resolve'))
    await dialog.getByRole('button', { name: choice === 'own' ? 'Keep my own dates' : 'Use suggested dates' }).click()
    const answer = await resolved
    expect(answer.status(), await answer.text()).toBe(200)
    expect(JSON.parse(answer.request().postData() ?? '{}')).toEqual({ choice })
    await expect(page).toHaveURL(/\/campaigns$/)
    const { campaign } = (await answer.json()) as { campaign?: { id: string } }
    expect(campaign?.id).toBeTruthy()
    const weeks = (await (await page.request.get(`/api/campaigns/${campaign!.id}/weeks?page_size=0`, { headers: XHR })).json()) as { items: { product_id: string; start_at: string; status_week: string }[] }
    const takenWeeks = weeks.items.filter((w) => w.product_id === taken.xxx)
    if (choice === 'suggested') {
      // The taken face runs on a later free week, every week booked (active).
      expect(takenWeeks.length).toBeGreaterThan(0)
      expect(takenWeeks.every((w) => w.start_at > week && w.status_week === 'active')).toBe(true)
    } else {
      // Only my own free dates are kept: the taken face is dropped.
      expect(takenWeeks).toEqual([])
      expect(weeks.items.some((w) => w.product_id === other.xxx && w.start_at === week)).toBe(true)
    }
    await lastScreen(page, `campaign-conflict-${choice}`)
  })
}

test('the validation messages of B §5, on the client and from the server', async ({ page }) => {
  await newAdvertiser(page)
  await page.goto('/campaigns/new')
  await page.getByLabel('Campaign name').fill(`Checks ${unique()}`)
  await expect(page.getByRole('textbox', { name: 'Start date (a Monday)' })).not.toHaveValue('')

  await page.getByRole('button', { name: 'Review and confirm' }).click()
  await expect(page.getByText(MSG.location)).toBeVisible()
  await expect(page.getByText(MSG.creative)).toBeVisible()
  // B §5: nothing chosen costs nothing, so no card is asked for yet; one face
  // costs, and then it is. The card message is also a flash of 600000 ms.
  await expect(page.getByText(MSG.card)).toHaveCount(0)
  await marketBox(page, 'Denver').check()
  await checkFaces(page, 1)
  await page.getByRole('button', { name: 'Review and confirm' }).click()
  await expect(page.getByRole('alert').filter({ hasText: MSG.card }).first()).toBeVisible()

  // 53 weeks.
  await page.getByRole('radio', { name: /Specified end date/ }).check()
  const start = await page.getByRole('textbox', { name: 'Start date (a Monday)' }).inputValue()
  const [m, d, y] = start.split('/').map(Number)
  const end = new Date(y!, m! - 1, d! + 53 * 7 - 1)
  const endText = `${String(end.getMonth() + 1).padStart(2, '0')}/${String(end.getDate()).padStart(2, '0')}/${end.getFullYear()}`
  await page.getByRole('textbox', { name: 'End date (a Sunday)' }).fill(endText)
  await expect(page.getByTestId('duration')).toHaveText(/53 weeks/)
  await page.getByRole('button', { name: 'Review and confirm' }).click()
  await expect(page.getByText(MSG.duration)).toBeVisible()
  await expect(page.getByRole('dialog', { name: 'Review and confirm' })).toHaveCount(0)
  await expectAccessible(page, '/campaigns/new (messages)')
  await lastScreen(page, 'campaign-create-validation')

  // The server says the same, and refuses a budget that is not a number.
  const { default_start: week } = await campaignDefaults(page.request)
  const post = (data: Record<string, unknown>) =>
    page.request.post('/api/campaigns', {
      headers: { ...XHR, 'Idempotency-Key': `checks-${unique()}` },
      data: { name: 'Checks', typeCampaign: 1, strategySelected: 1, marketsSelected: ['Denver'], places_checked: [], startDate: week, frequencySelected: 'one-time', duration: 1, weekly_budget: '', impression_count: 0, ...data },
    })
  const noPlace = await post({})
  expect(noPlace.status()).toBe(400)
  expect(((await noPlace.json()) as { message: string }).message).toBe(MSG.location)
  const denver = (await spots(page.request, 'Denver', week)).find((s) => s.available)!
  const abc = await post({ places_checked: [{ id: denver.xxx }], weekly_budget: 'abc' })
  expect(abc.status()).toBe(400)
  expect(((await abc.json()) as { message: string }).message).toBe(MSG.number)
  const long = await post({ places_checked: [{ id: denver.xxx }], frequencySelected: 'weekly', duration: 53 })
  expect(((await long.json()) as { message: string }).message).toBe(MSG.duration)
})

test('the form works on a phone', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 })
  await newAdvertiser(page)
  await page.goto('/campaigns/new')
  await marketBox(page, 'Denver').check()
  await checkFaces(page, 1)
  const overflow = await page.evaluate<number>('document.documentElement.scrollWidth - document.documentElement.clientWidth')
  expect(overflow).toBeLessThanOrEqual(0)
  await expectAccessible(page, '/campaigns/new (phone)')
  await lastScreen(page, 'campaign-create-phone')
})

test('edit a campaign with the same form: prefilled, a face added, saved', async ({ page }) => {
  await newAdvertiser(page)
  await cardByApi(page.request)
  const creative = await libraryCreative(page, page.request, `Edit ${unique()}`)
  const { default_start: week } = await campaignDefaults(page.request)
  const free = (await spots(page.request, 'Denver', week)).filter((s) => s.available)
  const created = await page.request.post('/api/campaigns', {
    headers: { ...XHR, 'Idempotency-Key': `edit-${unique()}` },
    data: { name: 'Before edit', typeCampaign: 1, strategySelected: 1, marketsSelected: ['Denver'], places_checked: [{ id: free[0]!.xxx }], startDate: week, frequencySelected: 'one-time', duration: 1, creative_id: creative.id, weekly_budget: '', impression_count: 0 },
  })
  expect(created.status(), await created.text()).toBe(201)
  const { campaign } = (await created.json()) as { campaign: { id: string } }

  await page.goto(`/campaigns/edit/${campaign.id}`)
  await expect(page.getByRole('heading', { level: 1, name: 'Edit campaign' })).toBeVisible()
  await expect(page.getByLabel('Campaign name')).toHaveValue('Before edit')
  await expect(marketBox(page, 'Denver')).toBeChecked()
  await expect(faceBox(page, free[0]!.xxx)).toBeChecked()
  await expect(page.getByText('(1 chosen)')).toBeVisible()
  await page.getByLabel('Campaign name').fill('After edit')
  await faceBox(page, free[1]!.xxx).check()
  await page.getByRole('button', { name: 'Review changes' }).click()
  const review = page.getByRole('dialog', { name: 'Review and confirm' })
  const saved = page.waitForResponse((r) => r.url().endsWith(`/api/campaigns/${campaign.id}`) && r.request().method() === 'PUT')
  await review.getByRole('button', { name: 'Save changes' }).click()
  expect((await saved).status(), await (await saved).text()).toBe(200)
  await expect(page).toHaveURL(new RegExp(`/campaigns/${campaign.id}$`))
  await expect(page.getByText('Campaign has been updated successfully!')).toBeVisible()
  await expect(page.getByTestId('campaign-header')).toContainText('After edit')
  await lastScreen(page, 'campaign-edit')
})

test('a half-filled campaign survives a trip to the Ad Design Tool (issue 12 item 24)', async ({ page }) => {
  await newAdvertiser(page)
  await page.goto('/campaigns/new')
  const name = `Draft ${unique()}`
  await page.getByLabel('Campaign name').fill(name)
  await marketBox(page, 'Denver').check()
  const [id] = await checkFaces(page, 1)
  await page.getByRole('radio', { name: /Specified end date/ }).check()

  // The creative selector's hint sends people to the Ad Design Tool; coming back is a new visit
  // (a fresh load, not the browser's back-forward cache).
  await page.goto('/creatives/create')
  await expect(page.getByRole('heading', { level: 1, name: 'Ad Design Tool' })).toBeVisible()
  await page.goto('/campaigns/new')

  await expect(page.getByRole('status').filter({ hasText: 'Draft restored.' })).toBeVisible()
  await expect(page.getByLabel('Campaign name')).toHaveValue(name)
  await expect(marketBox(page, 'Denver')).toBeChecked()
  await expect(page.getByRole('radio', { name: /Specified end date/ })).toBeChecked()
  await expect(faceBox(page, id!)).toBeChecked()
  await expect(page.getByText('(1 chosen)')).toBeVisible()
  await expectAccessible(page, '/campaigns/new (draft restored)')

  await page.getByRole('button', { name: 'Discard draft' }).click()
  await expect(page.getByLabel('Campaign name')).toHaveValue('')
  await page.reload()
  await expect(page.getByRole('heading', { level: 1, name: 'New campaign' })).toBeVisible()
  await expect(page.getByText('Draft restored.')).toHaveCount(0)
  await lastScreen(page, 'campaign-create-draft')
})

test('two markets in one campaign (issue 12 item 11)', async ({ page }) => {
  await newAdvertiser(page)
  await cardByApi(page.request)
  const mine = await libraryCreative(page, page.request, `Two ${unique()}`)
  await page.request.put(`/api/creatives/${mine.id}/default`, { headers: XHR })
  await page.goto('/campaigns/new')
  await page.getByLabel('Campaign name').fill(`Two markets ${unique()}`)
  await marketBox(page, 'Denver').check()
  await marketBox(page, 'Chicago').check()
  const list = faceList(page)
  await expect(list.getByText('Loading price…')).toHaveCount(0)
  const { default_start: week } = await campaignDefaults(page.request)
  const denver = (await spots(page.request, 'Denver', week)).find((s) => s.available)!
  const chicago = (await spots(page.request, 'Chicago', week)).find((s) => s.available)!
  await faceBox(page, denver.xxx).check()
  await faceBox(page, chicago.xxx).check()
  await expect(page.getByText('(2 chosen)')).toBeVisible()
  const review = await reviewAndConfirm(page)
  await expect(review).toContainText('Denver, Chicago')
  const created = page.waitForResponse((r) => r.url().endsWith('/api/campaigns') && r.request().method() === 'POST')
  await review.getByRole('button', { name: 'Confirm campaign' }).click()
  const answer = await created
  expect(answer.status(), await answer.text()).toBe(201)
  expect(answer.request().postDataJSON()).toMatchObject({ marketsSelected: ['Denver', 'Chicago'] })
  await expect(page).toHaveURL(/\/campaigns\/success\/submitted$/)
})
