/**
 * `npm start`: serves the gateway on PORT (default 8080), on HOST (default 127.0.0.1, so a
 * development instance is not reachable from the network until its operator says so), with its
 * data in GATEWAY_DATA_DIR (default ./data) or in PostgreSQL when DATABASE_URL is set; HTTPS with
 * GATEWAY_TLS_CERT and GATEWAY_TLS_KEY (PEM files).
 *
 * Two environments, two addresses: PORT serves the test environment (test channels and tokens);
 * GATEWAY_LIVE_PORT, when set, the live one, on GATEWAY_LIVE_HOST (default HOST), always HTTPS:
 * with GATEWAY_LIVE_TLS_CERT and GATEWAY_LIVE_TLS_KEY (else GATEWAY_TLS_CERT and GATEWAY_TLS_KEY),
 * or behind GATEWAY_TRUST_PROXY; it refuses to start otherwise, even on a developer's machine.
 * Shoppers and merchants reach it at GATEWAY_LIVE_PUBLIC_URL. One process, one store, one set of
 * workers for both.
 *
 * Without NODE_ENV=production it is the zero-configuration developer default (its first log line
 * says so): a demo merchant whose token is printed, and the demo shop. With it (server/mode.ts)
 * neither, and it refuses to start without TLS or GATEWAY_TRUST_PROXY, or with a short admin token.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { serve } from '@hono/node-server';
import { startDemoShop } from './demo-shop/serve';
import { startGateway } from './gateway';
import { printBanner } from './lifecycle/banner';
import { reduceMemoryWhenIdle } from './lifecycle/idle-memory';
import {
  connectionLimitsFromEnv,
  limitConnections,
  timeoutOptions,
  tlsServerOptions,
} from './lifecycle/listen';
import { startMetricsFromEnv } from './lifecycle/metrics-address';
import { gracefulShutdown, shutdownTimeout } from './lifecycle/shutdown';
import { flag, isProduction, StartupError } from './mode';
import { createLogger } from './security/logger';
import { VaultError } from './security/vault';
import { StoreInUse } from './storage';

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

const logger = createLogger({ env: process.env });

/** A configuration the gateway will not run with: one clear line, exit code 1, no stack. */
function refuse(message: string): never {
  logger.error(`refusing to start: ${message}`);
  process.exit(1);
}

const port = Number(process.env.PORT ?? 8080);
const hostname = process.env.HOST ?? '127.0.0.1';
const cert = process.env.GATEWAY_TLS_CERT || undefined;
const key = process.env.GATEWAY_TLS_KEY || undefined;
if ((cert === undefined) !== (key === undefined))
  refuse('HTTPS needs both GATEWAY_TLS_CERT and GATEWAY_TLS_KEY (PEM files); only one is set');
const tls = cert !== undefined && key !== undefined;
let tlsFiles: { cert: Buffer; key: Buffer } | undefined;
try {
  tlsFiles = tls ? { cert: readFileSync(cert), key: readFileSync(key) } : undefined;
} catch (error) {
  refuse(`cannot read GATEWAY_TLS_CERT or GATEWAY_TLS_KEY: ${(error as Error).message}`);
}
const baseUrl = `${tls ? 'https' : 'http'}://${hostname}:${port}`;

// The live environment's address (GATEWAY_LIVE_PORT): its own certificate, or the gateway's.
const livePortText = process.env.GATEWAY_LIVE_PORT?.trim() || undefined;
const livePort = livePortText === undefined ? undefined : Number(livePortText);
if (livePort !== undefined && !(Number.isInteger(livePort) && livePort >= 0 && livePort <= 65535))
  refuse(`GATEWAY_LIVE_PORT must be a TCP port, not "${livePortText}"`);
const liveHostname = process.env.GATEWAY_LIVE_HOST || hostname;
const liveCert = process.env.GATEWAY_LIVE_TLS_CERT || undefined;
const liveKey = process.env.GATEWAY_LIVE_TLS_KEY || undefined;
if ((liveCert === undefined) !== (liveKey === undefined))
  refuse(
    'HTTPS on the live address needs both GATEWAY_LIVE_TLS_CERT and GATEWAY_LIVE_TLS_KEY; only one is set',
  );
let liveTlsFiles = tlsFiles;
if (liveCert !== undefined && liveKey !== undefined) {
  try {
    liveTlsFiles = { cert: readFileSync(liveCert), key: readFileSync(liveKey) };
  } catch (error) {
    refuse(`cannot read GATEWAY_LIVE_TLS_CERT or GATEWAY_LIVE_TLS_KEY: ${(error as Error).message}`);
  }
}
const liveBaseUrl =
  livePort === undefined
    ? undefined
    : `${liveTlsFiles === undefined ? 'http' : 'https'}://${liveHostname}:${livePort}`;

