import { expect, test, type Page } from '@playwright/test'
import { readFile } from 'node:fs/promises'
import { DEMO, expectAccessibleHere, lastScreen, signIn, signUpByApi, unique, waitForMail } from './support'

// Reports. The demo advertiser's "Back to School" is a finished campaign with recorded
// impressions and proofs (start-server.sh runs `seed --demo`).

const MSG_CREATED = 'Your report has been created successfully!'
const MSG_NO_CAMPAIGNS = 'You must have at least one campaign to generate a report.'

/** A small, real PDF (one page), as an admin would upload. */
function pdfFile(): Buffer {
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    '<< /Length 58 >>\nstream\nBT /F1 24 Tf 72 700 Td (Independent audit, E2E) Tj ET\nendstream',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ]
  let body = '%PDF-1.4\n'
  const offsets: number[] = []
  objects.forEach((o, i) => {
    offsets.push(body.length)
    body += `${i + 1} 0 obj\n${o}\nendobj\n`
  })
  const xref = body.length
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`
  return Buffer.from(body, 'latin1')
}

/**
 * Collects what would tell that the PDF frame was blocked: CSP violation events of the
 * page and the console's errors about a Content Security Policy or a refused frame.
 */
function watchFrameBlocks(page: Page): string[] {
  const seen: string[] = []
  page.on('console', (m) => {
    if (/content security policy|refused to (frame|display|load)/i.test(m.text())) seen.push(m.text())
  })
  void page.exposeFunction('__reportCsp', (v: string) => seen.push(v))
  void page.addInitScript({ content: "document.addEventListener('securitypolicyviolation', (e) => window.__reportCsp(e.violatedDirective + ' ' + e.blockedURI))" })
  return seen
}

/** The report's frame holds the PDF, shown by the browser's PDF viewer (not the blocked-frame page). */
async function expectPdfInFrame(page: Page, name: string): Promise<void> {
  const iframe = page.locator(`iframe[title="PDF of ${name}"]`)
  await expect(iframe).toBeVisible()
  const inner = (await (await iframe.elementHandle())!.contentFrame())!
  await expect.poll(() => inner.url()).toMatch(/\/api\/reports\/[0-9a-f-]{36}\/file$/)
  await expect.poll(() => inner.evaluate<string>('document.contentType').catch((e: Error) => e.message)).toBe('application/pdf')
}

test('an advertiser generates a report of a finished campaign, opens it, downloads the PDF and removes it', async ({ page }) => {
  const name = `E2E Back to School ${unique()}`
  const blocked = watchFrameBlocks(page)
  await signIn(page, DEMO.advertiser)
  await page.goto('/reports')
  await expect(page.getByRole('heading', { name: 'Reports', level: 1 })).toBeVisible()
  // The demo reports, and the weekly report switches.
  await expect(page.getByRole('link', { name: 'Summer Sale - independent audit' })).toBeVisible()
  await expect(page.getByRole('switch', { name: 'Weekly report of Holiday Coffee Push' })).toBeChecked()
  await expectAccessibleHere(page, '/reports')

  await page.getByRole('link', { name: 'New report' }).click()
  await expect(page).toHaveURL(/\/reports\/new$/)
  await page.getByLabel('Campaign').selectOption({ label: 'Back to School' })
  await page.getByLabel(/All finished weeks/).check()
  await page.getByLabel(/Report name/).fill(name)
  await expectAccessibleHere(page, '/reports/new')
  await page.getByRole('button', { name: 'Generate report' }).click()

  // The flash carried to the list, shown once.
  await expect(page).toHaveURL(/\/reports$/)
  await expect(page.getByText(MSG_CREATED)).toBeVisible()
  await page.reload()
  await expect(page.getByRole('link', { name })).toBeVisible()
  await expect(page.getByText(MSG_CREATED)).toHaveCount(0)

  // The report: its figures, the chart, the PDF in the page.
  await page.getByRole('link', { name }).click()
  await expect(page.getByRole('heading', { name, level: 1 })).toBeVisible()
  await expect(page.getByRole('heading', { name: 'Impressions by week' })).toBeVisible()
  await expect(page.getByRole('table', { name: 'Delivery by week' })).toBeVisible()
  await expect(page.getByRole('table', { name: 'Delivery by face' }).getByRole('row')).toHaveCount(2 + 2) // head, 2 faces, total
  await expectPdfInFrame(page, name)
  expect(blocked).toEqual([])
  await expectAccessibleHere(page, '/reports/{id}')
  await lastScreen(page, 'reports-view')

  // Download.
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Download PDF' }).click()])
  const pdf = await readFile((await download.path())!)
  expect(pdf.subarray(0, 5).toString()).toBe('%PDF-')
  expect(download.suggestedFilename()).toMatch(/\.pdf$/)

  // Rename.
  await page.getByRole('button', { name: 'Rename' }).click()
  await page.getByLabel('Report name').fill(`${name} (renamed)`)
  await page.getByRole('button', { name: 'Save name' }).click()
  await expect(page.getByRole('heading', { name: `${name} (renamed)`, level: 1 })).toBeVisible()

  // Remove, after the confirm.
  await page.getByRole('link', { name: '← Reports' }).click()
  await page.getByRole('row', { name: new RegExp(`${name} \\(renamed\\)`) }).getByRole('radio').check()
  await page.getByRole('button', { name: 'Remove report' }).click()
  const dialog = page.getByRole('dialog', { name: 'Remove report' })
  await expect(dialog).toContainText('Are you sure you want to remove this report?')
  await dialog.getByRole('button', { name: 'Remove report' }).click()
  await expect(page.getByRole('link', { name: `${name} (renamed)` })).toHaveCount(0)
  await lastScreen(page, 'reports-advertiser')
})

test('an advertiser without campaigns is sent back to the reports with the message', async ({ page }) => {
  await signUpByApi(page.request, `reports-${unique()}@e2e.test`, 'e2e reports password 1')
  await page.goto('/report/new')
  await expect(page).toHaveURL(/\/reports$/)
  await expect(page.getByText(MSG_NO_CAMPAIGNS)).toBeVisible()
  await expectAccessibleHere(page, '/reports, empty')
  await lastScreen(page, 'reports-no-campaigns')
})

test('an admin uploads a PDF report for a company and emails the advertiser, whose link opens it', async ({ page, browser }) => {
  const name = `E2E audit ${unique()}`
  await signIn(page, DEMO.admin)
  await page.goto('/admin/reports/new')
  await expect(page.getByRole('heading', { name: 'New report', level: 1 })).toBeVisible()

  // Saving without a PDF: B §8.
  await page.getByLabel('Find a company').fill('Sunrise')
  await page.getByLabel('Company', { exact: true }).selectOption({ label: 'Sunrise Coffee Co.' })
  await page.getByLabel('Campaign').selectOption({ label: 'Summer Sale' })
  await page.getByRole('button', { name: 'Save report' }).click()
  await expect(page.getByText('PDF report is required.')).toBeVisible()
  await expectAccessibleHere(page, '/admin/reports/new')

  // Saving waits for the upload: the upload is held at the network until the button is checked.
  let release = () => {}
  const held = new Promise<void>((resolve) => (release = resolve))
  await page.route('**/upload_report*', async (route) => {
    await held
    await route.continue()
  })
  await page.locator('input[type="file"]').setInputFiles({ name: 'audit.pdf', mimeType: 'application/pdf', buffer: pdfFile() })
  await expect(page.getByText('Uploading audit.pdf')).toBeVisible()
  await expect(page.getByRole('button', { name: 'Uploading…' })).toBeDisabled()
  release()
  // "Uploaded", not the file's name alone, which the progress line ("Uploading audit.pdf") shows too.
  await expect(page.getByText('Uploaded audit.pdf')).toBeVisible()
  await expect(page.getByText('PDF report is required.')).toHaveCount(0)
  await page.getByLabel(/Report name/).fill(name)
  await page.getByRole('button', { name: 'Save report' }).click()

  // The new report mailer.
  const dialog = page.getByRole('dialog', { name: 'New report mailer' })
  await expect(dialog).toBeVisible()
  await dialog.getByLabel(/A note for the advertiser/).fill('Your independent audit is in.')
  await dialog.getByRole('button', { name: 'Email the advertiser' }).click()
  await expect(page.getByText('The advertiser has been emailed about the report.')).toBeVisible()
  await expect(page).toHaveURL(/\/admin\/reports\/[0-9a-f-]+$/)
  await expect(page.getByRole('heading', { name, level: 1 })).toBeVisible()
  const id = page.url().split('/').pop()!

  // The admin list filters by company and campaign.
  await page.goto('/admin/reports')
  await page.getByLabel('Find a company').fill('Sunrise')
  await page.getByLabel('Company', { exact: true }).selectOption({ label: 'Sunrise Coffee Co.' })
  await page.getByLabel('Campaign').selectOption({ label: 'Summer Sale' })
  await expect(page.getByRole('link', { name })).toBeVisible()
  await expectAccessibleHere(page, '/admin/reports')

  // The email is in the outbox, and its link opens the report for the advertiser.
  const match = await waitForMail(DEMO.advertiser, /https?:\/\/[^\s]+\/reports\/([0-9a-f-]{36})/)
  expect(match[1]).toBe(id)
  const context = await browser.newContext()
  const advertiser = await context.newPage()
  await signIn(advertiser, DEMO.advertiser)
  await advertiser.goto(new URL(match[0]).pathname)
  await expect(advertiser.getByRole('heading', { name, level: 1 })).toBeVisible()
  const file = await advertiser.request.get(`/api/reports/${id}/file`)
  expect(file.status()).toBe(200)
  expect((await file.body()).equals(pdfFile())).toBe(true)
  await lastScreen(advertiser, 'reports-admin-upload')
  await context.close()
})
