import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type Plugin } from 'vite';
import { defineConfig } from 'vitest/config';
import { inlineFrameScript } from './widget/build/inline-frame-script';
import { widgetParts } from './widget/build/parts';

const root = fileURLToPath(new URL('.', import.meta.url));
const outDir = join(root, 'dist/widget');
const adminOutDir = join(root, 'dist/admin');

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
    include: [
      'shared/**/*.test.ts',
      'server/**/*.test.ts',
      'widget/**/*.test.ts',
      'widget/**/*.test.tsx',
      'scripts/**/*.test.ts',
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
