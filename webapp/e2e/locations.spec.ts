import { expect, test, type APIRequestContext, type Response } from '@playwright/test'
import { BASE_URL } from './env'
import { lastScreen, offline, XHR } from './support'

// The public map of faces (A §2 /locations, B §9) against the demo inventory, offline: the map
// must work without its tiles, so every request off this server is refused.

interface Face {
  id: string
  location_name: string
  face: string
  city: string
  market: string
  location: { ad_rotation_frequency: number; ad_spot_duration: number }
}
interface Spot {
  xxx: string
  min_value: number
  price: number
  ooh: number
  available: boolean
}

const dollars = (n: number) => `$${new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 }).format(n)}`
const count = (n: number) => new Intl.NumberFormat('en-US').format(n)

async function spotsFor(request: APIRequestContext, weekInput: string, market: string): Promise<Spot[]> {
  const [mm, dd, yyyy] = weekInput.split('/')
  const response = await request.post('/api/available-spots/', {
    headers: XHR,
    data: { start_at: `${yyyy}-${mm}-${dd}`, markets: [market] },
  })
  expect(response.status(), await response.text()).toBe(200)
  return (await response.json()) as Spot[]
}

/** The faces the page asked for, in columns, read again in the API's JSON form. */
async function facesOf(request: APIRequestContext, response: Response): Promise<Face[]> {
  const url = new URL(response.url())
  expect(url.searchParams.get('format')).toBe('columns')
  // The columns without the ids (issue 30): each face has its key (the first bytes of its UUID).
  const columns = await response.json()
  expect(columns).toMatchObject({ format: 2, key_bytes: expect.any(Number) })
  expect(columns).not.toHaveProperty('uuids')
  url.searchParams.delete('format')
  const json = await request.get(url.pathname + url.search)
  expect(json.status()).toBe(200)
  return (await json.json()) as Face[]
}

test('searches a place, changes the radius and opens an info window', async ({ page, request }) => {
  await offline(page)
  const everyFace = (await (await request.get('/api/od/locations/')).json()) as Face[]
  expect(everyFace.length).toBeGreaterThan(0)

  // /locations never sends a face id: it never asks for the ids of the faces (issue 30).
  const idsAsked: string[] = []
  page.on('request', (r) => {
    if (r.url().includes('format=ids')) idsAsked.push(r.url())
  })
  await page.goto('/locations')
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Every billboard face, on one map')
  // Every face of the inventory, clustered on the map of the USA.
  await expect(page.getByTestId('face-count')).toHaveText(`${count(everyFace.length)} faces`)
  const map = page.locator('.leaflet-container')
  await expect(map).toHaveAttribute('data-faces', String(everyFace.length))
  await expect(page.locator('.map-cluster').first()).toBeVisible()

  // Search a place (B §3 Map place) and pick it from the predictions.
  await page.getByText('Place and radius').click()
  const place = page.getByRole('combobox', { name: 'Place' })
  await place.fill('San Francisco')
  const option = page.getByRole('option', { name: 'San Francisco, CA' })
  await expect(option).toBeVisible()
  const within5 = page.waitForResponse((r) => r.url().includes('/api/od/locations/?place=') && r.url().includes('radius=5'))
  await option.click()
  const faces5 = await facesOf(request, await within5)
  await expect(page.getByTestId('face-count')).toHaveText(`${count(faces5.length)} ${faces5.length === 1 ? 'face' : 'faces'}`)
  // The radius circle is drawn (A §2) around the place, at zoom 12 - 5/5 (B §9).
  await expect(page.locator('.leaflet-overlay-pane path')).toHaveCount(1)
  await expect(map).toHaveAttribute('data-zoom', '11')

  // A larger radius (B §9 options) lists at least as many faces.
  const within10 = page.waitForResponse((r) => r.url().includes('/api/od/locations/?place=') && r.url().includes('radius=10'))
  await page.getByLabel('Radius', { exact: true }).selectOption('10')
  const faces10 = await facesOf(request, await within10)
  expect(faces10.length).toBeGreaterThanOrEqual(faces5.length)
  expect(faces10.length).toBeGreaterThan(0)
  await expect(page.getByTestId('face-count')).toHaveText(`${count(faces10.length)} faces`)
  await expect(map).toHaveAttribute('data-zoom', '10')

  // Show the nearest face on the map: zoom 15 (A §9), then open its info window from its marker.
  const face = faces10[0]!
  await page.getByRole('list', { name: 'Faces' }).getByRole('button').first().click()
  const popup = page.locator('.leaflet-popup')
  await expect(popup).toBeVisible()
  await expect(map).toHaveAttribute('data-zoom', '15')
  await popup.locator('.leaflet-popup-close-button').click()
  await expect(popup).toHaveCount(0)
  await page.getByRole('button', { name: `${face.location_name}, ${face.face}` }).click()
  await expect(popup).toBeVisible()

  const week = await page.getByRole('textbox', { name: 'Week starting' }).inputValue()
  const spot = (await spotsFor(request, week, face.market)).find((s) => s.xxx === face.id)
  expect(spot, 'the face has a spot for the week').toBeDefined()
  const info = popup.getByRole('article', { name: `${face.location_name}, ${face.face}` })
  await expect(info.getByRole('heading', { name: face.location_name })).toBeVisible()
  await expect(info).toContainText(face.city)
  await expect(info).toContainText(face.market)
  await expect(info).toContainText(dollars(spot!.price))
  await expect(info).toContainText(count(spot!.ooh))
  await expect(info.getByTestId('face-availability')).toHaveText(new RegExp(`^${spot!.available ? 'Available' : 'Sold out'} for the week of `))
  await expect(info.getByTestId('face-display-text')).toHaveText(
    `Your ad shows Monday through Sunday, for ${face.location.ad_spot_duration} seconds at a rotation frequency of 1 in ${face.location.ad_rotation_frequency}.`,
  )
  await expect(info.getByRole('img', { name: `Photo of ${face.location_name}` })).toBeVisible()
  expect(idsAsked).toEqual([])
  await page.getByRole('heading', { level: 1 }).scrollIntoViewIfNeeded()
  await lastScreen(page, 'locations')
})

