/**
 * The world the Playwright flows shop in, as a child process: the real gateway (startGateway,
 * SQLite in a temporary folder, served by @hono/node-server as `npm start` does) on
 * http://127.0.0.1:<port>, the demo shop on http://localhost:<port> (another origin, as a real
 * shop is), and a control port for what a browser cannot do: moving the gateway's clock (expired
 * checkouts) and running the shopperResultUrl worker.
 *
 * It prints one JSON line with the URLs and the demo credentials, then serves until killed.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { createShop } from '../../server/demo-shop/shop';
import { startGateway } from '../../server/gateway';
import { freePort } from '../../server/storage/testing/postgres';

export interface HarnessInfo {
  readonly gatewayUrl: string;
  readonly shopUrl: string;
  readonly controlUrl: string;
  readonly entityId: string;
  readonly accessToken: string;
  readonly dataDir: string;
}

const dataDir = await mkdtemp(join(tmpdir(), 'gateway-e2e-'));
let offsetMs = 0;
const clock = { now: () => new Date(Date.now() + offsetMs) };

const [gatewayPort, shopPort, controlPort] = [await freePort(), await freePort(), await freePort()];
const gatewayUrl = `http://127.0.0.1:${gatewayPort}`;
const gateway = await startGateway({
  dataDir,
  commit: '0'.repeat(40),
  clock,
  baseUrl: gatewayUrl,
  env: { ...process.env, LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn' },
});
if (gateway.demo === undefined) throw new Error('a fresh data folder must get the demo merchant');
const { entityId, accessToken } = gateway.demo;

const servers = [
  serve({ fetch: gateway.app.fetch, port: gatewayPort, hostname: '127.0.0.1' }),
  serve({
    fetch: createShop({ gatewayUrl, entityId, accessToken }).fetch,
    port: shopPort,
    hostname: '127.0.0.1',
  }),
  serve({ fetch: control().fetch, port: controlPort, hostname: '127.0.0.1' }),
];

function control(): Hono {
  const app = new Hono();
  app.post('/clock/advance', (c) => {
    offsetMs += Number(c.req.query('ms') ?? '0');
    return c.json({ offsetMs });
  });
  app.post('/clock/reset', (c) => {
    offsetMs = 0;
    return c.json({ offsetMs });
  });
  return app;
}

const info: HarnessInfo = {
  gatewayUrl,
  shopUrl: `http://localhost:${shopPort}`,
  controlUrl: `http://127.0.0.1:${controlPort}`,
  entityId,
  accessToken,
  dataDir,
};
console.log(JSON.stringify(info));

async function shutdown(): Promise<void> {
  for (const server of servers) server.close();
  await gateway.close();
  await rm(dataDir, { recursive: true, force: true });
  process.exit(0);
}
process.on('SIGTERM', () => void shutdown());
process.on('SIGINT', () => void shutdown());
