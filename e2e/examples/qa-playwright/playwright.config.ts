/**
 * The example QA project's Playwright config, as a QA team writes it: nothing of this repository
 * is imported, so the packed-kit test (scripts/package/packaged-kit.test.ts) copies it as it is
 * into fresh projects that install the package's tarball. One setting is this repository's
 * own: Debian's Chromium (CHROMIUM_PATH, or /usr/bin/chromium where it is), since no browser is
 * downloaded here; without either, Playwright's own (`npx playwright install chromium`).
 */
import { existsSync } from 'node:fs';
import { defineConfig, devices } from '@playwright/test';

const chromium = process.env.CHROMIUM_PATH ?? (existsSync('/usr/bin/chromium') ? '/usr/bin/chromium' : '');

export default defineConfig({
  testDir: './tests',
  // One gateway per worker, whose clock the flows move: one worker, one flow at a time.
  workers: 1,
  fullyParallel: false,
  retries: 0,
  timeout: 30_000,
  expect: { timeout: 10_000 },
  reporter: [['list']],
  use: {
    ...devices['Desktop Chrome'],
    ...(chromium === '' ? {} : { launchOptions: { executablePath: chromium, args: ['--no-sandbox'] } }),
    trace: 'retain-on-failure',
  },
});
