import { defineConfig } from '@playwright/test';

// E2e tests drive the real UI in Debian's Chromium against `tandem web`. Playwright's own
// browser download is never used: the system Chromium is passed as executablePath.
export default defineConfig({
  testDir: 'e2e',
  testMatch: '**/*.spec.ts',
  timeout: 60_000,
  expect: { timeout: 15_000 },
  workers: 1,
  retries: 0,
  reporter: [['list']],
  use: {
    browserName: 'chromium',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--no-first-run',
        '--disable-sync',
      ],
    },
    viewport: { width: 1200, height: 800 },
    trace: 'off',
  },
});
