import { expect, test, type APIRequestContext } from '@playwright/test'
import { DEMO, expectAccessibleHere, lastScreen, signIn, unique, XHR } from './support'

// An admin imports a CMS's proof-of-play export (docs/screens-import.md): the first upload refuses
// the rows of unmapped references, the mapping editor ties them to a demo campaign's face and
// creative, the same file uploaded again counts its rows, and the week's figure comes from the
// import.

interface Week {
  id: string
  product_id: string
  start_at: string
  end_at: string
  act_imp?: number | null
  creative_id: string
  delivery_source: string
}
interface Campaign {
  id: string
  name: string
  status: string
  creative_id: string
  company: string
}

async function json<T>(request: APIRequestContext, url: string): Promise<T> {
  const response = await request.get(url, { headers: XHR })
  expect(response.ok(), `${url}: ${await response.text()}`).toBe(true)
  return (await response.json()) as T
}

const isoDay = (d: Date) => `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`

/** A demo campaign's week running today with no figure yet, and a creative to map to. */
async function openWeek(request: APIRequestContext) {
  const today = isoDay(new Date())
  const list = await json<{ items: Campaign[] }>(request, '/api/admin/campaigns/?page=1&page_size=100')
  for (const c of list.items) {
    const weeks = await json<{ items: Week[] }>(request, `/api/campaigns/${c.id}/weeks?page=1&page_size=100`)
    // A week another run of this journey imported into is fine too: its figure only grows.
    const w = weeks.items.find(
      (x) => x.start_at <= today && today <= x.end_at && ((x.act_imp ?? null) === null || x.delivery_source === 'import'),
    )
    if (!w) continue
    // A campaign without a creative of its own plays its company's default one.
    const fallback = w.creative_id || c.creative_id ? null : await json<{ id: string } | null>(request, `/api/creatives/default?company=${c.company}`)
    const creative = w.creative_id || c.creative_id || fallback?.id
    if (creative) return { campaign: c, week: w, creative }
  }
  throw new Error('no demo week runs today without an admin figure')
}

for (const width of [390, 1366]) {
  test(`an admin imports, maps and re-imports an export (${width} px)`, async ({ page }) => {
    await page.setViewportSize({ width, height: 900 })
    await signIn(page, DEMO.admin)
    const { campaign, week, creative } = await openWeek(page.request)
    const u = unique()
    const display = `E2E-DSP-${u}`
    const media = `E2E-AD-${u}`
    const at = (h: number) => new Date(Date.now() - h * 3600_000).toISOString().replace(/\.\d+Z$/, 'Z')
    const csv = `display_id,media_id,started_at,duration_s,play_count\n${display},${media},${at(2)},240,30\n${display},${media},${at(1)},240,30\n`
    const file = { name: `export-${u}.csv`, mimeType: 'text/csv', buffer: Buffer.from(csv) }

    await page.goto('/admin/screens/imports')
    await expect(page.getByRole('heading', { name: 'Imports', level: 1 })).toBeVisible()
    await page.getByLabel('Export file').setInputFiles(file)
    await page.getByLabel('Format').selectOption('csv')
    await page.getByRole('button', { name: 'Import', exact: true }).click()
    const report = page.getByRole('region', { name: /Report:/ })
    const figure = (label: string) => report.locator('dl > div', { hasText: label })
    await expect(figure('Refused')).toContainText('2')
    await expect(report.getByRole('cell', { name: new RegExp(`Display "${display}" is not mapped to a face`) }).first()).toBeVisible()

    // Map the display to the week's face and the media to the campaign's creative.
    const mappings = page.getByRole('region', { name: 'Mappings' })
    await mappings.getByLabel('Campaign').selectOption(campaign.id)
    await mappings.getByLabel(`Face for display ${display}`).selectOption(week.product_id)
    await mappings.getByLabel(`Creative for media ${media}`).selectOption(creative)
    await mappings.getByRole('button', { name: 'Save mappings' }).click()
    await expect(page.getByText('Mappings saved.')).toBeVisible()
    await expect(mappings.getByText('Every reference of the last import is mapped.')).toBeVisible()

    // The same file again: now its rows count.
    await page.getByRole('button', { name: 'Import', exact: true }).click()
    await expect(figure('Accepted')).toContainText('2')
    await expect(figure('Plays counted')).toContainText('60')
    const weeks = await json<{ items: Week[] }>(page.request, `/api/campaigns/${campaign.id}/weeks?page=1&page_size=100`)
    const after = weeks.items.find((x) => x.id === week.id)
    expect(after?.delivery_source).toBe('import')
    expect(after?.act_imp ?? 0).toBeGreaterThan(week.act_imp ?? 0)

    // And once more: nothing new is mapped, so it is the same import's report.
    await page.getByRole('button', { name: 'Import', exact: true }).click()
    await expect(report.getByText('This file was imported before')).toBeVisible()
    await expect(page.getByRole('table').last()).toContainText(`export-${u}.csv`)

    await expectAccessibleHere(page, 'the Imports screen')
    await lastScreen(page, `screens-import-${width}`)
  })
}
