/**
 * The production start path (`npm start`: package.json's start script on the bundle prestart
 * builds): the bundled gateway serves what its modules find next to their sources (the docs
 * assets, the widget's sources on /docs/widget, the renderer from node_modules, the widget build),
 * exactly as `tsx server/main.ts` does.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureWidgetBuilt } from '../../widget/build/ensure';
import { TEST_COMMIT } from '../test-kit/gateway';
import { freePort } from '../test-kit/postgres';
import { PROCESS_DATA_KEY, REPO_ROOT } from '../test-kit/process';
import { bundleServer } from './bundle';
import { startCommand } from './start-command';

describe('npm start on the bundle (dist/server/main.js)', () => {
  const outDir = mkdtempSync(join(REPO_ROOT, 'dist/server-test-'));
  const dataDir = mkdtempSync(join(tmpdir(), 'opg-bundle-'));
  let child: ChildProcess | undefined;
  let base = '';

  beforeAll(async () => {
    await ensureWidgetBuilt();
    const bundle = await bundleServer(join(outDir, 'main.js'));
    const port = await freePort();
    const start = startCommand();
    expect(start.script).toBe('dist/server/main.js');
    const env: NodeJS.ProcessEnv = { ...process.env, ...start.env };
    for (const name of ['DATABASE_URL', 'GATEWAY_TLS_CERT', 'GATEWAY_TLS_KEY', 'NODE_OPTIONS'])
      delete env[name];
    Object.assign(env, {
      PORT: String(port),
      HOST: '127.0.0.1',
      GATEWAY_DATA_DIR: dataDir,
      GATEWAY_DATA_KEY: PROCESS_DATA_KEY,
      GATEWAY_COMMIT: TEST_COMMIT,
      NODE_ENV: 'test',
      // "gateway listening" is an info line of the logger, like every line the start prints
      LOG_LEVEL: 'info',
      DEMO_SHOP_PORT: '0',
    });
    const started = spawn(process.execPath, [...start.nodeArgs, bundle], {
      cwd: REPO_ROOT,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child = started;
    let output = '';
    await new Promise<void>((resolve, reject) => {
      const collect = (chunk: Buffer) => {
        output += chunk.toString('utf8');
        if (output.includes('"gateway listening"')) resolve();
      };
      started.stdout?.on('data', collect);
      started.stderr?.on('data', collect);
      started.once('exit', (code) => reject(new Error(`exited ${code}:\n${output}`)));
    });
    base = `http://127.0.0.1:${port}`;
  }, 120_000);

  afterAll(async () => {
    if (child !== undefined && child.exitCode === null) {
      const exited = new Promise((resolve) => child?.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    rmSync(outDir, { recursive: true, force: true });
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('serves the docs assets found beside their source module', async () => {
    for (const [path, text] of [
      ['/docs/assets/docs.js', 'redoc'],
      ['/docs/assets/docs.css', '{'],
      ['/docs/assets/redoc.standalone.js', 'Redoc'],
    ] as const) {
      const response = await fetch(`${base}${path}`);
      expect(response.status, path).toBe(200);
      expect(await response.text(), path).toContain(text);
    }
  });

  it('renders the widget page from the widget sources', async () => {
    const response = await fetch(`${base}/docs/widget`);
    expect(response.status).toBe(200);
    // The style variables and classes are read from widget/styles/paymentWidgets.css at render time.
    expect(await response.text()).toContain('--wpwl-font-family');
  });

  it('serves the widget build and answers the API', async () => {
    expect(existsSync(join(REPO_ROOT, 'dist/widget'))).toBe(true);
    expect((await fetch(`${base}/v1/paymentWidgets.js`)).status).toBe(200);
    const api = await fetch(`${base}/v1/openapi.json`);
    expect(api.status).toBe(200);
    expect(((await api.json()) as { openapi: string }).openapi).toMatch(/^3\./);
  });
});
