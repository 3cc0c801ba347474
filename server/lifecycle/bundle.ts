/**
 * The production start path's program: server/main.ts and everything it imports, bundled by esbuild
 * into one ES module, dist/server/main.js (with a linked source map), that plain `node` runs.
 *
 * Why not `tsx server/main.ts`: tsx compiles each module on load through ESM loader hooks, and on
 * Node 20 those run in a thread of their own with a second V8 heap; with the module graph it adds
 * about 60 MB of resident memory to the gateway before it answers anything. The bundle is the same
 * code, compiled once (`npm start` builds it first: prestart; a second or less).
 *
 * Modules that find files next to their own source (`new URL('../x', import.meta.url)`: the widget
 * build, the docs assets, the widget sources shown on the docs pages) keep finding them: each
 * module's `import.meta.url` becomes its source file's URL, relative to the bundle.
 * Dependencies stay in node_modules (`packages: 'external'`), resolved from the repository.
 *
 *   tsx server/lifecycle/bundle.ts     (prestart runs it)
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const SERVER_BUNDLE = join(ROOT, 'dist/server/main.js');

type Esbuild = typeof import('esbuild');

/**
 * Bundles server/main.ts (or another program of the repository: the QA kit's gateway,
 * e2e/kit/build.ts) into `outfile` (in the repository, so that node_modules resolves).
 */
export async function bundleServer(
  outfile = SERVER_BUNDLE,
  entry = join(ROOT, 'server/main.ts'),
): Promise<string> {
  // esbuild comes with tsx, a dependency, so it is there in a production install too.
  const esbuild = createRequire(import.meta.url)('esbuild') as Esbuild;
  await esbuild.build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    packages: 'external',
    platform: 'node',
    format: 'esm',
    target: 'node20',
    sourcemap: 'linked',
    logLevel: 'warning',
    plugins: [
      {
        name: 'source-relative import.meta.url',
        setup(build) {
          build.onLoad({ filter: /\.ts$/ }, (args) => {
            const text = readFileSync(args.path, 'utf8');
            if (!text.includes('import.meta.url')) return undefined;
            const fromBundle = relative(dirname(outfile), args.path).split('\\').join('/');
            const url = `new URL(${JSON.stringify(fromBundle)}, import.meta.url).href`;
            return { contents: text.replaceAll('import.meta.url', url), loader: 'ts' };
          });
        },
      },
    ],
  });
  return outfile;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href)
  await bundleServer();
