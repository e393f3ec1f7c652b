import { expect, test, type Browser, type Locator, type Page } from '@playwright/test'
import { bookByApi, campaignDefaults, cardByApi, faceList, libraryCreative, marketBox, newAdvertiser, PASSWORD } from './campaignSupport'
import { jpegImage } from './images'
import { DEMO, expectAccessibleHere, lastScreen, signIn, signUpByApi, unique, XHR } from './support'

// Issue 29: the creative pre-flight and the in-situ preview in the web app. The builder checks as
// the user types (no server call); the campaign form asks the server for the chosen faces and
// shows the creative on a face, by day and night, as a photo and a drive-by; the admin marks a
// face's screen corners. Each screen is checked with axe and kept at 390 and 1366 px.

const SIZES = [
  { name: 'phone', width: 390, height: 844 },
  { name: 'desktop', width: 1366, height: 900 },
]

/** Whether an image has loaded and decoded (a PNG the server drew). */
const loaded = (img: Locator) => img.evaluate((el) => (el as unknown as { complete: boolean; naturalWidth: number }).complete && (el as unknown as { naturalWidth: number }).naturalWidth > 0)

const check = (page: Page, id: string) => page.getByTestId('preflight-panel').locator(`[data-check="${id}"]`).first()

test('the Ad Design Tool warns as the user types, from the same rules as the server', async ({ page }) => {
  await newAdvertiser(page)
  await page.goto('/creatives/create')
  const panel = page.getByTestId('preflight-panel')
  await expect(panel.getByRole('heading', { name: 'Pre-flight (live)' })).toBeVisible()
  // An empty white canvas: nothing to read, but it glares at night.
  await expect(check(page, 'night_brightness')).toHaveAttribute('data-level', 'fail')
  await expect(check(page, 'words')).toHaveAttribute('data-level', 'pass')

  await page.getByRole('button', { name: 'Add text' }).click()
  const text = page.getByLabel('Text', { exact: true })
  await text.fill('One two three four five six seven eight nine')
  await expect(check(page, 'words')).toHaveAttribute('data-level', 'warning')
  await expect(check(page, 'words')).toContainText('9 words')
  await text.pressSequentially(' ten eleven')
  await expect(check(page, 'words')).toHaveAttribute('data-level', 'fail')
  // The default 24 px text is a little small for an arterial road.
  await expect(check(page, 'letter_height')).not.toHaveAttribute('data-level', 'pass')
  await text.fill('Fresh coffee. Exit 12.')
  await page.getByLabel('Size').fill('120')
  await expect(check(page, 'words')).toHaveAttribute('data-level', 'pass')
  await expect(check(page, 'letter_height')).toHaveAttribute('data-level', 'pass')
  // Light grey on white: the contrast fails.
  await page.getByLabel('Text colour').fill('#dddddd')
  await expect(check(page, 'contrast')).toHaveAttribute('data-level', 'fail')
  await expect(page.getByTestId('preflight-score')).toHaveText(/Score \d+\/100/)

  await expectAccessibleHere(page, '/creatives/create with the live pre-flight')
  for (const size of SIZES) {
    await page.setViewportSize(size)
    await panel.scrollIntoViewIfNeeded()
    await panel.screenshot({ path: `test-output/preflight-builder-${size.width}.png` })
  }
})

test('an uploaded creative shows its pre-flight next to the upload', async ({ page }) => {
  await newAdvertiser(page)
  await page.goto('/creatives')
  await page.getByRole('button', { name: 'New creative' }).click()
  const dialog = page.getByRole('dialog', { name: 'New creative' })
  await dialog.getByLabel('Creative file').setInputFiles({ name: 'sale.jpg', mimeType: 'image/jpeg', buffer: await jpegImage(page, 1400, 400, 'Big sale') })
  await expect(dialog.getByText('Uploaded sale.jpg')).toBeVisible()
  const panel = dialog.getByTestId('preflight-panel')
  await expect(panel.getByRole('heading', { name: 'Pre-flight of this image' })).toBeVisible()
  await expect(panel.getByTestId('preflight-score')).toHaveText(/Score \d+\/100/)
  await expect(panel.locator('[data-check]')).toHaveCount(7)
  await expect(panel.locator('[data-check="size"]')).toHaveAttribute('data-level', 'pass')
  await expectAccessibleHere(page, 'the new-creative dialog with its pre-flight')
  for (const size of SIZES) {
    await page.setViewportSize(size)
    await dialog.screenshot({ path: `test-output/preflight-upload-${size.width}.png` })
  }
})

