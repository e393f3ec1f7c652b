import { expect, test, type APIRequestContext } from '@playwright/test'
import { pngImage } from './images'
import { DEMO, DEMO_PASSWORD, expectAccessibleHere, lastScreen, signIn, XHR } from './support'

// Signed proof of play: an admin records a week's delivery with a proof photo; the
// advertiser's detail page shows the week's verification code; /verify/{code}, signed out, says
// the record is valid and shows the photo. An unknown code gets a clear 404 page. The campaign is
// the certified company's running "Open House", which the other journeys leave alone.

interface Week {
  id: string
  start_at: string
}

async function apiSignIn(request: APIRequestContext, email: string) {
  const response = await request.post('/signin', { headers: XHR, data: { email, password: DEMO_PASSWORD } })
  expect(response.ok(), await response.text()).toBe(true)
}

test('a recorded week gets a verification code that validates signed out', async ({ page, browser }) => {
  const admin = await browser.newContext()
  let campaignId = ''
  const impressions = 40_000 + Math.floor(Math.random() * 10_000)
  try {
    await apiSignIn(admin.request, DEMO.admin)
    const list = await (await admin.request.get('/api/admin/campaigns/?page_size=0&q=Open%20House', { headers: XHR })).json()
    const campaign = (list.items as { id: string; name: string }[]).find((c) => c.name === 'Open House')
    expect(campaign, 'the demo seed gives the certified company "Open House"').toBeTruthy()
    campaignId = campaign!.id
    const weeks = (await (await admin.request.get(`/api/campaigns/${campaignId}/weeks?page_size=0`, { headers: XHR })).json()).items as Week[]
    const week = weeks.sort((a, b) => a.start_at.localeCompare(b.start_at))[0]!
    const delivery = await admin.request.put(`/api/admin/campaigns/week/${week.id}/delivery`, { headers: XHR, data: { act_imp: impressions } })
    expect(delivery.ok(), await delivery.text()).toBe(true)
    const proof = await admin.request.post(`/api/admin/campaigns/week/${week.id}/proofs`, {
      headers: XHR,
      multipart: { file: { name: 'proof.png', mimeType: 'image/png', buffer: pngImage(640, 360) } },
    })
    expect(proof.ok(), await proof.text()).toBe(true)
  } finally {
    await admin.close()
  }

  // The advertiser's detail page lists the week's code.
  await signIn(page, DEMO.certified)
  await page.goto(`/campaigns/${campaignId}`)
  const codes = page.getByRole('list', { name: 'Verification codes' })
  const entry = codes.getByRole('listitem').filter({ hasText: `${impressions.toLocaleString('en-US')} impressions` })
  await expect(entry).toBeVisible()
  const link = entry.getByRole('link', { name: /^Verify code / })
  const code = (await link.textContent())!.trim()
  expect(code).toMatch(/^[A-Z2-7]{4}-[A-Z2-7]{4}-[A-Z2-7]{4}$/)
  await expectAccessibleHere(page, 'the detail page with verification codes')

  // Signed out, the code's page says valid and shows the proof photo.
  const signedOut = await browser.newContext()
  const visitor = await signedOut.newPage()
  try {
    await visitor.goto(`/verify/${code}`)
    await expect(visitor.getByRole('heading', { name: 'Valid record', level: 1 })).toBeVisible()
    await expect(visitor.getByText('Signature: valid')).toBeVisible()
    await expect(visitor.getByText(/^Chain: intact/)).toBeVisible()
    await expect(visitor.getByText(impressions.toLocaleString('en-US'))).toBeVisible()
    await expect(visitor.getByText('Open House')).toHaveCount(0)
    const photo = visitor.getByRole('img', { name: /^Proof photo / }).last()
    await expect(photo).toBeVisible()
    await expect.poll(() => photo.evaluate((img) => (img as unknown as { complete: boolean; naturalWidth: number }).complete && (img as unknown as { naturalWidth: number }).naturalWidth > 0)).toBe(true)
    await expectAccessibleHere(visitor, '/verify/{code}')
    await lastScreen(visitor, 'verify-valid')

    // The demo seed's code validates too; an unknown code gets the 404 page.
    await visitor.goto('/verify/DEMO-PLAY-CODE')
    await expect(visitor.getByRole('heading', { name: 'Valid record', level: 1 })).toBeVisible()
    await visitor.goto('/verify/AAAA-BBBB-CCCC')
    await expect(visitor.getByRole('heading', { name: 'No record has this verification code', level: 1 })).toBeVisible()
    await expectAccessibleHere(visitor, 'the unknown code page')
  } finally {
    await signedOut.close()
  }
})
