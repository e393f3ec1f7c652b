import { expect, test, type Locator, type Page } from '@playwright/test'
import { jpegImage, pngImage, pngSize } from './images'
import { DEMO, lastScreen, signIn, unique, waitForMail } from './support'

// The Ad Design Tool exports a 1400x400 PNG that becomes a creative, and the
// creatives list with its upload checks, default creative and delete (A §2, §5, §8, §9).

const MB = 1024 * 1024
const MSG_SAVED = 'Creative uploaded successfully'
const MSG_WRONG_TYPE = 'Sorry, the upload cannot be completed. Please ensure the file has extension .jpeg or .jpg'
const MSG_HINT = 'To build your own ad, click the Creatives menu and then select Ad Design Tool'

/** The selected item's "WxH at X, Y" line in the builder's side panel. */
async function selectedBox(page: Page) {
  const text = (await page.getByText(/^\d+x\d+ at -?\d+, -?\d+$/).textContent()) ?? ''
  const [, width, height, x, y] = text.match(/^(\d+)x(\d+) at (-?\d+), (-?\d+)$/)!.map(Number)
  return { width: width!, height: height!, x: x!, y: y! }
}

/** Screen coordinates of a point of the 1400x400 canvas. */
async function canvasPoint(canvas: Locator, x: number, y: number) {
  const box = (await canvas.boundingBox())!
  const scale = box.width / 1400
  return { x: box.x + x * scale, y: box.y + y * scale }
}

test('build an ad in the builder, export it and see it in /creatives', async ({ page }) => {
  const adName = `Summer Sale ${unique()}`
  await signIn(page, DEMO.advertiser)
  await page.goto('/creatives/create')
  await expect(page.getByRole('heading', { level: 1, name: 'Ad Design Tool' })).toBeVisible()
  const canvas = page.getByTestId('ad-canvas').locator('canvas').first()
  await expect(canvas).toBeVisible()

  // A text item with the A §9 defaults, then edited.
  await page.getByRole('button', { name: 'Add text' }).click()
  await expect(page.getByLabel('Font', { exact: true })).toHaveValue('Arial')
  await expect(page.getByLabel('Size', { exact: true })).toHaveValue('24')
  await expect(page.getByLabel('Text colour')).toHaveValue('#000000')
  await page.getByLabel('Text', { exact: true }).fill('SUMMER SALE 50% OFF')
  await page.getByLabel('Font', { exact: true }).selectOption('Kanit')
  await page.getByLabel('Size', { exact: true }).fill('48')

  // An image item from a local PNG; a wrong type and a corrupt image are refused.
  const imageInput = page.getByLabel('Image file (JPEG or PNG)')
  await imageInput.setInputFiles({ name: 'logo.gif', mimeType: 'image/gif', buffer: Buffer.from('GIF89a') })
  await expect(page.getByRole('alert').filter({ hasText: MSG_WRONG_TYPE })).toBeVisible()
  await imageInput.setInputFiles({ name: 'broken.png', mimeType: 'image/png', buffer: Buffer.from('not really a png') })
  await expect(page.getByRole('alert').filter({ hasText: 'The image could not be read' })).toBeVisible()
  await imageInput.setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: pngImage(300, 150) })
  const layers = page.getByRole('list', { name: 'Layers, top first' })
  await expect(layers.getByRole('listitem')).toHaveCount(2)
  await expect(layers.getByRole('button', { name: 'Image: logo.png' })).toHaveAttribute('aria-pressed', 'true')

  // Drag the text item with the mouse.
  await layers.getByRole('button', { name: /^Text: SUMMER SALE/ }).click()
  const before = await selectedBox(page)
  const grab = await canvasPoint(canvas, before.x + 40, before.y + 20)
  await page.mouse.move(grab.x, grab.y)
  await page.mouse.down()
  await page.mouse.move(grab.x + 60, grab.y + 40, { steps: 8 })
  await page.mouse.up()
  const moved = await selectedBox(page)
  expect(moved.x).toBeGreaterThan(before.x + 30)
  expect(moved.y).toBeGreaterThan(before.y + 20)

  // Resize it far below the minimum: it stops at 100x50 or above (A §5).
  const corner = await canvasPoint(canvas, moved.x + moved.width, moved.y + moved.height)
  const target = await canvasPoint(canvas, moved.x + 10, moved.y + 5)
  await page.mouse.move(corner.x, corner.y)
  await page.mouse.down()
  await page.mouse.move(target.x, target.y, { steps: 12 })
  await page.mouse.up()
  const resized = await selectedBox(page)
  expect(resized.width).toBeLessThan(moved.width)
  expect(resized.width).toBeGreaterThanOrEqual(100)
  expect(resized.height).toBeGreaterThanOrEqual(50)

  // The default white background is light: export asks for 'Yes, I understand' (A §5).
  await page.getByLabel('Ad name').fill(adName)
  await page.getByRole('button', { name: 'Export and save' }).click()
  const warning = page.getByRole('dialog', { name: 'Light background' })
  await expect(warning.getByRole('button', { name: 'Yes, I understand' })).toBeVisible()
  await warning.getByRole('button', { name: 'Change colour' }).click()
  await page.getByLabel('Background colour').fill('#1e3a8a')

  // Export: the uploaded PNG is exactly 1400x400 (A §9), then it is saved as a creative.
  const upload = page.waitForResponse((r) => r.url().includes('/upload_creative_image') && r.request().method() === 'POST')
  await page.getByRole('button', { name: 'Export and save' }).click()
  const answer = await upload
  expect(answer.status()).toBe(200)
  const { path } = (await answer.json()) as { path: string }
  const stored = await page.request.get(`/creative/image?image=${encodeURIComponent(path)}`)
  expect(stored.headers()['content-type']).toBe('image/png')
  expect(pngSize(await stored.body())).toEqual({ width: 1400, height: 400 })
  await expect(page.getByText(MSG_SAVED)).toBeVisible()
  // The confirmation shows for 3000 ms (A §9), then the list opens with the new creative.
  await expect(page).toHaveURL(/\/creatives$/, { timeout: 10_000 })
  const row = page.getByRole('row').filter({ hasText: adName })
  await expect(row).toBeVisible()
  await expect(row).toContainText('1400x400')
  await lastScreen(page, 'creatives-builder-export')
})

