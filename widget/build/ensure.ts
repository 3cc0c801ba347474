/**
 * Builds the widget (`vite build` → dist/widget/, and its second entry, the dashboard → dist/admin/)
 * when either is missing or older than its sources.
 * `npm start` and `npm test` run this first (prestart, pretest), so both work on a fresh clone;
 * the budget test calls it too when Vitest runs alone.
 *
 *   tsx widget/build/ensure.ts            build if stale
 *   tsx widget/build/ensure.ts --force    build anyway
 */
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const DIST = join(ROOT, 'dist/widget');
/** The dashboard's build, made by the same `vite build` (its second entry). */
export const ADMIN_DIST = join(ROOT, 'dist/admin');

/** What the build reads: the widget, the shared code it imports, the config and the dependencies. */
const SOURCES = [
  'widget',
  'shared/brands',
  // The wallet sheet's country list; the result-code groups redirect.ts reads.
  'shared/geo',
  'shared/result-codes',
  // The billing address's postcode and state patterns (params/catalogue/dsl.ts).
  'shared/params',
  'vite.config.ts',
  'package.json',
  'package-lock.json',
];
const IGNORED = /(\.test\.tsx?|\.md)$/;

function newest(path: string): number {
  let stat: ReturnType<typeof statSync>;
  try {
    stat = statSync(path);
  } catch {
    return 0;
  }
  if (!stat.isDirectory()) return IGNORED.test(path) ? 0 : stat.mtimeMs;
  let latest = 0;
  for (const name of readdirSync(path)) latest = Math.max(latest, newest(join(path, name)));
  return latest;
}

/** True when dist/widget/manifest.json or dist/admin/manifest.json is missing or older than any source. */
export function widgetStale(): boolean {
  let built: number;
  try {
    built = Math.min(
      statSync(join(DIST, 'manifest.json')).mtimeMs,
      statSync(join(ADMIN_DIST, 'manifest.json')).mtimeMs,
    );
  } catch {
    return true;
  }
  return SOURCES.some((source) => newest(join(ROOT, source)) > built);
}

/** Builds when stale (or forced); true when it built. */
export async function ensureWidgetBuilt(force = false): Promise<boolean> {
  if (!force && !widgetStale()) return false;
  let vite: typeof import('vite');
  try {
    vite = await import('vite');
  } catch {
    console.warn('widget: vite is not installed (npm install), so the widget was not built');
    return false;
  }
  // Under Vitest NODE_ENV is `test`, which would make a development build (Preact's dev JSX runtime,
  // source positions in every element: about 1.3 KB gzip more); the gateway serves production.
  const env = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    await vite.build({
      root: ROOT,
      configFile: join(ROOT, 'vite.config.ts'),
      logLevel: 'warn',
      mode: 'production',
    });
  } finally {
    if (env === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = env;
  }
  return true;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const started = Date.now();
  ensureWidgetBuilt(process.argv.includes('--force')).then(
    (built) => {
      if (built) console.log(`widget built into dist/widget/ in ${Date.now() - started} ms`);
    },
    (error: unknown) => {
      console.error('widget build failed:', error);
      process.exit(1);
    },
  );
}
