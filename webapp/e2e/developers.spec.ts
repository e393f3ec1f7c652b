import { expect, test } from '@playwright/test'
import { BASE_URL } from './env'
import { axeScan, DEMO, lastScreen, signIn } from './support'

// /developers is a page a developer stays on: the app's header and navigation, this
// server's URL in the examples, the webhooks with their signature check in three languages, the
// rate limits and the error envelope, the reference read from the served document; one H1 and no
// axe violation at all, on a phone and on a desktop.

for (const width of [390, 1366]) {
  test(`/developers at ${width} px`, async ({ page }) => {
    await page.setViewportSize({ width, height: 900 })
    await page.goto('/developers')
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('The Marquee API')
    await expect(page.getByRole('heading', { level: 1 })).toHaveCount(1)

    // The app's header: home, the main navigation (in the menu on a phone), Login and Register.
    await expect(page.getByRole('link', { name: 'Marquee home' })).toBeVisible()
    if (width < 768) await page.getByRole('button', { name: 'Open menu' }).click()
    const nav = page.getByRole('navigation', { name: 'Main' })
    await expect(nav.getByRole('link', { name: 'Developers' })).toHaveAttribute('aria-current', 'page')
    await expect(page.getByRole('link', { name: 'Login' })).toBeVisible()
    if (width < 768) await page.getByRole('button', { name: 'Close menu' }).click()

    // This server's own URL, not a placeholder.
    await expect(page.getByRole('figure').filter({ hasText: 'List your campaigns' })).toContainText(`curl ${BASE_URL}/api/v1/campaigns`)

    // The envelope and the limits.
    await expect(page.getByRole('heading', { name: 'Errors' })).toBeVisible()
    await expect(page.getByText('{"success": false, "message"')).toBeVisible()
    await expect(page.getByText('RateLimit-Policy: "per-key";q=120;w=60')).toBeVisible()

    // Webhooks: the events and the signature check in Go, Node and Python.
    await expect(page.getByRole('cell', { name: 'campaign.paused' })).toBeVisible()
    const verify = page.getByRole('group', { name: 'Verification language' })
    await expect(page.getByRole('figure').filter({ hasText: 'Verify in Go' })).toContainText('hmac.Equal')
    await verify.getByRole('button', { name: 'Node' }).click()
    await expect(page.getByRole('figure').filter({ hasText: 'Verify in Node' })).toContainText('timingSafeEqual')
    await verify.getByRole('button', { name: 'Python' }).click()
    await expect(page.getByRole('figure').filter({ hasText: 'Verify in Python' })).toContainText('hmac.compare_digest')

    // The reference, from the served document: every /api/v1 call, its examples on this server.
    const doc = (await (await page.request.get('/api/openapi.json')).json()) as { paths: Record<string, Record<string, unknown>> }
    const calls = Object.entries(doc.paths)
      .filter(([path]) => path.startsWith('/api/v1/'))
      .flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m} ${path}`))
    const reference = page.getByTestId('api-reference')
    const links = reference.getByRole('navigation', { name: 'Calls of the public API' }).getByRole('link')
    await expect(links).toHaveCount(calls.length)
    const create = reference.getByRole('article', { name: 'Create a campaign (201; 409 with the conflict draft when a face was taken)' })
    await expect(create).toContainText('Idempotency-Key')
    await expect(create).toContainText(`"${BASE_URL}/api/v1/campaigns"`)
    await expect(create.getByRole('cell', { name: 'Idempotency-Key (required)' })).toBeVisible()

    const results = await axeScan(page, ['best-practice'])
    expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([])
    await lastScreen(page, `developers-${width}`)
    // What a reader sees first, and the webhooks and reference, one screen each.
    await page.evaluate('window.scrollTo(0, 0)')
    await page.screenshot({ path: `test-output/developers-${width}-top.png` })
    await page.getByRole('heading', { name: 'Verifying Marquee-Signature' }).scrollIntoViewIfNeeded()
    await page.screenshot({ path: `test-output/developers-${width}-webhooks.png` })
    await create.scrollIntoViewIfNeeded()
    await page.screenshot({ path: `test-output/developers-${width}-reference.png` })
  })
}

test('/developers keeps a signed-in user in the app', async ({ page }) => {
  await signIn(page, DEMO.advertiser)
  await page.goto('/developers')
  await page.getByRole('link', { name: 'Back to the app' }).click()
  await expect(page).toHaveURL(/\/dashboard$/)
})
