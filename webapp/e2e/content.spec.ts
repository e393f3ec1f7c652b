import { expect, test, type Page } from '@playwright/test'
import { pngImage } from './images'
import { DEMO, lastScreen, signIn, unique } from './support'

// The content library (A §2, §4, §5, §6, §8, §9). An admin uploads content and
// marks it relevant; a regular user sees only the items of their company type.

const MSG_SAVED = 'Content uploaded successfully'

async function newContentDialog(page: Page) {
  await page.getByRole('button', { name: 'New content' }).first().click()
  return page.getByRole('dialog', { name: 'New content' })
}

function card(page: Page, name: string) {
  return page.getByTestId('content-card').filter({ has: page.getByRole('heading', { name, exact: true }) })
}

test('upload a content item and mark it relevant', async ({ page }) => {
  const guide = `Planning guide ${unique()}`
  const video = `Welcome video ${unique()}`
  await signIn(page, DEMO.admin)
  await page.goto('/content')
  await expect(page.getByRole('heading', { level: 1, name: 'Content library' })).toBeVisible()
  // A §9: admins get 50 per page, with 50, 75, 100 and All.
  await expect(page.getByLabel('Items per page')).toHaveValue('50')
  await expect(page.getByLabel('Items per page').locator('option')).toHaveText(['50', '75', '100', 'All'])

  let dialog = await newContentDialog(page)
  // Saved before its upload (A §5).
  await dialog.getByLabel('Name').fill(guide)
  await dialog.getByRole('button', { name: 'Save content' }).click()
  await expect(dialog.getByText('Sorry! you must first upload your content')).toBeVisible()
  // A wrong type is refused before sending.
  const dropzone = dialog.getByLabel('Content file')
  await dropzone.setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hello') })
  await expect(dialog.getByRole('alert').filter({ hasText: 'Sorry, the upload cannot be completed.' })).toBeVisible()
  // A real image uploads with the progress bar.
  await dropzone.setInputFiles({ name: 'guide.png', mimeType: 'image/png', buffer: pngImage(640, 360) })
  await expect(dialog.getByText('Uploaded guide.png')).toBeVisible()
  await expect(dialog.getByLabel('Type')).toHaveValue('image')
  // Tags: added on Enter, uppercased; empty and repeated tags are ignored.
  const tags = dialog.getByLabel('Tags', { exact: true })
  for (const tag of ['planning', 'Planning', '   ', 'ideas']) {
    await tags.fill(tag)
    await tags.press('Enter')
  }
  await expect(dialog.getByRole('list', { name: 'Tags added' }).getByRole('listitem')).toHaveText(['PLANNING×', 'IDEAS×'])
  await dialog.getByLabel('Description').fill('How to plan a billboard campaign.')
  await dialog.getByRole('button', { name: 'Save content' }).click()
  await expect(page.getByText(MSG_SAVED)).toBeVisible()
  await expect(dialog).toBeHidden()
  await expect(card(page, guide)).toContainText('PLANNING')
  await expect(card(page, guide)).toContainText('How to plan a billboard campaign.')

  // A YouTube item needs a link with a v parameter (A §5).
  dialog = await newContentDialog(page)
  await dialog.getByLabel('Type').selectOption('youtube')
  await dialog.getByLabel('YouTube link').fill('https://www.youtube.com/watch?t=42')
  await dialog.getByLabel('Name').fill(video)
  await dialog.getByRole('button', { name: 'Save content' }).click()
  await expect(dialog.getByText(/Please paste a YouTube link with a v parameter/)).toBeVisible()
  await dialog.getByLabel('YouTube link').fill('https://www.youtube.com/watch?feature=share&v=dQw4w9WgXcQ&t=42')
  await dialog.getByRole('button', { name: 'Save content' }).click()
  await expect(dialog).toBeHidden()
  await expect(card(page, video)).toContainText('YouTube')

  // Only one item is relevant at a time (A §4).
  await card(page, guide).getByRole('button', { name: `Mark relevant ${guide}` }).click()
  await expect(card(page, guide).getByRole('button', { name: `Relevant ${guide}` })).toHaveAttribute('aria-pressed', 'true')
  await card(page, video).getByRole('button', { name: `Mark relevant ${video}` }).click()
  await expect(card(page, video).getByRole('button', { name: `Relevant ${video}` })).toHaveAttribute('aria-pressed', 'true')
  await expect(card(page, guide).getByRole('button', { name: `Mark relevant ${guide}` })).toHaveAttribute('aria-pressed', 'false')

  // The view modal embeds the video through youtube-nocookie with the id from v.
  await page.getByRole('button', { name: `View ${video}` }).click()
  const view = page.getByRole('dialog', { name: video })
  await expect(view.locator('iframe')).toHaveAttribute('src', 'https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ')
  await view.getByRole('button', { name: 'Close' }).click()
  await lastScreen(page, 'content-relevant')
})

