import { expect, test } from '@playwright/test'
import { BASE_URL } from './env'
import { DEMO, expectAccessibleHere, lastScreen, signIn, unique } from './support'

// An advertiser makes an API key in Settings → API, calls the public API with it from
// their own tool (here a request context without the browser's cookies), sees its last use, and
// revokes it; then the reference page.

test('an advertiser makes an API key, calls the API with it, sees its last use and revokes it', async ({ page, playwright, browser }) => {
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: BASE_URL })
  await signIn(page, DEMO.advertiser)
  await page.goto('/settings?tab=api')
  await expect(page.getByRole('heading', { name: 'API keys' })).toBeVisible()

  // A name is needed: the server's message shows under the field.
  await page.getByLabel('Key name').fill('   ')
  await page.getByRole('button', { name: 'Create key' }).click()
  await expect(page.getByText('Give the key a name (at most 100 characters).')).toBeVisible()

  const name = `Reporting ${unique()}`
  await page.getByLabel('Key name').fill(name)
  await page.getByLabel('Scope').selectOption('read-write')
  await page.getByRole('button', { name: 'Create key' }).click()
  const shown = page.getByLabel('New API key')
  await expect(shown).toHaveValue(/^mq_live_/)
  const key = await shown.inputValue()
  await page.getByRole('button', { name: 'Copy' }).click()
  await expect(page.getByRole('button', { name: 'Copied' })).toBeVisible()
  expect(await page.evaluate('navigator.clipboard.readText()')).toBe(key)
  await expectAccessibleHere(page, 'Settings → API with a new key')
  await page.getByRole('button', { name: 'Done' }).click()
  await expect(shown).toHaveCount(0)

  // Only the prefix is shown from now on.
  const row = page.getByRole('listitem').filter({ hasText: name })
  await expect(row).toContainText(`${key.slice(0, 12)}…`)
  await expect(row).not.toContainText(key)
  await expect(row.getByTestId('last-used')).toHaveText('Last used: Never used')

  // The advertiser's own tool: no cookie, no CSRF header, only the key.
  const tool = await playwright.request.newContext({ baseURL: BASE_URL })
  const answer = await tool.get('/api/v1/campaigns', { headers: { Authorization: `Bearer ${key}` } })
  expect(answer.status(), await answer.text()).toBe(200)
  expect((await answer.json()).items.length).toBeGreaterThan(0)
  expect(answer.headers()['ratelimit']).toMatch(/^"per-key";r=\d+;t=\d+$/)

  // Its last use shows in Settings.
  await page.reload()
  await expect(row.getByTestId('last-used')).toContainText(/from (127\.0\.0\.1|::1)/)

  // Revoked after a confirmation: the next call is refused.
  await row.getByRole('button', { name: `Revoke ${name}` }).click()
  const dialog = page.getByRole('dialog', { name: 'Revoke this API key?' })
  await expect(dialog).toContainText(name)
  await dialog.getByRole('button', { name: 'Revoke key' }).click()
  await expect(page.getByText(`The key “${name}” is revoked`)).toBeVisible()
  await expect(row).toHaveCount(0)
  const refused = await tool.get('/api/v1/campaigns', { headers: { Authorization: `Bearer ${key}` } })
  expect(refused.status()).toBe(401)
  expect((await refused.json()).success).toBe(false)
  await tool.dispose()
  await lastScreen(page, 'api-keys')

  // An admin sees every company's keys and revokes one, after a confirmation.
  const other = `Warehouse ${unique()}`
  await page.getByLabel('Key name').fill(other)
  await page.getByRole('button', { name: 'Create key' }).click()
  await page.getByRole('button', { name: 'Done' }).click()
  const adminContext = await browser.newContext()
  const admin = await adminContext.newPage()
  await signIn(admin, DEMO.admin)
  await admin.goto('/admin/api-keys')
  const adminRow = admin.getByRole('listitem').filter({ hasText: other })
  await expect(adminRow).toContainText('Sunrise Coffee Co.')
  await expectAccessibleHere(admin, '/admin/api-keys')
  await adminRow.getByRole('button', { name: /^Revoke / }).click()
  await admin.getByRole('dialog', { name: 'Revoke this API key?' }).getByRole('button', { name: 'Revoke key' }).click()
  await expect(adminRow).toHaveCount(0)
  await adminContext.close()
  await page.reload()
  await expect(page.getByRole('listitem').filter({ hasText: other })).toHaveCount(0)

  // The reference: the quick start in both languages and the document rendered from our assets.
  await page.goto('/developers')
  await expect(page.getByRole('heading', { name: 'The Marquee API' })).toBeVisible()
  await expect(page.getByRole('figure').filter({ hasText: 'List your campaigns' })).toContainText('Authorization: Bearer $MARQUEE_API_KEY')
  await page.getByRole('group', { name: 'Example language', exact: true }).getByRole('button', { name: 'TypeScript' }).click()
  await expect(page.getByRole('figure').filter({ hasText: 'Campaigns and their delivery' })).toContainText("'Idempotency-Key': crypto.randomUUID()")
  const reference = page.getByTestId('api-reference')
  await expect(reference.getByText('/api/v1/campaigns/{id}/weeks').first()).toBeVisible()
  // The whole page passes axe (e2e/developers.spec.ts checks it at two widths).
  await expectAccessibleHere(page, '/developers')
  await lastScreen(page, 'developers')
})