test('the campaign form checks the creative on the chosen faces before payment and previews it on a face', async ({ page }) => {
  await newAdvertiser(page)
  const creativeName = `Preflight ${unique()}`
  await libraryCreative(page, page.request, creativeName)

  const asked: { creative_id?: string; face_ids?: string[] }[] = []
  page.on('request', (r) => {
    if (r.url().endsWith('/api/creatives/preflight') && r.method() === 'POST') asked.push(r.postDataJSON())
  })
  await page.goto('/campaigns/new')
  const section = page.getByTestId('campaign-preflight')
  // The first creative is the company default, so it is checked from the start.
  await expect(section.getByTestId('preflight-panel')).toBeVisible()

  await marketBox(page, 'Denver').check()
  const list = faceList(page)
  await expect(list.getByRole('checkbox').first()).toBeVisible()
  await expect(list.getByText('Loading price…')).toHaveCount(0)
  const boxes = list.locator('input[type=checkbox]:not([disabled])')
  await boxes.nth(0).check()
  await boxes.nth(1).check()

  await page.getByRole('button', { name: 'Add creative' }).click()
  const selector = page.getByRole('dialog', { name: 'Choose a creative' })
  await selector.getByRole('tab', { name: 'Pick from library' }).click()
  await selector.getByRole('button', { name: `Use ${creativeName}` }).click()
  await expect(page.getByTestId('creative-name')).toHaveText(creativeName)
  // The form asked the server for the creative on both chosen faces.
  await expect.poll(() => asked.some((body) => body.face_ids?.length === 2 && !!body.creative_id)).toBe(true)
  const sent = () => asked.find((body) => body.face_ids?.length === 2)!

  await expect(section.getByTestId('preflight-score')).toHaveText(/Score \d+\/100/)
  await expect(section.locator('[data-check]')).toHaveCount(7)
  await expect(section.getByText('Score on each face (2)')).toBeVisible()

  // The preview: the creative drawn in the browser onto the face's photo, in perspective
  // (a CSS matrix3d from the screen's corners), by day and night, as a photo and a drive-by.
  const preview = section.getByTestId('in-situ-preview')
  await expect(preview).toBeVisible()
  const photo = preview.locator('img[src*="/api/od/photos/"]')
  const creative = preview.locator('img[style*="matrix3d"]')
  await expect(creative).toHaveCount(1)
  await expect.poll(() => loaded(photo)).toBe(true)
  await expect.poll(() => loaded(creative)).toBe(true)
  await preview.getByText('Night', { exact: true }).click()
  await expect(preview).toHaveAttribute('data-light', 'night')
  await expect(photo).toHaveAttribute('style', /brightness/)
  await preview.getByText('Drive-by', { exact: true }).click()
  await expect(preview).toHaveAttribute('data-view', 'driveby')
  await expect(preview.locator('[style*="blur"]').first()).toBeVisible()
  await expect(preview).toContainText('as a driver sees it from')
  await preview.screenshot({ path: 'test-output/preflight-preview-night-driveby.png' })
  // The server draws the same preview as a PNG (emails, the PDF report).
  const png = await page.request.get(`/api/creatives/${sent().creative_id}/preview?face=${sent().face_ids![0]}&light=night&view=driveby`)
  expect(png.status()).toBe(200)
  expect(png.headers()['content-type']).toBe('image/png')
  await preview.getByText('Day', { exact: true }).click()
  await preview.getByText('Photo', { exact: true }).click()

  await expectAccessibleHere(page, '/campaigns/new with the pre-flight')
  for (const size of SIZES) {
    await page.setViewportSize(size)
    await section.scrollIntoViewIfNeeded()
    await expect.poll(() => loaded(creative)).toBe(true)
    await section.screenshot({ path: `test-output/preflight-campaign-${size.width}.png` })
  }
  await expectAccessibleHere(page, '/campaigns/new with the pre-flight at 1366 px')

  // Warnings never block: the review opens whatever the report says.
  await page.getByRole('button', { name: 'Review and confirm' }).click()
  await expect(page.getByRole('alert').filter({ hasText: /pre-?flight/i })).toHaveCount(0)
})

