/**
 * The example QA project's Playwright config, as a QA team would write it; two lines are this
 * repository's own: Debian's Chromium (no browser downloads here) and building the kit's package
 * entry first (`open-payment-gateway/testing` is dist/testing/index.js, e2e/kit/build.ts), so
 * `npm test` always runs the kit as a QA project installs it.
 */
import { defineConfig, devices } from '@playwright/test';
import { buildKit } from '../../kit/build';
import { CHROMIUM_LAUNCH } from '../../support/chromium';

buildKit();

export default defineConfig({
  testDir: './tests',
  outputDir: '../../test-results/qa-playwright',
  // One gateway per worker, whose clock the flows move: one worker, one flow at a time.
  workers: 1,
  fullyParallel: false,
  retries: 0,
  timeout: 30_000,
  expect: { timeout: 10_000 },
  reporter: [['list']],
  use: {
    ...devices['Desktop Chrome'],
    launchOptions: CHROMIUM_LAUNCH,
    trace: 'retain-on-failure',
  },
});
