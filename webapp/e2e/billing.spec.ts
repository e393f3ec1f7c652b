import { expect, test, type Page } from '@playwright/test'
import { DEMO, lastScreen, signIn, signUpByApi, unique } from './support'

// The card modal against the sandbox gateway, the masked card on
// /settings, a declined card, and a promo from its creation by the super admin to the credit it
// adds. Each journey uses a fresh advertiser, so it never depends on the demo seed's card.

const MSG_CARD_ADDED = 'Your card has been added successfully.'
const MSG_CARD_OTHER = 'Please confirm the Month/Year and CVC are accurate and try again'
const PASSWORD = 'billboards-by-the-week'

async function freshAdvertiser(page: Page): Promise<string> {
  const email = `billing-${unique()}@example.com`
  // page.request shares the page's cookies, so the sign-up's session signs the page in.
  await signUpByApi(page.request, email, PASSWORD)
  await page.goto('/dashboard')
  await expect(page).toHaveURL(/\/dashboard$/)
  return email
}

async function openBilling(page: Page) {
  await page.goto('/settings')
  await page.getByRole('tab', { name: 'Card and credit' }).click()
  await expect(page.getByRole('heading', { name: 'Payment card' })).toBeVisible()
}

async function addCard(page: Page, number: string) {
  await page.getByRole('button', { name: 'Add card' }).click()
  const dialog = page.getByRole('dialog', { name: 'Add a payment card' })
  await dialog.getByLabel('Card number').fill(number)
  await dialog.getByLabel('Month').selectOption('12')
  await dialog.getByLabel('Year').selectOption(String(new Date().getFullYear() + 2))
  await dialog.getByLabel('Security code').fill('123')
  await dialog.getByRole('button', { name: 'Add card' }).click()
  return dialog
}

async function credit(page: Page): Promise<number> {
  const text = await page.getByTestId('account-credit').innerText()
  return Number(text.replace(/[^\d]/g, ''))
}

test('add a card with 4242…, see it masked on /settings, and remove it', async ({ page }) => {
  await freshAdvertiser(page)
  await openBilling(page)
  await expect(page.getByText('No card on file yet.', { exact: false })).toBeVisible()

  const dialog = await addCard(page, '4242 4242 4242 4242')
  await expect(page.getByText(MSG_CARD_ADDED)).toBeVisible()
  await expect(dialog).toBeHidden()
  await expect(page.getByTestId('masked-card')).toHaveText('xxxx-xxxx-xxxx-4242')
  await expect(page.getByText(`expires 12/${new Date().getFullYear() + 2}`)).toBeVisible()
  // The card survives a reload: it is on the server, not in the page.
  await openBilling(page)
  await expect(page.getByTestId('masked-card')).toHaveText('xxxx-xxxx-xxxx-4242')
  await lastScreen(page, 'billing-card-added')

  await page.getByRole('button', { name: 'Remove card' }).click()
  const confirm = page.getByRole('dialog', { name: 'Remove card' })
  await expect(confirm.getByText('Are you sure you want to remove this card?')).toBeVisible()
  await confirm.getByRole('button', { name: 'Remove card' }).click()
  await expect(page.getByText('No card on file yet.', { exact: false })).toBeVisible()
  await openBilling(page)
  await expect(page.getByTestId('masked-card')).toHaveCount(0)
  await lastScreen(page, 'billing-card-removed')
})

test('a declined card shows the month/year/CVC message and no card is saved', async ({ page }) => {
  await freshAdvertiser(page)
  await openBilling(page)
  const dialog = await addCard(page, '4000 0000 0000 0002')
  await expect(dialog.getByRole('alert')).toHaveText(MSG_CARD_OTHER)
  await expect(dialog).toBeVisible()
  await lastScreen(page, 'billing-card-declined')

  // A number that fails the check never leaves the browser.
  const tokens: string[] = []
  page.on('request', (request) => request.url().includes('/api/sandbox/tokens') && tokens.push(request.url()))
  await dialog.getByLabel('Card number').fill('4242 4242 4242 4241')
  await dialog.getByRole('button', { name: 'Add card' }).click()
  await expect(dialog.getByText('Please confirm the Card Number is accurate and try again')).toBeVisible()
  await expect(dialog.getByLabel('Card number')).toBeFocused()
  expect(tokens).toEqual([])

  await dialog.getByRole('button', { name: 'Cancel' }).click()
  await openBilling(page)
  await expect(page.getByText('No card on file yet.', { exact: false })).toBeVisible()
})

