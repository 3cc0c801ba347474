import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));

/**
 * 11 KB: the payment-method catalogue (catalogue.ts) is the widget's card detection data and brand
 * registry; with the regional card brands (ELO's and MADA's BIN lists are most of it), the method
 * codes and the account data it went from 7.7 KB to about 10.4 KB (4.6 KB gzip); the display names'
 * reader (brandDisplayName, registered brands' own names) took it to about 11.0 KB.
 */
it('bundles for the browser from shared/brands alone, under 11.5 KB minified', async () => {
  const result = await build({
    absWorkingDir: root,
    entryPoints: ['shared/brands/index.ts'],
    bundle: true,
    write: false,
    minify: true,
    format: 'esm',
    platform: 'browser',
    metafile: true,
    logLevel: 'silent',
  });

  const inputs = Object.keys(result.metafile.inputs);
  expect(inputs.length).toBeGreaterThan(0);
  for (const input of inputs) {
    expect(input).toMatch(/^shared\/brands\/[^/]+\.ts$/);
    expect(input).not.toMatch(/\.test\.ts$/);
  }
  for (const output of Object.values(result.metafile.outputs)) expect(output.imports).toEqual([]);

  expect(result.outputFiles).toHaveLength(1);
  const code = result.outputFiles[0]!.contents;
  const gzip = gzipSync(code, { level: 9 }).length;
  console.log(`shared/brands bundle: ${code.length} B minified, ${gzip} B gzip (${inputs.length} files)`);
  expect(code.length).toBeLessThan(11.5 * 1024);
});
