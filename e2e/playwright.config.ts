/**
 * Playwright flows in Debian's Chromium (no browser downloads here) against the harness: the
 * real gateway and the demo shop, started once by global setup.
 *
 * Two projects: `flows` runs in parallel on the harness's gateway; `clock` (files named
 * `*.clock.spec.ts`) moves time on the harness's second gateway, the one on the test clock
 * (its own demo merchant and shop, so no other flow's checkout expires), one test at a time:
 * its clock only moves forward.
 */
import { defineConfig, devices } from '@playwright/test';
import { CHROMIUM_LAUNCH } from './support/chromium';

const CLOCK = /\.clock\.spec\.ts$/;

export default defineConfig({
  testDir: './flows',
  globalSetup: './support/global-setup.ts',
  outputDir: './test-results',
  fullyParallel: true,
  // Two browsers at a time keep a 2-core machine busy without starving the gateway.
  workers: process.env.E2E_WORKERS ? Number(process.env.E2E_WORKERS) : 2,
  retries: 0,
  timeout: 30_000,
  expect: { timeout: 10_000 },
  reporter: [['list']],
  use: {
    ...devices['Desktop Chrome'],
    viewport: { width: 1280, height: 800 },
    launchOptions: CHROMIUM_LAUNCH,
    // Recorded for every test, kept for a failing one; without the screencast and DOM snapshots,
    // which made every page draw several times slower on this 2-core machine (Redoc's: 27 s
    // untraced, 174 s traced). A failure's trace still has its actions, console and network, and
    // the test's own screenshot on failure.
    trace: { mode: 'retain-on-failure', screenshots: false, snapshots: false },
    screenshot: 'only-on-failure',
  },
  projects: [
    { name: 'flows', testIgnore: CLOCK },
    // one worker: without it two clock files ran at once, and one's 31-minute move expired the
    // other's checkout between its own moves (the admin clock flow then saw nothing expire)
    { name: 'clock', testMatch: CLOCK, fullyParallel: false, workers: 1 },
  ],
});
