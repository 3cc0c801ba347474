/**
 * A build output folder for the static routes' tests (the widget's and the dashboard's): the
 * files, a manifest.json listing each with its size (the routes serve only what it lists), and
 * secret.txt beside them, present but unlisted. Made before the file's tests, deleted after them.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';

/**
 * The folder's path once the tests run (`dir()`); `manifest` adds fields to manifest.json (the
 * build's time, the widget's integrity).
 */
export function buildFolder(
  prefix: string,
  files: Record<string, string>,
  manifest: Record<string, unknown>,
): () => string {
  let dir = '';
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), prefix));
    for (const [path, body] of Object.entries(files)) {
      mkdirSync(join(dir, path, '..'), { recursive: true });
      writeFileSync(join(dir, path), body);
    }
    const sizes = Object.fromEntries(Object.entries(files).map(([p, b]) => [p, Buffer.byteLength(b)]));
    writeFileSync(join(dir, 'manifest.json'), JSON.stringify({ ...manifest, files: sizes }));
    writeFileSync(join(dir, 'secret.txt'), 'not listed');
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  return () => dir;
}
