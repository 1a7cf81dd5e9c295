import { defineConfig } from '@playwright/test';

// Every run starts the scaled stack (api, 2 workers, scheduler on Postgres and Redis, fresh
// database) in global-setup.ts and drives the system Chromium against it.
export default defineConfig({
  testDir: './specs',
  globalSetup: './global-setup.ts',
  timeout: 30_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: 1,
  // On CI a failed test runs once more (a serial group from its start); the failure summary
  // still prints the first attempt's error, and the list reporter counts the test as flaky.
  retries: process.env.CI ? 1 : 0,
  reporter: [['list'], ['./support/failureSummary.ts']],
  outputDir: './test-results',
  use: {
    baseURL: process.env.FLOWMILL_E2E_URL,
    testIdAttribute: 'data-test-id',
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    viewport: { width: 1440, height: 900 },
    launchOptions: {
      executablePath: process.env.FLOWMILL_CHROMIUM ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
});