test('edit, scope and delete content; a regular user sees only their scope', async ({ page, browser }) => {
  const certifiedOnly = `Certified checklist ${unique()}`
  await signIn(page, DEMO.admin)
  await page.goto('/content')
  const dialog = await newContentDialog(page)
  await dialog.getByLabel('Content file').setInputFiles({ name: 'checklist.png', mimeType: 'image/png', buffer: pngImage(200, 200) })
  await expect(dialog.getByText('Uploaded checklist.png')).toBeVisible()
  await dialog.getByLabel('Name').fill(certifiedOnly)
  await dialog.getByRole('checkbox', { name: 'Standard' }).uncheck()
  await dialog.getByRole('checkbox', { name: 'Ambassador' }).uncheck()
  await dialog.getByRole('button', { name: 'Save content' }).click()
  await expect(dialog).toBeHidden()
  await expect(card(page, certifiedOnly)).toContainText('Certified · Active')

  // The edit modal: status and description.
  await card(page, certifiedOnly).getByRole('button', { name: `Edit ${certifiedOnly}` }).click()
  const edit = page.getByRole('dialog', { name: 'Edit content' })
  await edit.getByLabel('Description').fill('For certified partners.')
  await edit.getByRole('button', { name: 'Save changes' }).click()
  await expect(edit).toBeHidden()
  await expect(card(page, certifiedOnly)).toContainText('For certified partners.')

  // A standard company does not see it; a certified one does, without the management actions.
  for (const [email, sees] of [
    [DEMO.advertiser, false],
    [DEMO.certified, true],
  ] as const) {
    const context = await browser.newContext()
    const other = await context.newPage()
    await signIn(other, email)
    await other.goto('/content')
    await expect(other.getByRole('heading', { level: 1, name: 'Content library' })).toBeVisible()
    await expect(other.getByRole('button', { name: 'New content' })).toHaveCount(0)
    await expect(card(other, certifiedOnly)).toHaveCount(sees ? 1 : 0)
    if (sees) await expect(card(other, certifiedOnly).getByRole('button', { name: /^Edit/ })).toHaveCount(0)
    await context.close()
  }

  // Delete after the confirmation (A §8).
  await card(page, certifiedOnly).getByRole('button', { name: `Delete ${certifiedOnly}` }).click()
  const confirm = page.getByRole('dialog', { name: 'Delete content' })
  await expect(confirm).toContainText('Are you sure you want to delete this content?')
  await confirm.getByRole('button', { name: 'Delete' }).click()
  await expect(card(page, certifiedOnly)).toHaveCount(0)
})

test('content and creatives work on a phone', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 })
  await signIn(page, DEMO.admin)
  for (const path of ['/content', '/creatives', '/creatives/create']) {
    await page.goto(path)
    await expect(page.locator('h1')).toBeVisible()
    const overflow = await page.evaluate('document.documentElement.scrollWidth - document.documentElement.clientWidth')
    expect(overflow, `horizontal overflow on ${path}`).toBeLessThanOrEqual(0)
  }
  await page.goto('/content')
  const dialog = await newContentDialog(page)
  await dialog.getByLabel('Content file').setInputFiles({ name: 'phone.png', mimeType: 'image/png', buffer: pngImage(120, 120) })
  await expect(dialog.getByRole('progressbar').or(dialog.getByText('Uploaded phone.png'))).toBeVisible()
  await expect(dialog.getByText('Uploaded phone.png')).toBeVisible()
  await lastScreen(page, 'content-phone')
})
