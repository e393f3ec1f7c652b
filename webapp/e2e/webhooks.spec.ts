import { expect, test } from '@playwright/test'
import { createHmac, timingSafeEqual } from 'node:crypto'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { expectAccessibleHere, lastScreen, signUpByApi, unique } from './support'

// An advertiser registers an endpoint in /settings → API pointing at a
// receiver this test runs, sends a test event, and sees the delivery succeed in the log; the
// receiver checks the signature with its own HMAC (Stripe's scheme, docs/api.md).

interface Received {
  type: string
  verified: boolean
}

function verify(header: string, secret: string, body: string): boolean {
  const parts = Object.fromEntries(header.split(',').map((p) => p.split('=', 2) as [string, string]))
  if (!parts.t || !parts.v1 || Math.abs(Date.now() / 1000 - Number(parts.t)) > 300) return false
  const want = createHmac('sha256', secret).update(`${parts.t}.${body}`).digest()
  const got = Buffer.from(parts.v1, 'hex')
  return got.length === want.length && timingSafeEqual(got, want)
}

test('an advertiser registers a webhook endpoint, sends a test event and sees the signed delivery', async ({ page }) => {
  let secret = ''
  const received: Received[] = []
  const receiver: Server = createServer((req, res) => {
    let body = ''
    req.on('data', (c: Buffer) => (body += c.toString()))
    req.on('end', () => {
      const payload = JSON.parse(body) as { type: string }
      received.push({ type: payload.type, verified: verify(String(req.headers['marquee-signature'] ?? ''), secret, body) })
      res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"received":true}')
    })
  })
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve))
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`
  try {
    await signUpByApi(page.request, `webhooks-${unique()}@example.com`, 'webhooks-by-the-week')
    await page.goto('/settings?tab=api')
    await expect(page.getByRole('heading', { name: 'Webhooks' })).toBeVisible()
    await expect(page.getByText('No webhook endpoints yet.')).toBeVisible()

    // A private URL is refused unless the server allows it (it does here); a missing event is not.
    await page.getByRole('button', { name: 'Add endpoint' }).click()
    const dialog = page.getByRole('dialog', { name: 'Add webhook endpoint' })
    await dialog.getByLabel('Endpoint URL').fill(url)
    await dialog.getByRole('button', { name: 'Add endpoint' }).click()
    await expect(dialog.getByText('Please choose at least one event.')).toBeVisible()
    await dialog.getByLabel('Campaign paused').check()
    await dialog.getByLabel('Report ready').check()
    await dialog.getByRole('button', { name: 'Add endpoint' }).click()

    const secretDialog = page.getByRole('dialog', { name: 'Signing secret' })
    secret = (await secretDialog.getByTestId('webhook-secret').innerText()).trim()
    expect(secret).toMatch(/^whsec_[0-9a-f]{64}$/)
    await expectAccessibleHere(page, 'the signing secret')
    await secretDialog.getByRole('button', { name: 'Done' }).click()

    const endpoint = page.getByTestId('webhook-endpoint').filter({ hasText: url })
    await expect(endpoint.getByText('Campaign paused · Report ready')).toBeVisible()
    await endpoint.getByRole('button', { name: 'Send test event' }).click()
    const delivery = endpoint.getByTestId('webhook-delivery').first()
    await expect(delivery).toContainText('webhook.test', { timeout: 20_000 })
    await expect(delivery).toContainText('succeeded', { timeout: 20_000 })
    await expect(delivery).toContainText('answered HTTP 200')
    await expect(delivery).toContainText('{"received":true}')
    expect(received).toEqual([{ type: 'webhook.test', verified: true }])
    await expectAccessibleHere(page, 'the webhook delivery log')
    await lastScreen(page, 'webhooks')

    // Delete, after a confirmation.
    await endpoint.getByRole('button', { name: 'Delete' }).click()
    await page.getByRole('dialog', { name: 'Delete webhook endpoint' }).getByRole('button', { name: 'Delete endpoint' }).click()
    await expect(page.getByText('No webhook endpoints yet.')).toBeVisible()
  } finally {
    receiver.close()
  }
})
