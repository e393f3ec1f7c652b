import { expect, test, type Locator, type Page } from '@playwright/test'
import { DEMO, expectAccessibleHere, lastScreen, signIn } from './support'

// What users tripped over on the report, campaign and partner screens, at the laptop
// size and the phone size the walk-through used. start-server.sh runs `seed --demo`.

const SIZES = [
  { name: '1366', width: 1366, height: 850 },
  { name: '390', width: 390, height: 844 },
] as const

/**
 * Nothing of `region` lies right of the viewport (at 390 px the money and delivery
 * columns sat off-screen with no cue) and the page itself does not scroll sideways.
 */
async function expectAllOnScreen(page: Page, region: Locator, what: string): Promise<void> {
  const width = page.viewportSize()!.width
  // Compiled without the DOM's types: the cells are handled as plain objects.
  // The body's cells: a phone's card layout keeps the head for screen readers only (sr-only).
  const offscreen = await region.locator('tbody td, tbody th, tfoot td, tfoot th').evaluateAll(
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    (cells: any[], w: number) =>
      cells
        .filter((c) => c.getClientRects().length > 0 && c.getBoundingClientRect().width > 1)
        .filter((c) => c.getBoundingClientRect().right > w + 1)
        .map((c) => String(c.textContent).trim().slice(0, 30)),
    width,
  )
  expect(offscreen, `${what}: cells off-screen at ${width} px`).toEqual([])
  expect(await page.evaluate<number>('document.documentElement.scrollWidth'), `${what}: the page scrolls sideways`).toBeLessThanOrEqual(width)
}

for (const size of SIZES) {
  test.describe(`at ${size.width}×${size.height}`, () => {
    test.use({ viewport: { width: size.width, height: size.height } })

    test(`the report page shows its PDF, or a download where there is no PDF viewer (${size.name})`, async ({ page }) => {
      const blocked: string[] = []
      page.on('console', (m) => {
        if (/content security policy|refused to frame/i.test(m.text())) blocked.push(m.text())
      })
      if (size.width < 640) {
        // A phone's browser has no PDF viewer (navigator.pdfViewerEnabled is false there).
        await page.addInitScript({ content: "Object.defineProperty(Navigator.prototype, 'pdfViewerEnabled', { get: () => false })" })
      }
      await signIn(page, DEMO.advertiser)
      await page.goto('/reports')
      await page.getByRole('table', { name: 'Reports' }).getByRole('link', { name: /^Back to School/ }).first().click()
      await expect(page.getByRole('heading', { name: 'Delivery by face' })).toBeVisible()
      const pdf = page.getByRole('region', { name: 'The PDF' })
      if (size.width < 640) {
        await expect(pdf.locator('iframe')).toHaveCount(0)
        await expect(pdf.getByText('This browser cannot show the PDF in the page.')).toBeVisible()
        const [download] = await Promise.all([page.waitForEvent('download'), pdf.getByRole('link', { name: 'Download PDF' }).click()])
        expect(download.suggestedFilename()).toMatch(/\.pdf$/)
      } else {
        const frame = (await (await pdf.locator('iframe').elementHandle())!.contentFrame())!
        await expect.poll(() => frame.url()).toMatch(/\/api\/reports\/[0-9a-f-]{36}\/file$/)
        await expect.poll(() => frame.evaluate<string>('document.contentType').catch((e: Error) => e.message)).toBe('application/pdf')
      }
      expect(blocked).toEqual([])
      // Item 9: the week and face figures are on screen (a card per row on a phone).
      for (const table of ['Delivery by week', 'Delivery by face']) {
        await expectAllOnScreen(page, page.getByRole('table', { name: table }), table)
      }
      await expectAccessibleHere(page, `/reports/{id} at ${size.name}`)
      await lastScreen(page, `phones-report-${size.name}`)
    })

    test(`the campaign page: like-for-like header, make-good markers, weeks and locations on screen (${size.name})`, async ({ page }) => {
      // The demo ambassador's finished "Fall Clearance" earned a make-good.
      await signIn(page, DEMO.ambassador)
      await page.goto('/campaigns')
      await page.getByLabel('Search campaigns').fill('Fall Clearance')
      await page.getByRole('table', { name: 'Campaigns' }).getByRole('link', { name: 'Fall Clearance' }).click()
      await expect(page.getByRole('heading', { level: 1, name: 'Fall Clearance' })).toBeVisible()

      // Item 8: both figures are of the same recorded weeks.
      const facts = page.locator('dl').first()
      await expect(facts.getByText(/^Over the \d+ weeks recorded \([\d,]+ a week\)$/)).toBeVisible()
      await expect(facts.getByText(/^Over the \d+ weeks recorded$/)).toBeVisible()

      // Item 5: no campaign-level make-good line on the chart; the week row and the face row that
      // earned one carry a marker with the credit.
      await expect(page.getByRole('region', { name: 'Impressions' }).getByText(/Make-good threshold/)).toHaveCount(0)
      const weeks = page.getByRole('table', { name: 'Campaign weeks' })
      await expect(weeks.getByRole('link', { name: /^Make-good \$[\d,.]+$/ })).toHaveCount(1)
      await expect(weeks.getByText(/Under 90% of plan: \$[\d,.]+ credit/)).toBeVisible()
      await expect(page.getByRole('list', { name: 'Locations' }).getByText(/1 make-good: \$[\d,.]+ credit/)).toBeVisible()

      // Item 9: the week table's columns are on screen; every location's whole name shows.
      await expectAllOnScreen(page, weeks, 'Campaign weeks')
      const names = page.getByRole('list', { name: 'Locations' }).locator('li button span.font-medium')
      expect(
        await names.evaluateAll(
          // eslint-disable-next-line @typescript-eslint/no-explicit-any
          (spans: any[]) => spans.filter((s) => s.scrollWidth > s.clientWidth + 1).map((s) => s.textContent),
        ),
      ).toEqual([])
      await expectAccessibleHere(page, `/campaigns/{id} at ${size.name}`)
      await lastScreen(page, `phones-campaign-${size.name}`)
    })

    test(`the partner lists keep their money columns on screen (${size.name})`, async ({ page }) => {
      await signIn(page, DEMO.ambassador)
      for (const [path, table] of [
        ['/campaings-linked', 'Linked campaigns'],
        ['/invite', 'Invited clients'],
      ] as const) {
        await page.goto(path)
        const grid = page.getByRole('table', { name: table })
        await expect(grid.getByRole('row').nth(1)).toBeVisible()
        await expectAllOnScreen(page, grid, path)
        await expectAccessibleHere(page, `${path} at ${size.name}`)
        await lastScreen(page, `phones-${path.slice(1)}-${size.name}`)
      }
    })
  })
}