test('a super admin creates a promo, an advertiser redeems it, and the credit shows', async ({ browser }) => {
  const code = `E2E${unique()}`.slice(0, 32)

  const adminContext = await browser.newContext()
  const admin = await adminContext.newPage()
  await signIn(admin, DEMO.superAdmin)
  await admin.goto('/admin/promos')
  await expect(admin.getByRole('heading', { name: 'Promos' })).toBeVisible()
  await admin.getByRole('link', { name: 'New promo' }).click()
  await expect(admin).toHaveURL(/\/admin\/promos\/new$/)
  await admin.getByLabel('Code').fill(code)
  await admin.getByLabel('Amount').fill('75')
  await admin.getByLabel('Maximum redemptions').fill('3')
  await admin.getByRole('button', { name: 'Create promo' }).click()
  await expect(admin).toHaveURL(/\/admin\/promos$/)
  await expect(admin.getByText('The promo code has been created.')).toBeVisible()
  await admin.getByLabel('Filter promos').fill(code)
  const row = admin.getByRole('row', { name: new RegExp(code) })
  await expect(row).toContainText('$75.00')
  await expect(row).toContainText('active')
  await lastScreen(admin, 'billing-promo-created')

  const advertiserContext = await browser.newContext()
  const advertiser = await advertiserContext.newPage()
  await freshAdvertiser(advertiser)
  await openBilling(advertiser)
  const before = await credit(advertiser)
  await advertiser.getByRole('button', { name: 'Redeem a promo code' }).click()
  const dialog = advertiser.getByRole('dialog', { name: 'Redeem a promo code' })
  await dialog.getByLabel('Promo code').pressSequentially(`${code.slice(0, 4)} ${code.slice(4)}`)
  await expect(dialog.getByLabel('Promo code')).toHaveValue(code)
  await dialog.getByRole('button', { name: 'Redeem' }).click()
  await expect(dialog.getByText('$75 added to your account credit.')).toBeVisible()
  await dialog.getByRole('button', { name: 'Done' }).click()
  await expect.poll(() => credit(advertiser)).toBe(before + 75)
  await lastScreen(advertiser, 'billing-promo-redeemed')

  // The same company cannot redeem it twice; the message stays in the modal.
  await advertiser.getByRole('button', { name: 'Redeem a promo code' }).click()
  await dialog.getByLabel('Promo code').fill(code)
  await dialog.getByRole('button', { name: 'Redeem' }).click()
  await expect(dialog.getByRole('alert')).toHaveText(/^Sorry! /)

  // The admin sees who redeemed it.
  await admin.reload()
  await admin.getByLabel('Filter promos').fill(code)
  await admin.getByRole('row', { name: new RegExp(code) }).getByRole('radio').check()
  await expect(admin.getByRole('row', { name: new RegExp(code) })).toContainText('2')
  await admin.getByRole('button', { name: 'View companies' }).click()
  await expect(admin.getByRole('dialog', { name: `Companies that redeemed ${code}` }).getByRole('row')).toHaveCount(2)
  await admin.getByRole('dialog').getByRole('button', { name: 'Close' }).click()

  // Cancel it after the spec's confirmation.
  await admin.getByRole('button', { name: 'Cancel promo' }).click()
  const confirm = admin.getByRole('dialog', { name: 'Cancel promo' })
  await expect(confirm.getByText('Are you sure you want to cancel the promo?')).toBeVisible()
  await confirm.getByRole('button', { name: 'Cancel promo' }).click()
  await expect(admin.getByText('The promo is now cancelled.')).toBeVisible()
  await lastScreen(admin, 'billing-promo-cancelled')

  // The redemption is in the ledger as a credit movement.
  await admin.getByRole('tab', { name: 'Ledger' }).click()
  await expect(admin.getByRole('table', { name: 'Ledger' }).getByRole('row', { name: /credit.*\$75\.00/i }).first()).toBeVisible()
  await adminContext.close()
  await advertiserContext.close()
})

test('the card and credit panel works on a phone', async ({ browser }) => {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true })
  const page = await context.newPage()
  await freshAdvertiser(page)
  await openBilling(page)
  await addCard(page, '4242424242424242')
  await expect(page.getByTestId('masked-card')).toHaveText('xxxx-xxxx-xxxx-4242')
  await expect(page.getByRole('button', { name: 'Redeem a promo code' })).toBeInViewport({ ratio: 0.5 })
  // Nothing is wider than the phone: the page does not scroll sideways.
  const html = page.locator('html')
  const scrollWidth = await html.evaluate((el) => el.scrollWidth)
  const clientWidth = await html.evaluate((el) => el.clientWidth)
  expect(scrollWidth).toBeLessThanOrEqual(clientWidth)
  await lastScreen(page, 'billing-settings-phone')
  await context.close()
})
