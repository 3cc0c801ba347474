import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type Plugin } from 'vite';
import { configDefaults, defineConfig } from 'vitest/config';
import { inlineFrameScript } from './widget/build/inline-frame-script';
import { widgetParts } from './widget/build/parts';

const root = fileURLToPath(new URL('.', import.meta.url));
const outDir = join(root, 'dist/widget');
const adminOutDir = join(root, 'dist/admin');

const GATEWAY_TESTS = ['shared/**/*.test.ts', 'server/**/*.test.ts', 'scripts/**/*.test.ts'];
const WIDGET_TESTS = ['widget/**/*.test.ts', 'widget/**/*.test.tsx'];

/**
 * What makes a test file outside widget/ need modules of its own: a module mock (hoisted, it must
 * come before anything imports the module), modules reset, another environment than node, or
 * process.env written by hand (vi.stubEnv is undone at the file's end by the setup file).
 */
const NEEDS_ISOLATION =
  /@vitest-environment|\bvi\.(mock|doMock|unmock|resetModules)\(|process\.env(\.\w+|\[[^\]]+\])\s*=[^=]|delete process\.env/;

/** The test files of shared/, server/ and scripts/ that NEEDS_ISOLATION finds, from the root. */
function isolatedFiles(): string[] {
  return ['shared', 'server', 'scripts'].flatMap((dir) =>
    readdirSync(join(root, dir), { recursive: true, encoding: 'utf8' })
      .filter((name) => /\.test\.tsx?$/.test(name) && !name.includes('node_modules'))
      .map((name) => `${dir}/${name.split('\\').join('/')}`)
      .filter((file) => NEEDS_ISOLATION.test(readFileSync(join(root, file), 'utf8'))),
  );
}

// One config for the widget build and for Vitest.
//
// `vite build` writes dist/widget/, which the gateway serves (server/http/routes/widget.ts):
//   paymentWidgets.js, .css   the widget: one IIFE file whose SRI hash is fixed per build (it reads
//                             checkoutId from its own URL)
//   frames/card-field.html    the card-field frame document, its script (CSS inside) inline
//                             (widget/build/inline-frame-script.ts: no request after the document)
//   frames/wallet-sheet.html  the simulated wallet sheet (Preact), its script and CSS in frames/assets/
//   parts/<name>-<hash>.js    code only some checkouts need, fetched when drawn (widget/build/parts.ts)
//   locales/<code>.json       every language but English (which is built in)
//   logos/<BRAND>.svg         the brands' logos (widget/components/internal/BrandLogo/logos/), loaded
//                             by the widget as images, apart from its script
//   manifest.json             {integrity: sha384 of paymentWidgets.js, builtAt, files: {path: bytes}}
// and, as its second entry, dist/admin/: the administration dashboard (widget/admin/, served at
// /admin/ by server/http/routes/dashboard.ts): index.html, assets/<name>-<hash>.js|css, manifest.json.
export default defineConfig({
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: {
    outDir,
    emptyOutDir: true,
    // es2022: class fields as written, not through helpers. The widget needs Object.hasOwn (es2022)
    // and modulepreload (for its parts) anyway, which every browser got no earlier than this syntax.
    target: 'es2022',
    modulePreload: false,
    cssCodeSplit: false,
    copyPublicDir: false,
    reportCompressedSize: false,
    rolldownOptions: {
      input: 'widget/paymentWidgets.ts',
      output: {
        format: 'iife',
        entryFileNames: 'paymentWidgets.js',
        assetFileNames: (asset) =>
          asset.names.some((n) => n.endsWith('.css'))
            ? 'paymentWidgets.css'
            : 'assets/[name]-[hash][extname]',
      },
    },
  },
  plugins: [widgetParts(root), widgetExtras()],
  test: {
    // Two groups (Vitest projects; "isolated" runs after "gateway", files longest first in each):
    //   gateway   every test of shared/, server/ and scripts/ but those below, with `isolate: false`:
    //             a worker keeps its modules from one file to the next instead of importing the
    //             server's module graph afresh for each file (import was half the suite's time: 659 s
    //             summed over the files in 1184 s). Files still run one at a time in a worker, the
    //             setup file runs again before each, and Vitest restores spies between files; the
    //             setup file also puts back real timers, globals and environment variables a file left.
    //   isolated  widget/ (happy-dom documents and the widget's module state) and any other file that
    //             mocks modules, resets them, takes another environment or writes process.env
    //             (isolatedFiles below): a fresh module graph per file, as Vitest does by default.
    projects: [
      {
        extends: true,
        test: {
          name: 'gateway',
          include: GATEWAY_TESTS,
          exclude: [...configDefaults.exclude, ...isolatedFiles()],
          isolate: false,
        },
      },
      {
        extends: true,
        test: { name: 'isolated', include: [...WIDGET_TESTS, ...isolatedFiles()], isolate: true },
      },
    ],
    environment: 'node',
    // At each test file's end, what the test kit's gateways and temporary folders left is closed and
    // deleted (server/test-kit/temp-folders.ts): no test leaves its data folder in /tmp.
    setupFiles: ['server/test-kit/setup.ts'],
    // Widget tests choose happy-dom per file (`// @vitest-environment happy-dom`). Nothing is fetched:
    // tests that render frames keep their address from happy-dom, which then loads about:blank.
    environmentOptions: {
      happyDOM: {
        settings: {
          enableIframePageLoading: true,
          disableJavaScriptFileLoading: true,
          disableCSSFileLoading: true,
          handleDisabledFileLoadingAsSuccess: true,
        },
      },
    },
    // Two files at a time on the 2-core machine (Vitest's default is cores − 1, so one): most files
    // wait on gateway processes, PostgreSQL and sockets, and one worker left a core idle for
    // about 40 % of the run (862 s for 484 s of tests). GATEWAY_TEST_WORKERS overrides it.
    maxWorkers: process.env.GATEWAY_TEST_WORKERS ? Number(process.env.GATEWAY_TEST_WORKERS) : 2,
    testTimeout: 30_000,
    // hooks that spawn a gateway process wait up to 30 s for it on a busy machine
    hookTimeout: 60_000,
  },
});

