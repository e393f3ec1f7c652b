import AxeBuilder from '@axe-core/playwright'
import { expect, type APIRequestContext, type Page } from '@playwright/test'
import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { BASE_URL, DATA_FOLDER } from './env'

// Shared steps of the journeys. The server is started by start-server.sh with this data folder.
export const DATA_DIR = fileURLToPath(new URL(`../${DATA_FOLDER}`, import.meta.url))
export const OUTPUT_DIR = fileURLToPath(new URL('../test-output', import.meta.url))

export const DEMO_PASSWORD = 'demo-password-2026'
export const DEMO = {
  advertiser: 'advertiser@marquee.demo',
  admin: 'admin@marquee.demo',
  superAdmin: 'superadmin@marquee.demo',
  ambassador: 'ambassador@marquee.demo',
  certified: 'certified@marquee.demo',
}

export const MSG_SESSION_EXPIRED = 'Your session has expired please login again.'

/** The header every API call of the web app sends (the server refuses a JSON call without it). */
export const XHR = { 'X-Requested-With': 'XMLHttpRequest' }

/** The map's tiles come from the internet: offline here, only this server answers. */
export async function offline(page: Page): Promise<void> {
  await page.context().route(
    (url) => !url.href.startsWith(BASE_URL),
    (route) => route.abort(),
  )
}

/**
 * axe's WCAG 2.1 A and AA rules (and any `extraTags`) on the page as it is now. In axe's legacy
 * mode: it runs in the page itself. The default mode opens a second, blank page for each scan to
 * merge its frames' results, which cost about 0.8 s a scan here, and more on a slow machine (the
 * journeys scan about a hundred times); the journeys' pages have no cross-origin frames, which is
 * all the default mode adds. Both modes gave the same passes, violations and incomplete on the
 * campaign page, rule by rule.
 */
export function axeScan(page: Page, extraTags: readonly string[] = []) {
  return new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', ...extraTags])
    .setLegacyMode(true)
    .analyze()
}

/** Runs axe (WCAG 2.1 A and AA) on the page as it is now; a serious or critical violation fails. */
export async function expectAccessibleHere(page: Page, what: string): Promise<void> {
  // Leaflet fades a map popup in (opacity 0 to 1 over 0.2 s): axe would measure the contrast of its
  // text half transparent, and fail it or not by timing.
  for (const popup of await page.locator('.leaflet-popup').all()) {
    await expect(popup).toHaveCSS('opacity', '1')
  }
  // The same for every CSS transition or finite animation still running (a button's colours
  // easing after the dialog swapped its footer failed color-contrast once in CI): axe reads the
  // colours of the instant it runs. Endless ones (a spinner) are not waited for.
  // (A string through page.evaluate: DevTools evaluates it, so the page's CSP, which refuses
  // eval and so waitForFunction's string form, does not apply; and the journeys are typed without
  // the DOM's types.)
  await expect
    .poll(() =>
      page.evaluate("document.getAnimations().every((a) => a.playState !== 'running' || a.effect?.getComputedTiming().endTime === Infinity)"),
    )
    .toBe(true)
  const results = await axeScan(page)
  const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
  expect(
    serious.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`),
    `accessibility violations on ${what}`,
  ).toEqual([])
}

/** Keeps the journey's last screen as test-output/<name>.png. */
export async function lastScreen(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: join(OUTPUT_DIR, `${name}.png`), fullPage: true })
}

/** A unique suffix, so journeys never collide with each other or with an earlier run. */
export function unique(): string {
  return `${Date.now()}${Math.floor(Math.random() * 1000)}`
}

/** Signs in through the login form, as a person would. */
export async function signIn(page: Page, email: string, password = DEMO_PASSWORD): Promise<void> {
  await page.goto('/login')
  await page.getByLabel('Email').fill(email)
  await page.getByLabel('Password', { exact: true }).fill(password)
  await page.getByRole('button', { name: 'Sign in' }).click()
  await expect(page).not.toHaveURL(/\/login$/)
}

/**
 * Creates an account through the API (a fresh one per journey that changes it), signed in in the
 * request's context. A new user's dashboard tour starts by itself (A §4); journeys about something
 * else have it given already, unless they ask for it with `tour: true`.
 */
export async function signUpByApi(request: APIRequestContext, email: string, password: string, { tour = false } = {}): Promise<void> {
  const response = await request.post('/signup', {
    headers: XHR,
    data: { company: `E2E Company ${unique()}`, email, phone: '', password, sendPhoneZoho: false },
  })
  expect(response.status(), await response.text()).toBe(201)
  if (!tour) expect((await request.get('/users/disable-tour', { headers: XHR })).ok()).toBe(true)
}

/** Decodes a quoted-printable body (soft line breaks and =XX escapes). */
export function decodeQuotedPrintable(text: string): string {
  const joined = text.replace(/=\r?\n/g, '')
  const bytes: number[] = []
  for (let i = 0; i < joined.length; i += 1) {
    const hex = joined[i] === '=' ? joined.slice(i + 1, i + 3) : ''
    if (/^[0-9A-Fa-f]{2}$/.test(hex)) {
      bytes.push(parseInt(hex, 16))
      i += 2
    } else {
      bytes.push(...Buffer.from(joined[i]!, 'utf8'))
    }
  }
  return Buffer.from(bytes).toString('utf8')
}

/** The readable text of an .eml file: headers plus decoded bodies (plain, QP or base64 parts). */
export function readableMail(raw: string): string {
  let text = raw
  if (/Content-Transfer-Encoding:\s*quoted-printable/i.test(raw)) text += `\n${decodeQuotedPrintable(raw)}`
  for (const block of raw.match(/(?:^[A-Za-z0-9+/=]{16,}\r?\n)+/gm) ?? []) {
    try {
      text += `\n${Buffer.from(block.replace(/\s+/g, ''), 'base64').toString('utf8')}`
    } catch {
      // not base64
    }
  }
  return text
}

/** Waits for an email to `to` in DATA_DIR/mail whose text matches `pattern`; returns the match. */
export async function waitForMail(to: string, pattern: RegExp, timeoutMs = 30_000): Promise<RegExpMatchArray> {
  const folder = join(DATA_DIR, 'mail')
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    const files = await readdir(folder).catch(() => [] as string[])
    for (const file of files.filter((f) => f.endsWith('.eml'))) {
      const raw = await readFile(join(folder, file), 'utf8').catch(() => '')
      if (!raw.toLowerCase().includes(to.toLowerCase())) continue
      const match = readableMail(raw).match(pattern)
      if (match) return match
    }
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
  throw new Error(`no email to ${to} matching ${pattern} in ${folder} after ${timeoutMs} ms`)
}