const dataDir = process.env.GATEWAY_DATA_DIR ?? './data';
let gateway: Awaited<ReturnType<typeof startGateway>>;
try {
  gateway = await startGateway({
    dataDir,
    ...(process.env.DATABASE_URL ? { databaseUrl: process.env.DATABASE_URL } : {}),
    commit: gitCommit(),
    baseUrl,
    logger,
    production: isProduction(process.env),
    tls,
    ...(liveBaseUrl === undefined ? {} : { live: { baseUrl: liveBaseUrl, tls: liveTlsFiles !== undefined } }),
  });
} catch (error) {
  if (error instanceof StartupError || error instanceof VaultError || error instanceof StoreInUse)
    refuse(error.message);
  throw error;
}
if (['0.0.0.0', '::', '[::]'].includes(hostname) && !process.env.GATEWAY_PUBLIC_URL)
  logger.warn('HOST is a wildcard address: set GATEWAY_PUBLIC_URL to the address shoppers reach', {
    redirectsTo: baseUrl,
  });
// The demo merchant exists only on a developer's machine (never in production): its token is printed there.
if (gateway.demo !== undefined)
  printBanner([
    `Demo merchant created (also in ${process.env.GATEWAY_DATA_DIR ?? './data'}/demo-merchant.json):`,
    `  entityId:    ${gateway.demo.entityId}`,
    `  accessToken: ${gateway.demo.accessToken}`,
  ]);
// The dashboard's demo users, likewise: printed once, kept in demo-users.json (mode 0600).
if (gateway.demoUsers !== undefined && gateway.demoUsers.length > 0)
  printBanner([
    `Demo users for the dashboard at ${baseUrl}/admin/ (also in ${dataDir}/demo-users.json):`,
    ...gateway.demoUsers.map(
      (user) => `  ${user.role.padEnd(15)} ${user.username}  password: ${user.password}`,
    ),
  ]);

// What a connection may hold (lifecycle/listen.ts): modern TLS only, heads and bodies in seconds,
// a cap on connections per client address and in all.
const limits = connectionLimitsFromEnv(process.env, flag(process.env, 'GATEWAY_TRUST_PROXY'));
const serverOptions = (files: { cert: Buffer; key: Buffer } | undefined) =>
  files === undefined
    ? { serverOptions: timeoutOptions(limits) }
    : {
        createServer: createHttpsServer,
        serverOptions: { ...tlsServerOptions(files), ...timeoutOptions(limits) },
      };

const server = serve(
  {
    fetch: gateway.app.fetch,
    port,
    hostname,
    ...serverOptions(tlsFiles),
  },
  (info) => logger.info('gateway listening', { url: baseUrl, port: info.port }),
);

const liveApp = gateway.liveApp;
const liveServer =
  livePort === undefined || liveApp === undefined
    ? undefined
    : serve(
        {
          fetch: liveApp.fetch,
          port: livePort,
          hostname: liveHostname,
          ...serverOptions(liveTlsFiles),
        },
        (info) => logger.info('gateway listening (live environment)', { url: liveBaseUrl, port: info.port }),
      );

limitConnections(server as Server, limits);
if (liveServer !== undefined) limitConnections(liveServer as Server, limits);

// The demo shop beside the gateway, on its own origin (DEMO_SHOP_PORT, default PORT + 1; 0 turns
// it off), paying with the demo merchant's credentials from demo-merchant.json; never in production.
const shop = gateway.production
  ? undefined
  : await startDemoShop(dataDir, baseUrl, hostname, Number(process.env.DEMO_SHOP_PORT ?? port + 1));

// GATEWAY_METRICS_PORT: /metrics, /healthz and /readyz on an address of their own, never the public one.
let metrics: Awaited<ReturnType<typeof startMetricsFromEnv>>;
try {
  metrics = await startMetricsFromEnv(process.env, gateway.ops);
} catch (error) {
  refuse((error as Error).message);
}
if (metrics !== undefined) logger.info('metrics listening', { url: `${metrics.url}/metrics` });

// After a burst of load, once idle: the caches' extra given back, the heap compacted back to what
// is live (lifecycle/idle-memory.ts).
const stopReducingMemory = reduceMemoryWhenIdle({
  release: () =>
    gateway.ops.idle.release((error) =>
      logger.warn('could not release idle memory', { error: String(error) }),
    ),
});

// SIGTERM, SIGINT: stop accepting, answer what is in flight, flush, stop the workers, exit 0 (lifecycle/shutdown.ts).
const shutdown = gracefulShutdown({
  servers: [
    server as Server,
    liveServer as Server | undefined,
    metrics?.server,
    // the demo shop's close takes no callback: it holds nothing to wait for
    shop && {
      close(done?: () => void) {
        shop.close();
        done?.();
      },
    },
  ],
  drain: () => gateway.ops.drain(),
  close: gateway.close,
  logger,
  timeoutMs: shutdownTimeout(process.env),
});
for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.on(signal, () => {
    stopReducingMemory();
    void shutdown(signal);
  });
