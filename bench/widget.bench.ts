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
 *   frames    the first frame's document request starts (its Resource Timing entry, initiatorType
 *             iframe): how soon the script starts the frames
 *   rendered  onReady: session and texts read, the forms rendered
 *   ready     onReadyIframeCommunication: both card-field frames loaded and initialised,
 *             the form is interactive (checked afterwards: the number input is enabled)
 *
 * Cold: a new browser context (empty HTTP cache) per load. Warm: one context, loaded again.
 *
 * The floor (issue 21): a page that does nothing but what the card form cannot avoid, in the same
 * run, each cold floor load right after a cold widget load so both see the same machine. Its page
 * is on http://localhost:<port> and loads a small script from http://127.0.0.1:<port> (another
 * site, like the shop and the gateway), which opens two frames of that origin whose document only
 * tells its parent it is there, from an inline module script (one URL per frame, as the card
 * field's: Chromium's HTTP cache would load one URL's frames one after the other); `ready` is when
 * both have. The goal: the widget's cold median `ready` within 1.3 × the floor's (PASS/FAIL;
 * `--strict` exits 1 on FAIL).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type Browser, type BrowserContext, chromium, type Page } from '@playwright/test';
import { CHROMIUM_LAUNCH } from '../e2e/support/chromium';
import { startHarness } from '../e2e/support/global-setup';
import { ensureWidgetBuilt } from '../widget/build/ensure';

interface Marks {
  readonly script: number;
  readonly frames: number;
  readonly rendered: number;
  readonly ready: number;
  /** Where the time goes (printed for the widget only; see bench/README.md). */
  readonly detail?: Detail;
}

/**
 * Finer marks of a load, from the same start (see bench/README.md): the session read's answer (the
 * widget's), then inside the frames, moved onto the page's clock by the time origins and the latest
 * of the two frames: their navigation start, their document's answer, their script's and CSS's
 * answers, their DOMContentLoaded (module scripts have run); and when the page heard both frames
 * say `ready` (the widget's, through a `message` listener the init script adds before the widget's).
 */
interface Detail {
  readonly session: number;
  readonly frameStart: number;
  readonly frameDoc: number;
  readonly frameScript: number;
  readonly frameCss: number;
  readonly frameDcl: number;
  readonly framesSaid: number;
}
const DETAIL_KEYS: readonly (keyof Detail)[] = [
  'session',
  'frameStart',
  'frameDoc',
  'frameScript',
  'frameCss',
  'frameDcl',
  'framesSaid',
];

const argValue = (name: string): string | undefined => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
};
const LOADS = Number(argValue('--loads') ?? process.env.BENCH_LOADS ?? 20);
const STRICT = process.argv.includes('--strict');
/** Issue 21: script start → interactive card form within this many times the two-frame floor. */
const GOAL_RATIO = 1.3;

/**
 * The floor's files. The frame document is served like the card field's (no-cache, its script an
 * inline module inside it: no request after the document); the page's script starts both frames
 * at once and marks `ready` when both have said so.
 */
const FLOOR_FILES: Readonly<Record<string, readonly [type: string, body: (frames: string) => string]>> = {
  '/floor.html': [
    'text/html',
    (frames) =>
      `<!doctype html><html><head><meta charset="utf-8"><title>floor</title></head><body><form></form><script src="${frames}/floor.js"></script></body></html>`,
  ],
  '/floor.js': [
    'text/javascript',
    (frames) => `(() => {
  const bench = (window.__bench = window.__bench || {});
  let heard = 0;
  const frames = [];
  window.addEventListener('message', (e) => {
    if (e.origin !== ${JSON.stringify(frames)} || !frames.some((f) => f.contentWindow === e.source)) return;
    if (++heard === 2) bench.ready = performance.now();
  });
  for (const name of ['number', 'cvv']) {
    const frame = document.createElement('iframe');
    frame.src = ${JSON.stringify(`${frames}/frame.html?`)} + name;
    frames.push(frame);
    document.body.append(frame);
  }
})();`,
  ],
  '/frame.html': [
    'text/html',
    () =>
      `<!doctype html><html><head><meta charset="utf-8"><script type="module">parent.postMessage('ready', '*');</script></head><body></body></html>`,
  ],
};

