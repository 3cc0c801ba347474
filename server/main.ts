/**
 * `npm start`: serves the gateway on PORT (default 8080), on HOST (default 127.0.0.1, so a
 * development instance is not reachable from the network until its operator says so), with its
 * data in GATEWAY_DATA_DIR (default ./data) or in PostgreSQL when DATABASE_URL is set.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer as createHttpsServer } from 'node:https';
import { serve } from '@hono/node-server';
import { startDemoShop } from './demo-shop/serve';
import { startGateway } from './gateway';

function gitCommit(): string {
  if (process.env.GATEWAY_COMMIT) return process.env.GATEWAY_COMMIT;
  try {
    return execFileSync('git', ['rev-parse', 'HEAD'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
  } catch {
    return '0'.repeat(40);
  }
}

const port = Number(process.env.PORT ?? 8080);
const hostname = process.env.HOST ?? '127.0.0.1';
const cert = process.env.GATEWAY_TLS_CERT;
const key = process.env.GATEWAY_TLS_KEY;
const tls = cert !== undefined && key !== undefined;
const baseUrl = `${tls ? 'https' : 'http'}://${hostname}:${port}`;

const dataDir = process.env.GATEWAY_DATA_DIR ?? './data';
const gateway = await startGateway({
  dataDir,
  ...(process.env.DATABASE_URL ? { databaseUrl: process.env.DATABASE_URL } : {}),
  commit: gitCommit(),
  baseUrl,
});
if (gateway.demo !== undefined) {
  console.log(
    `Demo merchant created (also in ${process.env.GATEWAY_DATA_DIR ?? './data'}/demo-merchant.json):`,
  );
  console.log(`  entityId:    ${gateway.demo.entityId}`);
  console.log(`  accessToken: ${gateway.demo.accessToken}`);
}

const server = serve(
  {
    fetch: gateway.app.fetch,
    port,
    hostname,
    ...(tls
      ? {
          createServer: createHttpsServer,
          serverOptions: { cert: readFileSync(cert), key: readFileSync(key) },
        }
      : {}),
  },
  (info) =>
    console.log(JSON.stringify({ level: 'info', msg: 'gateway listening', url: baseUrl, port: info.port })),
);

// The demo shop beside the gateway, on its own origin (DEMO_SHOP_PORT, default PORT + 1; 0 turns
// it off), paying with the demo merchant's credentials from demo-merchant.json.
const shop = await startDemoShop(dataDir, baseUrl, hostname, Number(process.env.DEMO_SHOP_PORT ?? port + 1));

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    shop?.close();
    server.close(() => {
      void gateway.close().then(() => process.exit(0));
    });
  });
}
