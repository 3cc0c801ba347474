/**
 * The QA kit as a QA engineer installs it (README, "Testing your shop with Playwright"): `npm pack`
 * (its prepack builds the widget, the server bundle and dist/testing/), then two fresh Playwright
 * projects in a temporary folder, one `"type": "module"` and one CommonJS, made of the example QA
 * project's config, specs and shop (e2e/examples/qa-playwright/, copied as they are), the tarball
 * and @playwright/test (the repository's version) installed with one `npm install`, then each
 * running the suite: the ES module project all of it, the CommonJS one a browser flow and the
 * gateway spec. Last, `npx open-payment-gateway` from the installed package serves the sandbox.
 *
 * The install from the tarball is timed and printed (the goal is under 2 minutes on this machine,
 * most of it better-sqlite3's native module). `--prefer-offline`: what npm's cache holds is not
 * fetched again, so CI is quick after its first run.
 *
 * better-sqlite3's install runs prebuild-install, which on a user's machine downloads the prebuilt
 * binary of its version from GitHub in seconds. GitHub is out of reach here, so without help it
 * compiles from source (one to six minutes on two cores). The test hands prebuild-install that same
 * binary the way it documents for offline machines (`<package>_local_prebuilds`): the one this
 * repository's own install built, when the consumer resolves the same version. PREBUILT=0 makes
 * it compile, to time the offline install.
 *
 * PACKAGE_ROOT=<folder> packs another checkout (the "before" of a change: `git archive HEAD`).
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { cp, mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../server/test-kit/postgres';
import { tempFolder } from '../../server/test-kit/temp-folders';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const ROOT = process.env.PACKAGE_ROOT ?? REPO;
const EXAMPLE = join(REPO, 'e2e/examples/qa-playwright');
const run = promisify(execFile);

/** The environment of npm and Playwright in the projects: not this run's npm, Vitest or loader. */
function cleanEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env))
    if (!/^(npm_|VITEST|NODE_OPTIONS$|INIT_CWD$|NODE_ENV$)/i.test(key)) env[key] = value;
  return { ...env, CHROMIUM_PATH: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', CI: '1' };
}

async function sh(
  cwd: string,
  command: string,
  args: string[],
  timeout = 300_000,
  env: NodeJS.ProcessEnv = {},
) {
  try {
    return await run(command, args, {
      cwd,
      env: { ...cleanEnv(), ...env },
      timeout,
      maxBuffer: 64 * 1024 * 1024,
    });
  } catch (error) {
    const { stdout = '', stderr = '' } = error as { stdout?: string; stderr?: string };
    throw new Error(
      `${command} ${args.join(' ')} failed in ${cwd}:\n${stdout.slice(-6000)}\n${stderr.slice(-6000)}`,
    );
  }
}

const seconds = (since: number) => `${((Date.now() - since) / 1000).toFixed(1)} s`;

/**
 * A folder with better-sqlite3's prebuilt binary as prebuild-install names it
 * (`better-sqlite3-v<version>-node-v<abi>-<platform>-<arch>.tar.gz`, `build/Release/…` inside),
 * made of the repository's built module; undefined when the consumer would resolve another version
 * (its binary must match its JavaScript) or PREBUILT=0.
 */
async function localPrebuilds(base: string, range: string): Promise<string | undefined> {
  if (process.env.PREBUILT === '0') return undefined;
  const module = join(REPO, 'node_modules/better-sqlite3');
  const { version } = JSON.parse(await readFile(join(module, 'package.json'), 'utf8')) as { version: string };
  const { stdout } = await sh(base, 'npm', [
    'view',
    `better-sqlite3@${range}`,
    'version',
    '--json',
    '--prefer-offline',
  ]);
  const resolved = ([] as string[]).concat(JSON.parse(stdout) as string | string[]).at(-1);
  if (resolved !== version) return undefined;
  const folder = join(base, 'prebuilds');
  await mkdir(folder, { recursive: true });
  const name = `better-sqlite3-v${version}-node-v${process.versions.modules}-${process.platform}-${process.arch}.tar.gz`;
  await sh(module, 'tar', ['czf', join(folder, name), 'build/Release/better_sqlite3.node']);
  return folder;
}

async function playwrightVersion(): Promise<string> {
  const pkg = JSON.parse(await readFile(join(REPO, 'node_modules/@playwright/test/package.json'), 'utf8'));
  return (pkg as { version: string }).version;
}

/** A fresh QA project: the example's config, specs and shop, and a package.json of its own. */
async function project(dir: string, type: 'module' | 'commonjs'): Promise<void> {
  await mkdir(dir, { recursive: true });
  for (const part of ['playwright.config.ts', 'tests', 'shop'])
    await cp(join(EXAMPLE, part), join(dir, part), { recursive: true });
  const pkg = { name: `qa-${type}`, version: '1.0.0', private: true, type };
  await writeFile(join(dir, 'package.json'), `${JSON.stringify(pkg, null, 2)}\n`);
}

const exists = (path: string) =>
  stat(path).then(
    () => true,
    () => false,
  );

/**
 * The ES module project installs; the CommonJS one is a folder inside it with a package.json of
 * its own (its `"type"` decides how Playwright compiles its tests), resolving the same
 * node_modules: one install, one compilation of better-sqlite3, instead of two of a few minutes.
 */
let esm: string;
let cjs: string;