/** Serves the floor on one port: the page as http://localhost:<port>, the frames as 127.0.0.1. */
async function startFloor(): Promise<{ readonly url: string; readonly server: Server }> {
  let frames = '';
  const server = createServer((req, res) => {
    const file = FLOOR_FILES[new URL(req.url ?? '/', 'http://x').pathname];
    if (file === undefined) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, {
      'Content-Type': `${file[0]}; charset=utf-8`,
      'Cache-Control': file[0] === 'text/html' ? 'no-cache' : 'public, max-age=31536000, immutable',
    });
    res.end(file[1](frames));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  frames = `http://127.0.0.1:${port}`;
  return { url: `http://localhost:${port}/floor.html`, server };
}

/**
 * Runs in the page before its scripts: wraps the two callbacks whenever wpwlOptions is assigned.
 * Plain JavaScript in a string, so the TypeScript loader adds nothing the page lacks.
 */
const INSTRUMENT = `(() => {
  if (window !== window.top) return;
  const marks = (window.__bench = {});
  const said = (marks.said = []);
  window.addEventListener('message', (e) => {
    if (e.data && e.data.ns === 'wpwl:1' && e.data.t === 'ready') said.push(performance.now());
  });
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

/** One load of `url`; `script`: the name of the script timed from, `form`: wait for the card form. */
async function load(context: BrowserContext, url: string, script: string, form: boolean): Promise<Marks> {
  const page = await context.newPage();
  try {
    await page.goto(url);
    await page.waitForFunction(
      () => (window as unknown as { __bench?: { ready?: number } }).__bench?.ready !== undefined,
      undefined,
      { timeout: 30_000 },
    );
    // The frame has applied the host's init: its input is enabled.
    if (form)
      await page
        .locator('iframe.wpwl-control-cardNumber')
        .contentFrame()
        .locator('input#field:enabled')
        .waitFor({ timeout: 10_000 });
    const marks = await page.evaluate((name) => {
      const bench = (window as unknown as { __bench: { rendered?: number; ready: number } }).__bench;
      const entry = performance.getEntriesByType('resource').find((e) => e.name.includes(name)) as
        | PerformanceResourceTiming
        | undefined;
      if (entry === undefined) throw new Error(`no resource timing entry for ${name}`);
      const frame = performance
        .getEntriesByType('resource')
        .find((e) => (e as PerformanceResourceTiming).initiatorType === 'iframe');
      return {
        script: entry.responseEnd - entry.startTime,
        frames: (frame?.startTime ?? Number.NaN) - entry.startTime,
        rendered: (bench.rendered ?? Number.NaN) - entry.startTime,
        ready: bench.ready - entry.startTime,
      };
    }, script);
    return { ...marks, detail: await detail(page, script, form ? 'card-field.html' : 'frame.html') };
  } finally {
    await page.close();
  }
}

/** The finer marks of a load (Detail), in ms from the script's fetch start. */
async function detail(page: Page, script: string, frameDocument: string): Promise<Detail> {
  // No named functions inside: the TypeScript loader would wrap them in a helper the page lacks.
  const host = await page.evaluate((name) => {
    const entries = performance.getEntriesByType('resource') as PerformanceResourceTiming[];
    const start = entries.find((e) => e.name.includes(name))?.startTime ?? Number.NaN;
    const said = (window as unknown as { __bench?: { said?: number[] } }).__bench?.said ?? [];
    return {
      origin: performance.timeOrigin + start,
      session:
        Math.max(...entries.filter((e) => e.name.includes('/session')).map((e) => e.responseEnd)) - start,
      framesSaid: (said[1] ?? Number.NaN) - start,
    };
  }, script);
  const inFrames = await Promise.all(
    page
      .frames()
      .filter((f) => f.url().includes(frameDocument))
      .map((f) =>
        f.evaluate(() => {
          const t0 = performance.timeOrigin;
          const entries = performance.getEntriesByType('resource') as PerformanceResourceTiming[];
          const nav = performance.getEntriesByType('navigation')[0] as
            | PerformanceNavigationTiming
            | undefined;
          const js = entries.find((e) => e.name.endsWith('.js'))?.responseEnd ?? Number.NaN;
          const css = entries.find((e) => e.name.endsWith('.css'))?.responseEnd ?? Number.NaN;
          return {
            start: t0,
            doc: t0 + (nav?.responseEnd ?? Number.NaN),
            js: t0 + js,
            css: t0 + css,
            dcl: t0 + (nav?.domContentLoadedEventStart ?? Number.NaN),
          };
        }),
      ),
  );
  const latest = (key: keyof (typeof inFrames)[number]) =>
    Math.max(...inFrames.map((f) => f[key])) - host.origin;
  return {
    session: host.session,
    frameStart: latest('start'),
    frameDoc: latest('doc'),
    frameScript: latest('js'),
    frameCss: latest('css'),
    frameDcl: latest('dcl'),
    framesSaid: host.framesSaid,
  };
}

/** A cold load: a new context, so an empty HTTP cache. */
async function coldLoad(browser: Browser, url: string, script: string, form: boolean): Promise<Marks> {
  const context = await browser.newContext();
  try {
    await context.addInitScript({ content: INSTRUMENT });
    return await load(context, url, script, form);
  } finally {
    await context.close();
  }
}

function quantile(sorted: readonly number[], q: number): number {
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[i]!;
}

type Mark = Exclude<keyof Marks, 'detail'>;

function summary(label: string, runs: readonly Marks[], keys: readonly Mark[]): void {
  console.log(`\n${label} (${runs.length} loads), ms from the script's fetch start:`);
  console.log('  mark       median     p90     min     max');
  for (const key of keys) {
    const values = runs.map((r) => r[key]).sort((a, b) => a - b);
    const cells = [0.5, 0.9, 0, 1].map((q) => quantile(values, q).toFixed(1).padStart(7));
    console.log(`  ${key.padEnd(9)} ${cells.join(' ')}`);
  }
}