test('filters by market and city, with the SF Bay Area fixed at zoom 8', async ({ page, request }) => {
  await offline(page)
  const bayArea = (await (await request.get('/api/od/locations/?market=SF%20Bay%20Area')).json()) as Face[]
  await page.goto('/locations')
  await page.getByLabel('Market', { exact: true }).selectOption('SF Bay Area')
  await expect(page.getByTestId('face-count')).toHaveText(`${count(bayArea.length)} faces`)
  // B §9: the SF Bay Area has a fixed centre, at zoom 8.
  await expect(page.locator('.leaflet-container')).toHaveAttribute('data-zoom', '8')
  const city = bayArea[0]!.city
  await page.getByText('All cities').click()
  await page.getByRole('checkbox', { name: city, exact: true }).check()
  const inCity = bayArea.filter((f) => f.city === city).length
  await expect(page.getByTestId('face-count')).toHaveText(`${count(inCity)} ${inCity === 1 ? 'face' : 'faces'}`)
  await lastScreen(page, 'locations-market')
})

test('works on a phone: the map above the list, nothing wider than the screen', async ({ browser }) => {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, baseURL: BASE_URL })
  const page = await context.newPage()
  await offline(page)
  await page.goto('/locations')
  await expect(page.getByTestId('face-count')).toBeVisible()
  const map = await page.getByRole('region', { name: 'Map of billboard faces' }).boundingBox()
  const list = await page.getByRole('list', { name: 'Faces' }).boundingBox()
  expect(map && list && map.y + map.height <= list.y).toBe(true)
  expect(map!.width).toBeLessThanOrEqual(390)
  // The page does not scroll sideways: its root is no wider than the screen.
  expect(await page.locator('html').evaluate((root) => root.scrollWidth)).toBeLessThanOrEqual(390)
  // A face opens from the list, its info window fits the screen.
  await page.getByRole('list', { name: 'Faces' }).getByRole('button').first().click()
  const popup = await page.locator('.leaflet-popup').boundingBox()
  expect(popup && popup.width <= 390).toBe(true)
  await lastScreen(page, 'locations-phone')
  await context.close()
})

test('a street address, offline, finds the faces around its town and says so (issue 12 item 25)', async ({ page, request }) => {
  await offline(page)
  await page.goto('/locations')
  // The page is prerendered: a click before hydration is lost, and the week is filled in once
  // the app has hydrated (prerender.spec.ts).
  await expect(page.getByRole('textbox', { name: 'Week starting' })).toHaveValue(/^\d\d\/\d\d\/\d{4}$/)
  await page.getByText('Place and radius').click()
  const place = page.getByRole('combobox', { name: 'Place' })
  await place.fill('233 S Wacker Dr, Chicago')
  const option = page.getByRole('option', { name: /Chicago, IL.*Approximate: the town of this address/ })
  await expect(option).toBeVisible()
  const near = page.waitForResponse((r) => r.url().includes('/api/od/locations/?place=') && r.url().includes('radius=5'))
  await option.click()
  const faces = await facesOf(request, await near)
  expect(faces.length).toBeGreaterThan(0)
  await expect(page.getByTestId('face-count')).toHaveText(`${count(faces.length)} ${faces.length === 1 ? 'face' : 'faces'}`)
  await expect(page.getByText('Street addresses cannot be looked up here, so this is the town: distances are measured from the centre of Chicago, IL.')).toBeVisible()
  await lastScreen(page, 'locations-address-fallback')
})

test('clusters the faces in a Web Worker, and on the page when the worker cannot be loaded (issue 30)', async ({ page, request }) => {
  await offline(page)
  const everyFace = (await (await request.get('/api/od/locations/')).json()) as Face[]
  const map = page.locator('.leaflet-container')

  const workers: string[] = []
  page.on('worker', (w) => workers.push(w.url()))
  await page.goto('/locations')
  await expect(map).toHaveAttribute('data-faces', String(everyFace.length))
  await expect(page.locator('.map-cluster').first()).toBeVisible()
  expect(workers.some((url) => url.includes('clusterWorker'))).toBe(true)

  // The worker's script refused: the same faces are clustered on the page.
  const refused: string[] = []
  page.on('requestfailed', (r) => refused.push(r.url()))
  await page.route('**/clusterWorker-*.js', (route) => route.abort())
  await page.reload()
  await expect(map).toHaveAttribute('data-faces', String(everyFace.length))
  await expect(page.locator('.map-cluster').first()).toBeVisible()
  expect(refused.some((url) => url.includes('clusterWorker'))).toBe(true)
})