/** After paymentWidgets.js is written: the frame documents, the languages, the manifest. */
function widgetExtras(): Plugin {
  return {
    name: 'wpwl-widget-extras',
    apply: 'build',
    async closeBundle() {
      await build({
        configFile: false,
        logLevel: 'warn',
        oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
        root: join(root, 'widget/frames'),
        base: './',
        build: {
          outDir: join(outDir, 'frames'),
          emptyOutDir: false,
          target: 'es2020',
          modulePreload: { polyfill: false },
          reportCompressedSize: false,
          rolldownOptions: {
            input: {
              'card-field': join(root, 'widget/frames/card-field.html'),
              'wallet-sheet': join(root, 'widget/frames/wallet-sheet.html'),
            },
          },
        },
      });
      inlineFrameScript(join(outDir, 'frames'), 'card-field.html');

      const locales = join(root, 'widget/language/locales');
      mkdirSync(join(outDir, 'locales'), { recursive: true });
      for (const name of readdirSync(locales)) {
        if (name.endsWith('.json') && name !== 'en.json') {
          const json: unknown = JSON.parse(readFileSync(join(locales, name), 'utf8'));
          writeFileSync(join(outDir, 'locales', name), JSON.stringify(json));
        }
      }

      const logos = join(root, 'widget/components/internal/BrandLogo/logos');
      mkdirSync(join(outDir, 'logos'), { recursive: true });
      for (const name of readdirSync(logos)) {
        if (name.endsWith('.svg'))
          writeFileSync(join(outDir, 'logos', name), readFileSync(join(logos, name)));
      }

      await buildDashboard();

      const files = sizes(outDir);
      const script = readFileSync(join(outDir, 'paymentWidgets.js'));
      const integrity = `sha384-${createHash('sha384').update(script).digest('base64')}`;
      const manifest = { integrity, builtAt: new Date().toISOString(), files };
      writeFileSync(join(outDir, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
    },
  };
}

/** The dashboard (widget/admin/index.html → dist/admin/), its own build: no code shared with the widget. */
async function buildDashboard(): Promise<void> {
  await build({
    configFile: false,
    logLevel: 'warn',
    oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
    root: join(root, 'widget/admin'),
    base: '/admin/',
    build: {
      outDir: adminOutDir,
      emptyOutDir: true,
      target: 'es2020',
      // no inline polyfill script: the dashboard's CSP allows only its own files
      modulePreload: { polyfill: false },
      cssCodeSplit: false,
      assetsInlineLimit: 0,
      reportCompressedSize: false,
    },
  });
  const manifest = { builtAt: new Date().toISOString(), files: sizes(adminOutDir) };
  writeFileSync(join(adminOutDir, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
}

/** Path below `dir` → size in bytes, for every file but the manifest. */
function sizes(dir: string): Record<string, number> {
  const files: Record<string, number> = {};
  for (const file of listFiles(dir)) {
    if (file !== 'manifest.json') files[file] = statSync(join(dir, file)).size;
  }
  return files;
}

function listFiles(dir: string, base = dir): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...listFiles(path, base));
    else out.push(relative(base, path).split('\\').join('/'));
  }
  return out.sort();
}