function detailSummary(runs: readonly Marks[]): void {
  console.log(
    "  (where it goes: the session answered, the frame documents answered, the frames' script and CSS",
  );
  console.log('   answered (latest of the two frames), the page heard both frames say ready)');
  for (const key of DETAIL_KEYS) {
    const values = runs
      .map((r) => r.detail?.[key] ?? Number.NaN)
      .filter(Number.isFinite)
      .sort((a, b) => a - b);
    // A mark a page has not (the floor reads no session; a frame's CSS now comes in its script): "-".
    const cells = [0.5, 0.9, 0, 1].map((q) =>
      (values.length === 0 ? '-' : quantile(values, q).toFixed(1)).padStart(7),
    );
    console.log(`  ${key.padEnd(11)}${cells.join(' ')}`);
  }
}

const median = (runs: readonly Marks[]): number =>
  quantile(
    runs.map((r) => r.ready).sort((a, b) => a - b),
    0.5,
  );

async function main(): Promise<void> {
  if (await ensureWidgetBuilt()) console.log('widget built');
  const harness = await startHarness({ ...process.env, LOG_LEVEL: 'warn' });
  const floor = await startFloor();
  let browser: Browser | undefined;
  const widget = 'paymentWidgets.js';
  try {
    browser = await chromium.launch(CHROMIUM_LAUNCH);
    console.log(`Chromium ${browser.version()}, Node ${process.version}, ${LOADS} loads each`);
    const url = `${harness.info.shopUrl}/`;

    // One load of each first, not counted: the servers' first requests load code.
    await coldLoad(browser, url, widget, true);
    await coldLoad(browser, floor.url, 'floor.js', false);

    // Side by side: each widget load, then a floor load.
    const cold: Marks[] = [];
    const floors: Marks[] = [];
    for (let i = 0; i < LOADS; i++) {
      cold.push(await coldLoad(browser, url, widget, true));
      floors.push(await coldLoad(browser, floor.url, 'floor.js', false));
    }

    const warmContext = await browser.newContext();
    await warmContext.addInitScript({ content: INSTRUMENT });
    await load(warmContext, url, widget, true);
    const warm: Marks[] = [];
    for (let i = 0; i < LOADS; i++) warm.push(await load(warmContext, url, widget, true));
    await warmContext.close();

    summary('Cold (new context, empty cache)', cold, ['script', 'frames', 'rendered', 'ready']);
    detailSummary(cold);
    summary('Warm (same context, cached script, styles and frame)', warm, [
      'script',
      'frames',
      'rendered',
      'ready',
    ]);
    summary('Floor, cold (a script opening two cross-site frames that only say they are there)', floors, [
      'script',
      'frames',
      'ready',
    ]);
    detailSummary(floors);
    const ready = median(cold);
    const base = median(floors);
    const ratio = ready / base;
    const verdict = ratio <= GOAL_RATIO ? 'PASS' : 'FAIL';
    console.log(`\nwidget script start → interactive card form (cold, median): ${ready.toFixed(1)} ms`);
    console.log(`floor: two cross-site frames (cold, median): ${base.toFixed(1)} ms`);
    console.log(`ratio: ${ratio.toFixed(2)} × the floor (goal ≤ ${GOAL_RATIO}) ${verdict}`);
    // Each widget load over the floor load right after it: less moved by the machine's load drifting
    // during the run (shown for reading; the verdict is the ratio of the medians).
    const paired = cold.map((r, i) => r.ready / floors[i]!.ready).sort((a, b) => a - b);
    console.log(
      `paired ratios (each widget load / the floor load after it): median ${quantile(paired, 0.5).toFixed(2)}, p25 ${quantile(paired, 0.25).toFixed(2)}, p75 ${quantile(paired, 0.75).toFixed(2)}`,
    );
    if (STRICT && verdict === 'FAIL') process.exitCode = 1;
  } finally {
    await browser?.close();
    await harness.stop();
    floor.server.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
