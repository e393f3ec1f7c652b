import { expect, test, type Page } from '@playwright/test'
import { DEMO, offline, signIn } from './support'

// The Content-Security-Policy (platform/server/csp.go) lets every screen work: the
// prerendered pages' inline scripts run by their hashes, the map, the charts, the Ad Design Tool's
// canvas and the API viewer. Any blocked script, style, image or connection is a violation here.
async function watchViolations(page: Page): Promise<string[]> {
  const seen: string[] = []
  await page.exposeFunction('__cspViolation', (v: string) => seen.push(v))
  // The page's own context (this file is compiled without the DOM's types).
  await page.addInitScript({
    content: "document.addEventListener('securitypolicyviolation', (e) => window.__cspViolation(e.violatedDirective + ' ' + e.blockedURI + ' at ' + location.pathname))",
  })
  return seen
}

test('no screen trips the Content-Security-Policy', async ({ page }) => {
  await offline(page)
  const violations = await watchViolations(page)
  const header = (await page.goto('/'))!.headers()['content-security-policy']
  expect(header).toContain("frame-ancestors 'none'")
  expect(header).not.toMatch(/script-src[^;]*unsafe-inline/)
  await expect(page.getByRole('textbox', { name: 'Weekly budget' })).toBeVisible()
  for (const path of ['/login', '/locations', '/cost', '/developers']) {
    await page.goto(path)
    await page.waitForLoadState('networkidle')
  }
  await signIn(page, DEMO.advertiser)
  for (const path of ['/dashboard', '/campaigns', '/campaigns/new', '/creatives/create', '/reports', '/settings?tab=api']) {
    await page.goto(path)
    await page.waitForLoadState('networkidle')
  }
  // A detail page: its chart (ApexCharts) and map.
  await page.goto('/campaigns')
  await page.getByRole('table', { name: 'Campaigns' }).getByRole('link').first().click()
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
  await page.waitForLoadState('networkidle')
  expect(violations).toEqual([])
})
