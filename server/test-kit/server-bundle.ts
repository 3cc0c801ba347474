/**
 * The program `spawnGateway` runs: server/main.ts bundled into one ES module by the production
 * bundler (server/lifecycle/bundle.ts, what `npm start` runs), instead of `node --import tsx
 * server/main.ts`. The code is the same; what differs is the start: tsx compiles and loads some 400
 * modules through loader hooks on every start (4 to 10 s on two busy cores), the bundle loads in
 * about a second. Durability and multi-process tests start a gateway up to eight times per file.
 *
 * The bundle is kept in node_modules/.cache/gateway-test-server/<key>/ (inside the repository, so
 * that its external packages resolve from node_modules; never under dist/, which `npm pack`
 * ships), the key a hash of the path, size and modification time of every source file of server/,
 * shared/ and widget/ (test files aside): an edit anywhere makes a new bundle, and the test files
 * of one run share one. Concurrent builders each build into a folder of their own and rename it
 * into place; the first wins, the others use it.
 *
 * GATEWAY_TEST_TSX=1 runs the sources through tsx as before (a stack trace in TypeScript).
 */
import { createHash } from 'node:crypto';
import { readdirSync, statSync } from 'node:fs';
import { mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleServer } from '../lifecycle/bundle';

const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));

const CACHE = join(REPO_ROOT, 'node_modules/.cache/gateway-test-server');
const SOURCES = ['server', 'shared', 'widget'];
/** Older bundles than this are deleted when a new one is made (no running test still starts them). */
const STALE_MS = 60 * 60 * 1000;

const isTest = (name: string) => /\.test\.tsx?$/.test(name) || name === 'test-kit';

/** The key of today's sources: path, size and mtime of each file that goes into the program. */
function sourcesKey(): string {
  const hash = createHash('sha256');
  const walk = (dir: string) => {
    const entries = readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1));
    for (const entry of entries) {
      if (isTest(entry.name) || entry.name === 'node_modules') continue;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else {
        const { size, mtimeMs } = statSync(path);
        hash.update(`${relative(REPO_ROOT, path)}\0${size}\0${mtimeMs}\n`);
      }
    }
  };
  for (const dir of SOURCES) walk(join(REPO_ROOT, dir));
  return hash.digest('hex').slice(0, 16);
}

const exists = (path: string) =>
  stat(path).then(
    () => true,
    () => false,
  );

async function build(): Promise<string> {
  const key = sourcesKey();
  const folder = join(CACHE, key);
  const program = join(folder, 'main.js');
  if (await exists(program)) return program;
  const building = join(CACHE, `${key}.building-${process.pid}-${Math.random().toString(36).slice(2)}`);
  await mkdir(building, { recursive: true });
  try {
    await bundleServer(join(building, 'main.js'));
    // The same depth as `folder`: the bundle's source-relative URLs hold after the rename.
    await rename(building, folder).catch(async (error: NodeJS.ErrnoException) => {
      if (!(await exists(program))) throw error;
    });
  } finally {
    await rm(building, { recursive: true, force: true });
  }
  await removeStale(key);
  return program;
}

async function removeStale(current: string): Promise<void> {
  const now = Date.now();
  for (const name of await readdir(CACHE)) {
    if (name.startsWith(current)) continue;
    const path = join(CACHE, name);
    const { mtimeMs } = await stat(path).catch(() => ({ mtimeMs: now }));
    if (now - mtimeMs > STALE_MS) await rm(path, { recursive: true, force: true });
  }
}

let program: Promise<string> | undefined;

/** The arguments of `node` that start the gateway: the bundle (built once per test file at most). */
export async function gatewayProgramArgs(): Promise<string[]> {
  if (process.env.GATEWAY_TEST_TSX === '1') return ['--import', 'tsx', 'server/main.ts'];
  program ??= build();
  program.catch(() => {
    program = undefined;
  });
  return [await program];
}
