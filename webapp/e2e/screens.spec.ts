import { expect, test, type APIRequestContext, type Page } from '@playwright/test'
import { createHash, generateKeyPairSync, sign, type KeyObject } from 'node:crypto'
import { BASE_URL } from './env'
import { DEMO, DEMO_PASSWORD, expectAccessibleHere, lastScreen, offline, OUTPUT_DIR, signIn, XHR } from './support'

// Issue 28 §6: the admin Screens page (pair a screen for a face, see it on the map and in the
// table, revoke it) and the advertiser's campaign page saying where a face's delivered figure comes
// from. The player is played here by the test itself, signing its calls as docs/screens.md says.

interface Week {
  id: string
  product_id: string
  start_at: string
  end_at: string
  delivery_source?: string
  product: { location_name: string; face: string }
}
interface Campaign {
  id: string
  name: string
  status: string
}

/** Today in the business time zone (BUSINESS_TIMEZONE's default), as YYYY-MM-DD. */
const today = () => new Intl.DateTimeFormat('en-CA', { timeZone: 'America/New_York', year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date())

async function json<T>(request: APIRequestContext, url: string): Promise<T> {
  const response = await request.get(url, { headers: XHR })
  expect(response.ok(), `${url}: ${await response.text()}`).toBe(true)
  return (await response.json()) as T
}

/** The demo advertiser's running campaign and its face booked this week (what a screen would play). */
async function runningFace(request: APIRequestContext): Promise<{ campaign: Campaign; week: Week }> {
  const signedIn = await request.post('/signin', { headers: XHR, data: { email: DEMO.advertiser, password: DEMO_PASSWORD } })
  expect(signedIn.ok(), await signedIn.text()).toBe(true)
  const day = today()
  const seen: string[] = []
  for (const campaign of (await json<{ items: Campaign[] }>(request, '/api/campaigns?page_size=0')).items) {
    seen.push(`${campaign.name}: ${campaign.status}`)
    if (campaign.status !== 'active') continue
    const weeks = (await json<{ items: Week[] }>(request, `/api/campaigns/${campaign.id}/weeks?page_size=0`)).items
    // Not a face the import journey (screens-import.spec.ts) counted plays on: this journey reads
    // the face's plays today, which must be only its own player's.
    const week = weeks.find((w) => w.start_at <= day && day <= w.end_at && w.delivery_source !== 'import')
    if (week) return { campaign, week }
  }
  throw new Error(`the demo seed has no running campaign with a face booked this week (${day}):\n${seen.join('\n')}`)
}

/** A player: its Ed25519 key, and signed calls (docs/screens.md "Signed requests"). */
class Player {
  private readonly privateKey: KeyObject
  readonly publicKey: string
  screenId = ''

  private readonly request: APIRequestContext

  constructor(request: APIRequestContext) {
    this.request = request
    const pair = generateKeyPairSync('ed25519')
    this.privateKey = pair.privateKey
    // The raw 32-byte key is the end of its SubjectPublicKeyInfo.
    this.publicKey = pair.publicKey.export({ format: 'der', type: 'spki' }).subarray(-32).toString('base64')
  }

  async pair(code: string) {
    const response = await this.request.post('/api/device/pair', { data: { code, public_key: this.publicKey, app_version: 'marquee-player/e2e' } })
    expect(response.status(), await response.text()).toBe(201)
    this.screenId = ((await response.json()) as { screen_id: string }).screen_id
  }

  private headers(method: string, path: string, body: string) {
    const timestamp = String(Math.floor(Date.now() / 1000))
    const message = `${method}\n${path}\n${timestamp}\n${createHash('sha256').update(body).digest('hex')}`
    return {
      'X-Screen-Id': this.screenId,
      'X-Screen-Timestamp': timestamp,
      'X-Screen-Signature': sign(null, Buffer.from(message), this.privateKey).toString('base64'),
    }
  }

  async post(path: string, body: unknown) {
    const text = JSON.stringify(body)
    return this.request.post(path, { data: text, headers: { 'Content-Type': 'application/json', ...this.headers('POST', path, text) } })
  }

  /** This week's schedule item of a campaign (its creative is what the face shows). */
  async scheduled(campaignId: string): Promise<{ campaign_id: string; creative_id: string }> {
    const path = '/api/device/schedule?weeks=1'
    const response = await this.request.get(path, { headers: this.headers('GET', path, '') })
    expect(response.status(), await response.text()).toBe(200)
    const schedule = (await response.json()) as { weeks: { items: { campaign_id: string; creative_id: string }[] }[] }
    const item = schedule.weeks[0]?.items.find((i) => i.campaign_id === campaignId)
    expect(item, JSON.stringify(schedule)).toBeTruthy()
    return item!
  }
}

async function noSidewaysScroll(page: Page) {
  const overflow = await page.evaluate('document.documentElement.scrollWidth - window.innerWidth')
  expect(Number(overflow), 'the page scrolls sideways').toBeLessThanOrEqual(0)
}

test('an admin pairs a screen for a face, sees it online on the map and in the table, and revokes it; the advertiser sees where the figure comes from', async ({ page, browser, request }) => {
  const lookup = await browser.newContext({ baseURL: BASE_URL })
  const { campaign, week } = await runningFace(lookup.request)
  await lookup.close()
  const location = week.product.location_name
  const screenName = `${location}, ${week.product.face}`
  const escaped = location.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

  await offline(page)
  await page.setViewportSize({ width: 1366, height: 900 })
  await signIn(page, DEMO.admin)
  await page.getByRole('navigation').getByRole('link', { name: 'Screens' }).first().click()
  await expect(page).toHaveURL(/\/admin\/screens$/)
  await expect(page.getByRole('heading', { name: 'Screens', level: 1 })).toBeVisible()
  await expect(page.getByText('No screen is paired yet.')).toBeVisible()
  await expectAccessibleHere(page, '/admin/screens (empty)')

  // Pair a screen: pick the face, get the code shown once with its expiry and the player's command.
  await page.getByRole('button', { name: 'Pair a screen' }).click()
  const dialog = page.getByRole('dialog', { name: 'Pair a screen' })
  await expect(dialog.getByRole('button', { name: 'Get a pairing code' })).toBeDisabled()
  await dialog.getByLabel('Find a face').fill(location)
  await dialog.getByRole('radio', { name: new RegExp(`^${escaped}, ${week.product.face}`) }).check()
  await expectAccessibleHere(page, '/admin/screens (pair: pick a face)')
  await dialog.getByRole('button', { name: 'Get a pairing code' }).click()
  const codeBox = dialog.getByTestId('pairing-code')
  await expect(codeBox).toBeVisible()
  const code = (await codeBox.textContent())!.trim()
  expect(code).toMatch(/^[A-Z0-9-]{8,}$/)
  await expect(dialog.getByText(/^Expires .*\(in 24 h\)\.$/)).toBeVisible()
  await expect(dialog.getByTestId('player-command')).toHaveText(`marquee dev player --server '${BASE_URL}' --pairing-code '${code}'`)
  await expectAccessibleHere(page, '/admin/screens (pair: the code)')
  await lastScreen(page, 'screens-pairing-code-1366')
  await dialog.getByRole('button', { name: 'Done' }).click()
  await expect(dialog).toHaveCount(0)

  // Until the player pairs, the code is all there is: no screen yet.
  await expect(page.getByText('No screen is paired yet.')).toBeVisible()

  // The player pairs with the code, reads its schedule, says it is alive, and reports three plays
  // of this week's creative.
  const player = new Player(request)
  await player.pair(code)
  // Plays outside the face's operating hours are flagged, not counted (docs/screens.md "Hours and
  // time zone"): the face runs all day here, so the journey's plays count at any hour it runs.
  const faceHours = (await json<{ hours: { timezone: string } }>(page.request, `/api/admin/faces/${week.product_id}`)).hours
  const allDay = await page.request.put(`/api/admin/faces/${week.product_id}/hours`, { headers: XHR, data: { timezone: faceHours.timezone, open: '00:00', close: '24:00' } })
  expect(allDay.status(), await allDay.text()).toBe(200)
  const item = await player.scheduled(campaign.id)
  const heartbeat = await player.post('/api/device/heartbeat', { app_version: 'marquee-player/e2e', free_disk_bytes: 8 * 1024 ** 3, current_creative_id: item.creative_id, last_error: '' })
  expect(heartbeat.status(), await heartbeat.text()).toBe(204)
  const start = Date.now() - 60_000
  const plays = [1, 2, 3].map((seq) => ({ seq, campaign_id: campaign.id, creative_id: item.creative_id, started_at: new Date(start + seq * 8000).toISOString().replace(/\.\d+Z$/, 'Z'), duration_ms: 8000 }))
  const posted = await player.post('/api/device/plays', { plays })
  const result = (await posted.json()) as { accepted: number; flagged: unknown[] }
  expect(posted.status(), JSON.stringify(result)).toBe(200)
  expect(result.accepted, JSON.stringify(result)).toBe(3)

  // The table and the map show it, online.
  await page.reload()
  const table = page.getByRole('table', { name: 'Screens' })
  const row = table.getByRole('row').filter({ hasText: location })
  await expect(row).toContainText('Online')
  await expect(row).toContainText('just now')
  await expect(row).toContainText('marquee-player/e2e')
  await expect(row).toContainText('8.0 GB')
  await expect(row).toContainText(/[^\d,]3 (of [\d,]+ \(\d+%\)|\(none expected\))/)
  await expect(page.getByTestId('screen-counts')).toHaveText('1 online')
  const marker = page.locator('.map-face--tone-good')
  await expect(marker).toHaveCount(1)
  await expect(marker).toHaveAttribute('title', new RegExp(`^${escaped}, .*, online$`))
  await marker.click()
  await expect(page.locator('.leaflet-popup')).toContainText(location)
  await expectAccessibleHere(page, '/admin/screens (a screen online)')
  await page.locator('.leaflet-popup-close-button').click()
  await expect(page.locator('.map-face--tone-good.map-face--normal')).toHaveCount(1)
  await lastScreen(page, 'screens-1366')

  // At 390 px the table becomes cards and nothing scrolls sideways.
  await page.setViewportSize({ width: 390, height: 844 })
  await expect(page.getByText('marquee-player/e2e')).toBeVisible()
  await noSidewaysScroll(page)
  await expectAccessibleHere(page, '/admin/screens at 390 px')
  await lastScreen(page, 'screens-390')
  await page.setViewportSize({ width: 1366, height: 900 })

  // The advertiser's campaign page: this face's week counts the screen's plays, and says so.
  const advertiser = await browser.newContext({ baseURL: BASE_URL, viewport: { width: 1366, height: 900 } })
  const adPage = await advertiser.newPage()
  await offline(adPage)
  await signIn(adPage, DEMO.advertiser)
  await adPage.goto(`/campaigns/${campaign.id}`)
  const weeks = adPage.getByRole('table', { name: 'Campaign weeks' })
  await adPage.getByLabel('Rows per page').selectOption('0')
  const badge = weeks.getByTitle("Counted from the plays the face's screen signed and reported")
  await expect(badge).toHaveCount(1)
  await expect(badge).toHaveText(/Screen/)
  await expect(weeks.getByRole('row').filter({ has: adPage.getByTitle("Counted from the plays the face's screen signed and reported") })).toContainText(location)
  await badge.scrollIntoViewIfNeeded()
  await expectAccessibleHere(adPage, '/campaigns/{id} with a delivery source')
  await lastScreen(adPage, 'screens-campaign-source-1366')
  await weeks.screenshot({ path: `${OUTPUT_DIR}/screens-campaign-weeks-1366.png` })
  await adPage.setViewportSize({ width: 390, height: 844 })
  await badge.scrollIntoViewIfNeeded()
  await expect(badge).toBeVisible()
  await lastScreen(adPage, 'screens-campaign-source-390')
  await badge.screenshot({ path: `${OUTPUT_DIR}/screens-campaign-badge-390.png` })
  await advertiser.close()

  // Revoke, with a confirmation: cancelling keeps the screen; confirming refuses its calls.
  await row.getByRole('button', { name: `Revoke the screen at ${screenName}` }).click()
  const confirm = page.getByRole('dialog', { name: 'Revoke this screen?' })
  await expect(confirm).toContainText(screenName)
  await confirm.getByRole('button', { name: 'Cancel' }).click()
  await expect(confirm).toHaveCount(0)
  await expect(row).toContainText('Online')
  await row.getByRole('button', { name: `Revoke the screen at ${screenName}` }).click()
  await confirm.getByRole('button', { name: 'Revoke' }).click()
  await expect(page.getByText(`The screen at ${screenName} is revoked.`)).toBeVisible()
  await expect(row).toContainText('Revoked')
  await expect(row.getByRole('button', { name: /Revoke/ })).toHaveCount(0)
  await expect(page.locator('.map-face--tone-good')).toHaveCount(0)
  const refused = await player.post('/api/device/heartbeat', { app_version: 'marquee-player/e2e', free_disk_bytes: 1, current_creative_id: '', last_error: '' })
  expect(refused.status()).toBe(401)
})

test('an admin sets a face’s time zone and operating hours in the face editor', async ({ page }) => {
  await offline(page)
  await page.setViewportSize({ width: 1366, height: 900 })
  await signIn(page, DEMO.admin)
  await page.goto('/admin/faces')
  // No wait for Los Angeles' faces: the list of the market before is not shown while they load, so
  // the first face listed is one of theirs (before, a click could land on the market before's).
  await page.getByLabel('Market', { exact: true }).selectOption('Los Angeles')
  await page.getByRole('list', { name: 'Faces' }).getByRole('button').first().click()
  const editor = page.getByRole('region', { name: 'Face editor' })
  const hours = editor.getByRole('form', { name: 'Operating hours' })
  // A Los Angeles face takes its market's zone, and the default hours.
  await expect(hours.getByLabel('Time zone')).toHaveValue('America/Los_Angeles')
  await expect(hours.getByLabel('Opens')).toHaveValue('06:00')
  await expect(hours.getByLabel('Closes')).toHaveValue('24:00')
  await expect(hours.getByText(/^Now \d{2}:\d{2} there\.$/)).toBeVisible()

  // Refused before the save, with the server's messages.
  await hours.getByLabel('Time zone').fill('America/Los_Angles')
  await hours.getByRole('button', { name: 'Save hours' }).click()
  await expect(hours.getByText('The time zone must be an IANA zone name, such as America/Los_Angeles.')).toBeVisible()
  await expect(hours.getByLabel('Time zone')).toBeFocused()
  await hours.getByLabel('Time zone').fill('America/Los_Angeles')
  await hours.getByLabel('Opens').fill('18:00')
  await hours.getByLabel('Closes').fill('02:00')
  await hours.getByRole('button', { name: 'Save hours' }).click()
  await expect(hours.getByText('The face must open before it closes, on the same day (00:00 to 24:00 runs all day).')).toBeVisible()
  await expectAccessibleHere(page, '/admin/faces (hours refused)')

  await hours.getByLabel('Opens').fill('07:30')
  await hours.getByLabel('Closes').fill('23:00')
  await hours.getByRole('button', { name: 'Save hours' }).click()
  await expect(hours.getByText('The hours are saved.')).toBeVisible()
  await expectAccessibleHere(page, '/admin/faces (hours saved)')
  for (const width of [1366, 390]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 })
    await hours.scrollIntoViewIfNeeded()
    await page.screenshot({ path: `${OUTPUT_DIR}/face-hours-${width}.png`, fullPage: true })
  }
  await page.setViewportSize({ width: 1366, height: 900 })

  // Saved on the server: the face read again has them; then the demo's hours are put back.
  await page.reload()
  await page.getByLabel('Market', { exact: true }).selectOption('Los Angeles')
  await page.getByRole('list', { name: 'Faces' }).getByRole('button').first().click()
  await expect(hours.getByLabel('Opens')).toHaveValue('07:30')
  await expect(hours.getByLabel('Closes')).toHaveValue('23:00')
  await hours.getByLabel('Opens').fill('06:00')
  await hours.getByLabel('Closes').fill('24:00')
  await hours.getByRole('button', { name: 'Save hours' }).click()
  await expect(hours.getByText('The hours are saved.')).toBeVisible()
})
