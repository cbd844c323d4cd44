import { defineConfig } from '@playwright/test';
import { readFileSync } from 'node:fs';

const chromium = JSON.parse(readFileSync(new URL('./e2e/support/chromium.json', import.meta.url), 'utf8')) as {
  defaultPath: string;
  args: string[];
};

// E2e tests drive the real UI in Debian's Chromium against `tandem web`. Playwright's own
// browser download is never used: the system Chromium is passed as executablePath.
if (!process.env.ELECTRON_OVERRIDE_DIST_PATH && !process.env.TEST_WORKER_INDEX) {
  // Said out loud, so a green run is never mistaken for a tested Electron window.
  console.log('Electron e2e: SKIPPED (no Electron binary here; set ELECTRON_OVERRIDE_DIST_PATH to an Electron build to run it)');
}

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
      executablePath: process.env.CHROMIUM_PATH ?? chromium.defaultPath,
      args: chromium.args,
    },
    viewport: { width: 1200, height: 800 },
    trace: 'off',
  },
});
