/**
 * Builds the kit as the package's `open-payment-gateway/testing` entry: dist/testing/index.js, one
 * ESM file (esbuild), its dependencies left to the installing project (@playwright/test is the
 * QA suite's own, so `expect` and its timeouts are theirs). Why JavaScript: Playwright transforms
 * TypeScript only outside node_modules, and Node 20 cannot run it, so a QA project that installs
 * the package could not load the sources. Types come from the sources (`types` condition).
 *
 *   tsx e2e/kit/build.ts     (pretest and prepare run it; a few hundred milliseconds)
 */
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { buildSync } from 'esbuild';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const KIT_BUNDLE = join(ROOT, 'dist/testing/index.js');

export function buildKit(): void {
  buildSync({
    entryPoints: [join(ROOT, 'e2e/kit/index.ts')],
    outfile: KIT_BUNDLE,
    bundle: true,
    packages: 'external',
    platform: 'node',
    format: 'esm',
    target: 'node20',
    logLevel: 'warning',
  });
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) buildKit();
