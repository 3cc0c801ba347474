/**
 * Builds the kit as the package's `open-payment-gateway/testing` entry: dist/testing/index.js, one
 * ESM file (esbuild), its dependencies left to the installing project (@playwright/test is the
 * QA suite's own, so `expect` and its timeouts are theirs). Why JavaScript: Playwright transforms
 * TypeScript only outside node_modules, and Node 20 cannot run it, so a QA project that installs
 * the package could not load the sources. Types come from the sources (`types` condition).
 *
 *   tsx e2e/kit/build.ts     (pretest and prepare run it; a few hundred milliseconds)
 */

import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const KIT_BUNDLE = join(ROOT, 'dist/testing/index.js');

/** Builds the entry; false (with a warning) where esbuild is not installed (`npm install --omit=dev`). */
export function buildKit(): boolean {
  let esbuild: typeof import('esbuild');
  try {
    esbuild = createRequire(import.meta.url)('esbuild') as typeof import('esbuild');
  } catch {
    console.warn('kit: esbuild is not installed (a development dependency), so dist/testing/ was not built');
    return false;
  }
  esbuild.buildSync({
    entryPoints: [join(ROOT, 'e2e/kit/index.ts')],
    outfile: KIT_BUNDLE,
    bundle: true,
    packages: 'external',
    platform: 'node',
    format: 'esm',
    target: 'node20',
    logLevel: 'warning',
  });
  return true;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) buildKit();