test('an admin marks a face’s screen corners on its photo', async ({ page }) => {
  await signIn(page, DEMO.admin)
  await page.goto('/admin/faces')
  await expect(page.getByRole('heading', { level: 1, name: 'Faces' })).toBeVisible()
  const faces = page.getByRole('list', { name: 'Faces' })
  await faces.getByRole('button').first().click()
  const editor = page.getByRole('region', { name: 'Face editor' })
  await expect(editor.getByLabel('Width (ft)')).not.toHaveValue('')
  const hasPhoto = (await editor.getByTestId('corner-editor').count()) > 0
  if (hasPhoto) {
    await expect(editor.getByTestId('corner-editor').locator('canvas').first()).toBeVisible()
    // The keyboard's way: corner 1 moved one pixel right.
    const x = editor.getByRole('group', { name: '1. Top left' }).getByLabel('x')
    await x.fill(String(Number(await x.inputValue()) + 1))
  }
  await editor.getByLabel('Width (ft)').fill('48')
  await editor.getByRole('button', { name: 'Save face' }).click()
  await expect(editor.getByText('The face is saved.')).toBeVisible()
  // A face size out of range is refused with the server's message, before the save.
  await editor.getByLabel('Width (ft)').fill('0')
  await editor.getByRole('button', { name: 'Save face' }).click()
  await expect(editor.getByText("The face's width and height must be between 1 and 200 feet.")).toBeVisible()
  await editor.getByLabel('Width (ft)').fill('48')

  await expectAccessibleHere(page, '/admin/faces')
  for (const size of SIZES) {
    await page.setViewportSize(size)
    await editor.scrollIntoViewIfNeeded()
    await page.screenshot({ path: `test-output/preflight-admin-faces-${size.width}.png`, fullPage: true })
  }
  await lastScreen(page, 'preflight-admin-faces')
})

/** A new company's campaign on two Denver faces with its creative; answers the campaign's id. */
async function campaignWithCreative(browser: Browser, page: Page): Promise<string> {
  const context = await browser.newContext()
  try {
    const request = context.request
    const email = `review-${unique()}@example.com`
    await signUpByApi(request, email, PASSWORD)
    const signin = await request.post('/signin', { headers: XHR, data: { email, password: PASSWORD } })
    expect(signin.ok(), await signin.text()).toBe(true)
    await cardByApi(request)
    const creative = await libraryCreative(page, request, `Review ${unique()}`)
    const faces = (await (await request.get('/api/od/locations/?market=Denver')).json()) as { id: string }[]
    const { default_start } = await campaignDefaults(request)
    // Faces from the end of the list: the other journeys choose from its start.
    const status = await bookByApi(request, creative.id, 'Denver', faces.slice(-2).map((f) => f.id), default_start)
    expect(status).toBe(201)
    const list = (await (await request.get('/api/campaigns?page_size=0', { headers: XHR })).json()) as { items: { id: string }[] }
    return list.items[0]!.id
  } finally {
    await context.close()
  }
}

test('the admin’s review of a campaign shows its creative’s pre-flight on the campaign’s faces', async ({ page, browser }) => {
  const id = await campaignWithCreative(browser, page)
  await signIn(page, DEMO.admin)
  await page.goto(`/admin/campaigns/edit/${id}`)
  const review = page.getByTestId('campaign-preflight').first()
  await expect(review.getByRole('heading', { name: /^Creative review: pre-flight on \d+ faces?$/ })).toBeVisible()
  await expect(review.getByTestId('preflight-score')).toHaveText(/Score \d+\/100/)
  await expect(review.locator('[data-check]')).toHaveCount(7)
  await expect(review.getByTestId('in-situ-preview')).toBeVisible()
  await expect.poll(() => loaded(review.locator('[data-testid="in-situ-preview"] img[style*="matrix3d"]'))).toBe(true)
  await expectAccessibleHere(page, '/admin/campaigns/edit with the creative review')
  for (const size of SIZES) {
    await page.setViewportSize(size)
    await review.scrollIntoViewIfNeeded()
    await review.screenshot({ path: `test-output/preflight-admin-review-${size.width}.png` })
  }
})
