import { defineConfig } from '@playwright/test'
import { BASE_URL, E2E_PORT } from './e2e/env'

// End-to-end journeys against the real binary (make build) in Debian's Chromium (STACK.md).
// One worker per server: the journeys share the demo data of their server and run one after the
// other. `npm run e2e` (scripts/e2e.mjs) runs two shards side by side, each with its own server,
// port and data folder.
export default defineConfig({
  testDir: './e2e',
  outputDir: `./test-results/${E2E_PORT}`,
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  forbidOnly: !!process.env.CI,
  reporter: process.env.CI ? [['list']] : [['list'], ['html', { open: 'never', outputFolder: 'playwright-report' }]],
  use: {
    baseURL: BASE_URL,
    browserName: 'chromium',
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
  },
  webServer: {
    command: 'bash e2e/start-server.sh',
    url: `${BASE_URL}/readyz`,
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: 'pipe',
    stderr: 'pipe',
  },
})
