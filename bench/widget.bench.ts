/**
 * Widget start-up in a real browser: how long from the moment the shop page starts fetching
 * `paymentWidgets.js` until the card form is interactive, in Debian's Chromium against the e2e
 * harness (the real gateway and the demo shop, as a child process). See bench/README.md.
 *
 *   npx tsx bench/widget.bench.ts               # 20 cold loads and 20 warm loads
 *   npx tsx bench/widget.bench.ts --loads 50
 *
 * Each load opens the demo shop's checkout page (the shop creates a checkout first, outside the
 * timing). An init script wraps the page's `wpwlOptions.onReady` and `onReadyIframeCommunication`
 * when the page assigns them and records `performance.now()` there; the start is the
 * `startTime` of the script's resource timing entry. Three marks per load, all from that start:
 *
 *   script    the script's responseEnd (downloaded)
 *   rendered  onReady: session and texts read, the forms rendered
 *   ready     onReadyIframeCommunication: both card-field frames loaded and initialised,
 *             the form is interactive (checked afterwards: the number input is enabled)
 *
 * Cold: a new browser context (empty HTTP cache) per load. Warm: one context, loaded again.
 */
import { type Browser, type BrowserContext, chromium } from '@playwright/test';
import { CHROMIUM_LAUNCH } from '../e2e/support/chromium';
import { startHarness } from '../e2e/support/global-setup';
import { ensureWidgetBuilt } from '../widget/build/ensure';

interface Marks {
  readonly script: number;
  readonly rendered: number;
  readonly ready: number;
}

const argValue = (name: string): string | undefined => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
};
const LOADS = Number(argValue('--loads') ?? process.env.BENCH_LOADS ?? 20);

/**
 * Runs in the page before its scripts: wraps the two callbacks whenever wpwlOptions is assigned.
 * Plain JavaScript in a string, so the TypeScript loader adds nothing the page lacks.
 */
const INSTRUMENT = `(() => {
  if (window !== window.top) return;
  const marks = (window.__bench = {});
  const wrap = (options, name, mark) => {
    const own = options[name];
    options[name] = function (...args) {
      if (marks[mark] === undefined) marks[mark] = performance.now();
      return typeof own === 'function' ? own.apply(this, args) : undefined;
    };
  };
  let current;
  Object.defineProperty(window, 'wpwlOptions', {
    configurable: true,
    get: () => current,
    set(value) {
      current = value;
      if (value !== null && typeof value === 'object') {
        wrap(value, 'onReady', 'rendered');
        wrap(value, 'onReadyIframeCommunication', 'ready');
      }
    },
  });
})();`;

async function load(context: BrowserContext, url: string): Promise<Marks> {
  const page = await context.newPage();
  try {
    await page.goto(url);
    await page.waitForFunction(
      () => (window as unknown as { __bench?: { ready?: number } }).__bench?.ready !== undefined,
      undefined,
      { timeout: 30_000 },
    );
    // The frame has applied the host's init: its input is enabled.
    await page
      .locator('iframe.wpwl-control-cardNumber')
      .contentFrame()
      .locator('input#field:enabled')
      .waitFor({ timeout: 10_000 });
    return await page.evaluate(() => {
      const bench = (window as unknown as { __bench: { rendered: number; ready: number } }).__bench;
      const entry = performance
        .getEntriesByType('resource')
        .find((e) => e.name.includes('/v1/paymentWidgets.js')) as PerformanceResourceTiming | undefined;
      if (entry === undefined) throw new Error('no resource timing entry for paymentWidgets.js');
      return {
        script: entry.responseEnd - entry.startTime,
        rendered: bench.rendered - entry.startTime,
        ready: bench.ready - entry.startTime,
      };
    });
  } finally {
    await page.close();
  }
}

function quantile(sorted: readonly number[], q: number): number {
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[i]!;
}

function summary(label: string, runs: readonly Marks[]): void {
  console.log(`\n${label} (${runs.length} loads), ms from the script's fetch start:`);
  console.log('  mark       median     p90     min     max');
  for (const key of ['script', 'rendered', 'ready'] as const) {
    const values = runs.map((r) => r[key]).sort((a, b) => a - b);
    const cells = [0.5, 0.9, 0, 1].map((q) => quantile(values, q).toFixed(1).padStart(7));
    console.log(`  ${key.padEnd(9)} ${cells.join(' ')}`);
  }
}

async function main(): Promise<void> {
  if (await ensureWidgetBuilt()) console.log('widget built');
  const harness = await startHarness({ ...process.env, LOG_LEVEL: 'warn' });
  let browser: Browser | undefined;
  try {
    browser = await chromium.launch(CHROMIUM_LAUNCH);
    console.log(`Chromium ${browser.version()}, Node ${process.version}, ${LOADS} loads each`);
    const url = `${harness.info.shopUrl}/`;

    // One load first, not counted: the gateway's and the shop's first requests load code.
    const warmup = await browser.newContext();
    await warmup.addInitScript({ content: INSTRUMENT });
    await load(warmup, url);
    await warmup.close();

    const cold: Marks[] = [];
    for (let i = 0; i < LOADS; i++) {
      const context = await browser.newContext();
      await context.addInitScript({ content: INSTRUMENT });
      cold.push(await load(context, url));
      await context.close();
    }

    const warmContext = await browser.newContext();
    await warmContext.addInitScript({ content: INSTRUMENT });
    await load(warmContext, url);
    const warm: Marks[] = [];
    for (let i = 0; i < LOADS; i++) warm.push(await load(warmContext, url));
    await warmContext.close();

    summary('Cold (new context, empty cache)', cold);
    summary('Warm (same context, cached script, styles and frame)', warm);
    const median = quantile(
      cold.map((r) => r.ready).sort((a, b) => a - b),
      0.5,
    );
    console.log(`\nwidget script start → interactive card form (cold, median): ${median.toFixed(1)} ms`);
  } finally {
    await browser?.close();
    await harness.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