test('the builder asks before a cancel loses the work', async ({ page }) => {
  await signIn(page, DEMO.advertiser)
  await page.goto('/creatives/create')
  await page.getByRole('button', { name: 'Add text' }).click()
  await page.getByRole('button', { name: 'Cancel' }).click()
  const confirm = page.getByRole('dialog', { name: 'Leave the Ad Design Tool' })
  await expect(confirm).toContainText('Are you sure cancel, the progress will be lost?')
  await confirm.getByRole('button', { name: 'Keep editing' }).click()
  await expect(page).toHaveURL(/\/creatives\/create$/)
  await page.getByRole('button', { name: 'Cancel' }).click()
  await page.getByRole('dialog', { name: 'Leave the Ad Design Tool' }).getByRole('button', { name: 'Yes, leave' }).click()
  await expect(page).toHaveURL(/\/creatives$/)
})

test('creatives: checks before upload, save, default and delete', async ({ page }) => {
  const name = `Spring ${unique()}`
  await signIn(page, DEMO.advertiser)
  await page.goto('/creatives')
  await expect(page.getByRole('heading', { level: 1, name: 'Creatives' })).toBeVisible()
  await expect(page.getByTestId('creative-hint')).toHaveText(MSG_HINT)
  // A §9: 10, 20, 50 and All.
  await expect(page.getByLabel('Rows per page').locator('option')).toHaveText(['10', '20', '50', 'All'])

  await page.getByRole('button', { name: 'New creative' }).click()
  const dialog = page.getByRole('dialog', { name: 'New creative' })
  // Saved before any upload (A §5).
  await dialog.getByRole('button', { name: 'Save creative' }).click()
  await expect(dialog.getByText('Sorry! you must first upload your creative')).toBeVisible()

  const dropzone = dialog.getByLabel('Creative file')
  // Wrong type, zero bytes and 11 MB are refused before sending.
  const sent: string[] = []
  page.on('request', (r) => {
    if (r.url().includes('/upload_creative')) sent.push(r.url())
  })
  await dropzone.setInputFiles({ name: 'brief.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.4') })
  await expect(dialog.getByText(MSG_WRONG_TYPE)).toBeVisible()
  await dropzone.setInputFiles({ name: 'empty.jpg', mimeType: 'image/jpeg', buffer: Buffer.alloc(0) })
  await expect(dialog.getByText('The file is empty.')).toBeVisible()
  await dropzone.setInputFiles({ name: 'huge.jpg', mimeType: 'image/jpeg', buffer: Buffer.alloc(11 * MB, 1) })
  await expect(dialog.getByText('This file is 11 MB; the limit is 10 MB.')).toBeVisible()
  expect(sent).toEqual([])

  // A renamed file and a corrupt JPEG reach the server, which decides by content (422: its message).
  await dropzone.setInputFiles({ name: 'renamed.jpg', mimeType: 'image/jpeg', buffer: Buffer.from('this is plain text, not a picture') })
  await expect(dialog.getByRole('alert').filter({ hasText: MSG_WRONG_TYPE })).toBeVisible()
  const jpeg = await jpegImage(page, 1400, 400, 'Spring')
  await dropzone.setInputFiles({ name: 'corrupt.jpg', mimeType: 'image/jpeg', buffer: jpeg.subarray(0, 300) })
  await expect(dialog.getByRole('alert').filter({ hasText: 'The image could not be read' })).toBeVisible()
  expect(sent.length).toBe(2)

  // A real JPEG uploads with a progress bar, then saves.
  await dropzone.setInputFiles({ name: 'spring.jpg', mimeType: 'image/jpeg', buffer: jpeg })
  await expect(dialog.getByText('Uploaded spring.jpg')).toBeVisible()
  await expect(dialog.getByLabel('Name')).toHaveValue('spring')
  await dialog.getByLabel('Name').fill(name)
  await dialog.getByRole('button', { name: 'Save creative' }).click()
  await expect(dialog.getByText(MSG_SAVED)).toBeVisible()
  // A §9: the confirmation closes after 3000 ms.
  await expect(dialog).toBeHidden({ timeout: 6000 })
  const row = page.getByRole('row').filter({ hasText: name })
  await expect(row).toBeVisible()

  // The company's default creative.
  await row.getByRole('button', { name: `Set as default ${name}` }).click()
  await expect(page.getByRole('region', { name: 'Company default creative' })).toContainText(name)
  await expect(row).toContainText('Default')

  // 21 files at once are refused before sending (A §5).
  await page.getByRole('button', { name: 'Upload several' }).click()
  const bulk = page.getByRole('dialog', { name: 'Upload several creatives' })
  await bulk.getByLabel('Creative files').setInputFiles(
    Array.from({ length: 21 }, (_, i) => ({ name: `ad-${i}.jpg`, mimeType: 'image/jpeg', buffer: jpeg })),
  )
  await expect(bulk.getByText('You can upload at most 20 files at once.')).toBeVisible()
  // Two at once become two creatives.
  await bulk.getByLabel('Creative files').setInputFiles([
    { name: `north-${name}.jpg`, mimeType: 'image/jpeg', buffer: jpeg },
    { name: `south-${name}.jpg`, mimeType: 'image/jpeg', buffer: jpeg },
  ])
  await expect(bulk.getByText(MSG_SAVED)).toBeVisible()
  await bulk.getByRole('button', { name: 'Done' }).click()
  await expect(page.getByRole('row').filter({ hasText: `north-${name}` })).toBeVisible()

  // Delete after the confirmation (A §8).
  await row.getByRole('button', { name: `Delete ${name}` }).click()
  const confirm = page.getByRole('dialog', { name: 'Delete creative' })
  await expect(confirm).toContainText('Are you sure you want to delete the creative?')
  await confirm.getByRole('button', { name: 'Delete' }).click()
  await expect(page.getByRole('row').filter({ hasText: name }).filter({ hasNotText: 'north-' }).filter({ hasNotText: 'south-' })).toHaveCount(0)
  await lastScreen(page, 'creatives-list')
})

test('request a build: the creative request goes out by email (A §8)', async ({ page }) => {
  const note = `Coffee two for one ${unique()}`
  await signIn(page, DEMO.advertiser)
  await page.goto('/creatives')
  await page.getByRole('button', { name: 'Request a build' }).click()
  const dialog = page.getByRole('dialog', { name: 'Request a build' })
  await expect(dialog.getByLabel('Email')).toHaveValue(DEMO.advertiser)
  await expect(dialog.getByLabel('Full name')).not.toHaveValue('')
  await dialog.getByLabel(/What should the ad say/).fill(note)
  await dialog.getByRole('button', { name: 'Send request' }).click()
  await expect(dialog.getByText('Thank you for your Creative request - Someone will be in touch with you shortly')).toBeVisible()
  // The outbox delivers it to the operations team (OPERATIONS_EMAIL) with the message.
  await waitForMail('operations@marquee.local', new RegExp(note))
  await waitForMail(DEMO.advertiser, /We received your creative request/)
  await lastScreen(page, 'creatives-request')
})