beforeAll(async () => {
  const base = await tempFolder('opg-packed-kit-');
  const packing = Date.now();
  const { stdout } = await sh(ROOT, 'npm', ['pack', '--json', '--pack-destination', base]);
  // npm's JSON comes after what prepack's builds printed.
  const json = stdout.slice(stdout.search(/^\[\s*\{/m));
  const [packed] = JSON.parse(json) as [{ filename: string; size: number; entryCount: number }];
  console.log(
    `npm pack: ${packed.filename}, ${packed.size} bytes, ${packed.entryCount} files, ${seconds(packing)}`,
  );

  esm = join(base, 'qa-module');
  cjs = join(esm, 'qa-commonjs');
  await project(esm, 'module');
  await project(cjs, 'commonjs');
  const ours = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')) as {
    dependencies: Record<string, string>;
  };
  const prebuilds = await localPrebuilds(base, ours.dependencies['better-sqlite3'] ?? 'latest');
  const started = Date.now();
  const args = ['install', '--prefer-offline', '--no-audit', '--no-fund', '--save-dev'];
  await sh(
    esm,
    'npm',
    [...args, join(base, packed.filename), `@playwright/test@${await playwrightVersion()}`],
    840_000,
    prebuilds === undefined ? {} : { npm_config_better_sqlite3_local_prebuilds: prebuilds },
  );
  console.log(
    `npm install of the tarball and @playwright/test: ${seconds(started)} (better-sqlite3 ${prebuilds === undefined ? 'compiled from source' : 'from its prebuilt binary'})`,
  );
}, 900_000);

/** The project's own Playwright, as `npx playwright` runs it. */
const playwright = (project: string, ...args: string[]) =>
  sh(project, join(esm, 'node_modules/.bin/playwright'), ['test', ...args]);

describe('the packed QA kit', () => {
  it('installs what a consumer needs and nothing of the development tools', async () => {
    const modules = join(esm, 'node_modules');
    expect(await exists(join(modules, 'open-payment-gateway/dist/testing/index.js'))).toBe(true);
    expect(await exists(join(modules, 'better-sqlite3/build/Release/better_sqlite3.node'))).toBe(true);
    // One @playwright/test, the project's; no build tool of the repository.
    expect(await exists(join(modules, 'open-payment-gateway/node_modules/@playwright'))).toBe(false);
    expect(await exists(join(modules, 'vite'))).toBe(false);
    expect(await exists(join(modules, 'vitest'))).toBe(false);
  });

  it('an ES module project runs the example suite green', async () => {
    const { stdout } = await playwright(esm);
    console.log(stdout.split('\n').slice(-4).join('\n'));
    expect(stdout).toMatch(/\b\d+ passed\b/);
    expect(stdout).not.toMatch(/\bfailed\b/);
  }, 300_000);

  it('a CommonJS project runs a payment flow and the gateway spec green', async () => {
    const { stdout } = await playwright(
      cjs,
      'tests/gateway.spec.ts',
      'tests/shop.spec.ts',
      '--grep',
      'a card payment|options|port|stop',
    );
    console.log(stdout.split('\n').slice(-4).join('\n'));
    expect(stdout).toMatch(/\b\d+ passed\b/);
    expect(stdout).not.toMatch(/\bfailed\b/);
  }, 300_000);

  it('npx open-payment-gateway serves the sandbox and prints its URL and demo credentials', async () => {
    const port = await freePort();
    // Its own process group: npx passes no signal on, so the group (npx, the bin, the gateway) is stopped.
    const child = spawn('npx', ['open-payment-gateway', '--port', String(port)], {
      cwd: esm,
      env: { ...cleanEnv(), DEMO_SHOP_PORT: '0' },
      stdio: ['ignore', 'pipe', 'inherit'],
      detached: true,
    });
    const exited = new Promise((resolve) => child.once('exit', resolve));
    try {
      const demo = await printedCredentials(child);
      expect(demo.url).toBe(`http://127.0.0.1:${port}`);
      const answer = await fetch(`${demo.url}/v1/checkouts`, {
        method: 'POST',
        headers: { authorization: `Bearer ${demo.accessToken}` },
        body: new URLSearchParams({
          entityId: demo.entityId,
          amount: '12.50',
          currency: 'EUR',
          paymentType: 'DB',
        }),
      });
      expect(((await answer.json()) as { result: { code: string } }).result.code).toBe('000.200.100');
    } finally {
      if (child.pid !== undefined) process.kill(-child.pid, 'SIGTERM');
      await exited;
    }
  }, 120_000);
});

interface Printed {
  url?: string;
  entityId?: string;
  accessToken?: string;
}

/** Waits for the sandbox's lines: its URL, then the demo merchant's credentials, then listening. */
function printedCredentials(child: ChildProcess): Promise<Required<Printed>> {
  return new Promise((resolve, reject) => {
    const printed: Printed = {};
    const lines = createInterface({ input: child.stdout! });
    lines.on('line', (line) => {
      printed.url ??= /sandbox on (http:\/\/127\.0\.0\.1:\d+)/.exec(line)?.[1];
      printed.entityId ??= /entityId:\s+(\S+)/.exec(line)?.[1];
      printed.accessToken ??= /accessToken:\s+(\S+)/.exec(line)?.[1];
      const { url, entityId, accessToken } = printed;
      if (line.includes('gateway listening') && url && entityId && accessToken)
        resolve({ url, entityId, accessToken });
    });
    child.once('exit', (code) => reject(new Error(`the sandbox exited with ${code}`)));
  });
}
