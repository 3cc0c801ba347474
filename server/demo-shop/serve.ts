/**
 * Serves the demo shop for `npm start`, when the data folder holds the demo merchant's file.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { serve } from '@hono/node-server';
import { createShop } from './shop';

export async function startDemoShop(
  dataDir: string,
  gatewayUrl: string,
  hostname: string,
  port: number,
): Promise<{ close(): void } | undefined> {
  if (!Number.isInteger(port) || port <= 0) return undefined;
  let demo: { entityId: string; accessToken: string };
  try {
    demo = JSON.parse(await readFile(join(dataDir, 'demo-merchant.json'), 'utf8'));
  } catch {
    return undefined; // no demo merchant (a production data folder): no demo shop
  }
  // localhost rather than 127.0.0.1 in the printed URL: another origin than the gateway's, as a
  // real shop would be, even on one machine.
  const shopHost = hostname === '127.0.0.1' ? 'localhost' : hostname;
  const app = createShop({
    gatewayUrl,
    shopUrl: `http://${shopHost}:${port}`,
    entityId: demo.entityId,
    accessToken: demo.accessToken,
  });
  const server = serve({ fetch: app.fetch, port, hostname }, () =>
    console.log(
      JSON.stringify({
        level: 'info',
        time: new Date().toISOString(),
        msg: 'demo shop listening',
        url: `http://${shopHost}:${port}/`,
      }),
    ),
  );
  // A busy port must not take the gateway down with it: the shop is a convenience.
  server.on('error', (error) =>
    console.log(
      JSON.stringify({
        level: 'warn',
        time: new Date().toISOString(),
        msg: 'demo shop not started',
        error: String(error),
      }),
    ),
  );
  return { close: () => server.close() };
}
