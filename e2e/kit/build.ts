/**
 * Builds the kit as the package's `open-payment-gateway/testing` entry (esbuild), into dist/testing/:
 *
 *   index.js    the kit as an ES module (the `import` condition: `"type": "module"` projects)
 *   index.cjs   the same as CommonJS (the `require` condition: Playwright compiles a CommonJS
 *               project's tests to `require` calls)
 *   serve.js    the gateway startTestGateway runs (serve.ts and the gateway, one ES module for
 *               plain `node`: server/lifecycle/bundle.ts's bundle, whose modules still find the
 *               files beside their sources)
 *
 * Dependencies stay the installing project's: @playwright/test above all, a peer dependency (a
 * second copy is Playwright's "Requiring @playwright/test second time"), so `expect` and its
 * timeouts are the suite's own. Why JavaScript: Playwright transforms TypeScript only outside
 * node_modules, and Node 20 cannot run it. Types come from the sources (`types` condition).
 *
 *   tsx e2e/kit/build.ts     (pretest and prepack run it; a second or two)
 */

import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { bundleServer } from '../../server/lifecycle/bundle';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const KIT_BUNDLE = join(ROOT, 'dist/testing/index.js');
export const KIT_BUNDLE_CJS = join(ROOT, 'dist/testing/index.cjs');
export const KIT_GATEWAY = join(ROOT, 'dist/testing/serve.js');

/**
 * Builds the three files; false (with a warning) where esbuild is not installed (it comes with
 * tsx, a dependency, so only a broken install lacks it).
 */
export async function buildKit(): Promise<boolean> {
  let esbuild: typeof import('esbuild');
  try {
    esbuild = createRequire(import.meta.url)('esbuild') as typeof import('esbuild');
  } catch {
    console.warn('kit: esbuild is not installed, so dist/testing/ was not built');
    return false;
  }
  const common: import('esbuild').BuildOptions = {
    entryPoints: [join(ROOT, 'e2e/kit/index.ts')],
    bundle: true,
    packages: 'external',
    platform: 'node',
    target: 'node20',
    logLevel: 'warning',
  };
  await Promise.all([
    esbuild.build({ ...common, outfile: KIT_BUNDLE, format: 'esm' }),
    esbuild.build({
      ...common,
      outfile: KIT_BUNDLE_CJS,
      format: 'cjs',
      // CommonJS has no import.meta: the kit finds the package's root from its own file's URL.
      define: { 'import.meta.url': '__kitFileUrl' },
      banner: { js: 'const __kitFileUrl = require("node:url").pathToFileURL(__filename).href;' },
    }),
    bundleServer(KIT_GATEWAY, join(ROOT, 'e2e/kit/serve.ts')),
  ]);
  return true;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href)
  await buildKit();
