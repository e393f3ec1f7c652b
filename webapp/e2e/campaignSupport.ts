import { expect, type APIRequestContext, type Page } from '@playwright/test'
import { jpegImage } from './images'
import { signIn, signUpByApi, unique, XHR } from './support'

// Shared steps of the campaign-creation journeys (campaign-create.spec.ts, campaign-tour.spec.ts).

export const PASSWORD = 'campaign-pass-2026'

export const MSG = {
  location: 'You need to add at least one location to your campaign',
  duration: "You can't have a campaign running for more than 52 weeks.",
  creative: 'Campaign creative is required',
  card: 'Please add your credit card information.',
  number: 'Please enter a valid number',
  created: 'Your campaign was successfully created and is pending payment confirmation',
  conflict: 'Some of the locations you chose are not available in the weeks you picked.',
}

/** A fresh advertiser company, signed in in the page (the sign-up answer signs the page's context in). */
export async function newAdvertiser(page: Page, options: { tour?: boolean } = {}): Promise<string> {
  const email = `camp-${unique()}@example.com`
  await signUpByApi(page.request, email, PASSWORD, options)
  await page.goto('/dashboard')
  if (new URL(page.url()).pathname === '/login') await signIn(page, email, PASSWORD)
  await expect(page).toHaveURL(/\/dashboard$/)
  return email
}

/** Uploads a JPEG creative through the API of the page's session and saves it in the library. */
export async function libraryCreative(page: Page, request: APIRequestContext, name: string): Promise<{ id: string; name: string }> {
  const jpeg = await jpegImage(page, 1400, 400, name)
  const upload = await request.post('/upload_creative', { headers: XHR, multipart: { file: { name: `${name}.jpg`, mimeType: 'image/jpeg', buffer: jpeg } } })
  expect(upload.ok(), await upload.text()).toBe(true)
  const file = (await upload.json()) as { path: string }
  const saved = await request.post('/api/creatives/', { headers: XHR, data: { creative: { name, alt: name, url: file.path } } })
  expect(saved.ok(), await saved.text()).toBe(true)
  return (await saved.json()) as { id: string; name: string }
}

/** A card on file through the sandbox gateway (what the card modal does). */
export async function cardByApi(request: APIRequestContext): Promise<void> {
  const year = new Date().getFullYear() + 2
  const token = await request.post('/api/sandbox/tokens', { headers: XHR, data: { number: '4242424242424242', exp_month: 12, exp_year: year, cvc: '123' } })
  expect(token.ok(), await token.text()).toBe(true)
  const { id } = (await token.json()) as { id: string }
  const card = await request.post('/api/cards', { headers: XHR, data: { token: id, exp_month: 12, exp_year: year } })
  expect(card.ok(), await card.text()).toBe(true)
}

/** Another company, ready to book through the API: signed in, with a card and a creative. */
export async function otherCompany(request: APIRequestContext, page: Page): Promise<{ creativeId: string }> {
  const email = `rival-${unique()}@example.com`
  await signUpByApi(request, email, PASSWORD)
  const signin = await request.post('/signin', { headers: XHR, data: { email, password: PASSWORD } })
  expect(signin.ok(), await signin.text()).toBe(true)
  await cardByApi(request)
  const creative = await libraryCreative(page, request, `Rival ${unique()}`)
  return { creativeId: creative.id }
}

export interface Defaults {
  today: string
  earliest_start: string
  default_start: string
}

export async function campaignDefaults(request: APIRequestContext): Promise<Defaults> {
  const answer = await request.get('/api/campaigns/defaults', { headers: XHR })
  expect(answer.ok(), await answer.text()).toBe(true)
  return (await answer.json()) as Defaults
}

export interface Spot {
  xxx: string
  used_spots: number
  available_spots: number
  min_value: number
  available: boolean
}

export async function spots(request: APIRequestContext, market: string, week: string): Promise<Spot[]> {
  const answer = await request.post('/api/available-spots/', { headers: XHR, data: { start_at: week, markets: [market] } })
  expect(answer.ok(), await answer.text()).toBe(true)
  return (await answer.json()) as Spot[]
}

/** Books one spot of each face for one week through POST /api/campaigns, as another advertiser would. */
export async function bookByApi(request: APIRequestContext, creativeId: string, market: string, faceIds: string[], week: string): Promise<number> {
  const answer = await request.post('/api/campaigns', {
    headers: { ...XHR, 'Idempotency-Key': `rival-${unique()}` },
    data: {
      name: `Rival ${unique()}`,
      typeCampaign: 1,
      strategySelected: 1,
      marketsSelected: [market],
      places_checked: faceIds.map((id) => ({ id })),
      startDate: week,
      frequencySelected: 'one-time',
      duration: 1,
      creative_id: creativeId,
      weekly_budget: '',
      impression_count: 0,
    },
  })
  return answer.status()
}

/** The faces of the list, by their accessible names. */
export function faceList(page: Page) {
  return page.getByRole('list', { name: 'Faces' })
}

/** The face checkbox of a face id. */
export function faceBox(page: Page, id: string) {
  return page.locator(`#face-${id}`)
}

/** Checks one market of the form's Markets chips (B §3 marketsSelected is a list). */
export function marketBox(page: Page, market: string) {
  return page.getByRole('group', { name: /^Markets/ }).getByRole('checkbox', { name: market, exact: true })
}