test('the admin report list acts on the selected report (issue 26 item 12)', async ({ page }) => {
  await signIn(page, DEMO.admin)
  await page.goto('/admin/reports')
  const toolbar = page.getByRole('toolbar', { name: 'Selected report' })
  await expect(toolbar.getByRole('button', { name: 'Remove report' })).toBeDisabled()
  await expect(toolbar.getByRole('button', { name: 'Email the advertiser' })).toBeDisabled()
  await page.getByRole('row', { name: /Summer Sale - independent audit/ }).getByRole('radio').check()
  await expect(toolbar.getByText('Selected: Summer Sale - independent audit')).toBeVisible()
  await toolbar.getByRole('button', { name: 'Email the advertiser' }).click()
  await expect(page.getByRole('dialog', { name: 'New report mailer' })).toBeVisible()
  await page.getByRole('dialog', { name: 'New report mailer' }).getByRole('button', { name: /Close|Not now|Cancel/ }).first().click()
  await toolbar.getByRole('link', { name: 'Open' }).click()
  await expect(page).toHaveURL(/\/admin\/reports\/[0-9a-f-]{36}$/)
  await expect(page.getByRole('heading', { level: 1, name: 'Summer Sale - independent audit' })).toBeVisible()
  await expectAccessibleHere(page, '/admin/reports/{id}')
})

test('the two Monday emails are explained in one place and link to each other (issue 26 item 11)', async ({ page }) => {
  await signIn(page, DEMO.advertiser)
  await page.goto('/settings')
  // The digest no longer repeats under every tab.
  await expect(page.getByRole('switch', { name: 'Weekly digest' })).toHaveCount(0)
  await page.getByRole('tab', { name: 'Emails' }).click()
  await expect(page).toHaveURL(/\/settings\?tab=emails$/)
  await expect(page.getByRole('switch', { name: 'Weekly digest' })).toBeVisible()
  await expect(page.getByText('Two emails can reach you on Mondays')).toBeVisible()
  await expectAccessibleHere(page, '/settings?tab=emails')
  await lastScreen(page, 'phones-settings-emails')
  await page.getByRole('link', { name: 'Choose the campaigns in Reports' }).click()
  await expect(page).toHaveURL(/\/reports#weekly-reports$/)
  await expect(page.getByRole('switch', { name: 'Weekly report of Holiday Coffee Push' })).toBeVisible()
  await page.getByRole('link', { name: 'Settings, Emails' }).click()
  await expect(page.getByRole('switch', { name: 'Weekly digest' })).toBeVisible()
})
