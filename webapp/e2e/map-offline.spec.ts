import { expect, test } from '@playwright/test'
import { BASE_URL } from './env'
import { expectAccessibleHere, lastScreen, offline } from './support'

// Offline, the map asks for no tile. The journeys' server cannot reach its tile server
// (TILE_URL is on .invalid, e2e/start-server.sh), so /api/map/config says offline, and the map draws
// its built-in basemap, says so once, and the console stays clean: before, every tile of the screen
// was a failed request and a console error.

test('offline, /locations draws the built-in map without asking for a tile, and says so once', async ({ page }) => {
  await offline(page)
  const errors: string[] = []
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()))
  page.on('pageerror', (e) => errors.push(e.message))
  const offOrigin: string[] = []
  const failed: string[] = []
  page.on('request', (r) => !r.url().startsWith(BASE_URL) && !r.url().startsWith('data:') && offOrigin.push(r.url()))
  page.on('requestfailed', (r) => failed.push(`${r.url()} ${r.failure()?.errorText ?? ''}`))

  const config = await page.request.get('/api/map/config')
  expect(await config.json()).toMatchObject({ offline: true })

  await page.goto('/locations')
  const region = page.getByRole('region', { name: 'Map of billboard faces' })
  const container = region.locator('.leaflet-container')
  // The map is a lazy chunk: on a loaded machine it takes a while to come.
  await expect(container).toHaveAttribute('data-basemap', 'drawn', { timeout: 30_000 })
  await expect.poll(async () => Number(await container.getAttribute('data-markers'))).toBeGreaterThan(0)
  await expect(region).toHaveAttribute('data-tiles', 'offline')
  // Said once, in the map.
  await expect(region.getByRole('status')).toHaveText('The map tiles can’t be reached: showing the built-in map.')
  await expect(page.getByText('The map tiles can’t be reached')).toHaveCount(1)
  await expect(container.locator('.leaflet-tile-pane img')).toHaveCount(0)

  // Zoom in and pan: still no tile.
  await region.getByRole('button', { name: 'Zoom in' }).click()
  await expect(container).toHaveAttribute('data-zoom', '4')
  const box = (await container.boundingBox())!
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2)
  await page.mouse.down()
  await page.mouse.move(box.x + box.width / 2 - 150, box.y + box.height / 2 - 60, { steps: 8 })
  await page.mouse.up()
  await expect(page.getByText('The map tiles can’t be reached')).toHaveCount(1)

  await lastScreen(page, 'map-offline-1366')
  await page.setViewportSize({ width: 390, height: 844 })
  await expect(region).toBeVisible()
  await expect(region.getByRole('status')).toBeVisible()
  await lastScreen(page, 'map-offline-390')
  await expectAccessibleHere(page, '/locations offline')

  expect(offOrigin).toEqual([])
  expect(failed).toEqual([])
  expect(errors).toEqual([])
})
