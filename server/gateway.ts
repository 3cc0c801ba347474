/**
 * The composition root: opens the store and the vault, makes sure a demo merchant exists on an
 * empty store (not in production), and builds the app. `npm start` and the tests both start the
 * gateway through here. Production (NODE_ENV=production, server/mode.ts) is decided here too,
 * and a configuration it must not run with is refused before anything is opened.
 */
import { existsSync, statSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { checkoutNodeName } from '../shared/engine/core/ids';
import { type Clock, type Connector, systemClock } from '../shared/engine/core/ports';
import { createApp, type GatewayDeps } from './app';
import { ensureDemoMerchant } from './backoffice/merchants/demo-merchant';
import { requestRecorder } from './backoffice/requests/recorder';
import { developerDefaults } from './backoffice/users/demo-users';
import { gatewayTestClock, type TestClockSetting } from './clock/compose';
import { connectorClients } from './connectors';
import { processorEventWorkers } from './connectors/notices/worker';
import { type GatewayEngine, gatewayEngine } from './engine-deps';
import { buildNumber, timestamp } from './http/middleware/envelope';
import { createThrottle } from './http/middleware/throttle';
import { widgetIntegrity } from './http/routes/widget';
import { folderWritable, postgresWritable } from './lifecycle/health';
import { type GatewayMetrics, type Instrumentation, instrumentation } from './lifecycle/instrumentation';
import { connectorStateMetric } from './metrics/connector-state';
import {
  adminToken,
  checkLiveTransport,
  checkProductionTransport,
  DEVELOPER_MODE_MESSAGE,
  dataKeyWarning,
  disclosedIdentity,
  flag,
  isProduction,
  publicUrl,
} from './mode';
import { gatewayProcessors } from './processors';
import { startReconciliationFtp } from './reporting/delivery';
import { isLoopback, type RunningFtpServer } from './reporting/ftp';
import type { ContractOf } from './reporting/settlement-run';
import { type SettlementWorkerOptions, settlementWorker } from './reporting/settlement-run/worker';
import { createAuthFailures } from './security/auth-failures';
import { type EgressOptions, egressOptionsFromEnv, egressPolicy } from './security/egress';
import { positiveNumber } from './security/env-number';
import { createLogger, type Logger } from './security/logger';
import { openVault } from './security/vault';
import type { GatewayStore } from './storage';
import { isPostgresUrl } from './storage/open';
import { DEFAULT_DISPATCH_INTERVAL_MS, webhookDispatcher } from './webhooks/dispatcher';
import { pendingPaymentsWorker } from './workers/pending-payments';
import { schedulerWorker } from './workers/scheduler';
import { DEFAULT_NOTIFY_INTERVAL_MS, shopperResultNotifier } from './workers/shopper-result-notifier';

export interface GatewayOptions {
  readonly dataDir: string;
  readonly databaseUrl?: string;
  /**
   * SQLite: false lets this gateway open a folder another gateway of this process serves (tests
   * reading past the caches through a second gateway); a served folder is otherwise refused
   * (storage/core/folder-lock.ts). No setting of the environment reaches it.
   */
  readonly lockStoreFolder?: boolean;
  readonly commit: string;
  readonly builtAt?: Date;
  readonly clock?: Clock;
  readonly env?: Readonly<Record<string, string | undefined>>;
  readonly logger?: Logger;
  /**
   * The listening address (`http(s)://HOST:PORT`): written to demo-merchant.json, and the base of
   * the URLs the gateway hands out (redirect.url) unless GATEWAY_PUBLIC_URL says otherwise.
   */
  readonly baseUrl?: string;
  /**
   * Production: no demo merchant, plain HTTP refused, simulator endpoints that change data need
   * credentials, GATEWAY_PUBLIC_URL must be https. Default: NODE_ENV=production (server/mode.ts).
   */
  readonly production?: boolean;
  /** The listener serves TLS itself (main.ts: GATEWAY_TLS_CERT and GATEWAY_TLS_KEY). */
  readonly tls?: boolean;
  /**
   * The live environment's address (main.ts: GATEWAY_LIVE_PORT on GATEWAY_LIVE_HOST): given, a
   * second app (`liveApp`) serves the live channels and tokens there. It must serve TLS itself
   * (`tls`: GATEWAY_LIVE_TLS_CERT/KEY or GATEWAY_TLS_CERT/KEY) or be behind a trusted proxy, or
   * the gateway refuses to start, in every mode. Its URLs are built on GATEWAY_LIVE_PUBLIC_URL,
   * else on `baseUrl`. Without it live channels have no address.
   */
  readonly live?: { readonly baseUrl?: string; readonly tls?: boolean };
  /**
   * A proxy in front terminates TLS and is trusted for X-Forwarded-Proto and X-Forwarded-For
   * (last hop). Default: GATEWAY_TRUST_PROXY (1/true/yes/on).
   */
  readonly trustProxy?: boolean;
  /** The EXTERNAL connector; HTTP forwarding to another gateway of the family by default. */
  readonly connector?: Connector;
  /**
   * The node part of checkout ids; GATEWAY_NODE_NAME, else the host name (in production a name
   * keyed from it: server/mode.ts disclosedIdentity; see checkoutNodeName).
   */
  readonly nodeName?: string;
  /** The widget script's SRI hash for checkouts created with integrity=true (the widget build). */
  readonly integrity?: () => string | undefined;
  /** The shopperResultUrl notifier: its HTTP client, and its poll interval (GATEWAY_NOTIFY_INTERVAL_MS). */
  readonly notifier?: {
    readonly fetch?: typeof fetch;
    readonly intervalMs?: number;
    /** false: built but not polling on its own (tests call runOnce). */
    readonly autoStart?: boolean;
  };
  /**
   * The webhook dispatcher (GATEWAY_WEBHOOK_INTERVAL_MS) and the admin API's test notification:
   * their HTTP client, poll interval and delivery timeout (30 s).
   */
  readonly webhooks?: {
    readonly fetch?: typeof fetch;
    readonly intervalMs?: number;
    readonly timeoutMs?: number;
    /** false: built but not polling on its own (tests call runOnce). */
    readonly autoStart?: boolean;
  };
  /** The pending-payments worker (timeouts, decoupled answers): GATEWAY_PENDING_INTERVAL_MS. */
  readonly pending?: {
    readonly intervalMs?: number;
    /** false: built but not polling on its own (tests call runOnce). */
    readonly autoStart?: boolean;
  };
  /**
   * The scheduler of scheduled payments: GATEWAY_SCHEDULER_INTERVAL_MS, and how late a missed
   * run may still be made (GATEWAY_SCHEDULER_GRACE_MS, 24 h).
   */
  readonly scheduler?: {
    readonly intervalMs?: number;
    readonly graceMs?: number;
    /** false: built but not polling on its own (tests call runOnce). */
    readonly autoStart?: boolean;
  };
  /**
   * The daily settlement run (server/reporting/settlement-run/): GATEWAY_SETTLEMENT_INTERVAL_MS,
   * the cut-off and per-channel configuration; `autoStart: false` for tests (runOnce, settleDay).
   */
  readonly settlement?: SettlementWorkerOptions & { readonly autoStart?: boolean };
  /**
   * The FTP(S) server of the reconciliation files: started when a port is given here or in
   * GATEWAY_FTP_PORT (0: any free port), on GATEWAY_FTP_HOST (127.0.0.1), FTPS with
   * GATEWAY_FTP_CERT and GATEWAY_FTP_KEY; `autoStart: false` keeps it off.
   */
  readonly ftp?: { readonly port?: number; readonly host?: string; readonly autoStart?: boolean };
  /**
   * Where outbound calls to merchant- and operator-supplied URLs may go (server/security/egress.ts):
   * `production` (NODE_ENV=production: loopback refused too), `allow` (GATEWAY_CALLBACK_ALLOW) and
   * the resolver; what is given here wins over the environment. The default fetch of the notifier,
   * the webhooks and the connector goes through it; a fetch injected above does not.
   */
  readonly egress?: Partial<EgressOptions>;
  /**
   * The test clock (server/clock/): true, or `{frozen, start}`; GATEWAY_TEST_CLOCK (on, frozen)
   * when absent. Refused in production and while a live channel exists.
   */
  readonly testClock?: TestClockSetting;
  /** The metrics the seams feed (server/metrics); a registry of its own by default. */
  readonly metrics?: GatewayMetrics;
}

export async function startGateway(options: GatewayOptions) {
  const env = options.env ?? process.env;
  const logger = options.logger ?? createLogger({ env });
  // Settings it must not run with are refused before anything is opened or written.
  const settings = checkedSettings(options, env);
  const { production, tls, trustProxy, operatorToken, configuredUrl, liveUrl } = settings;
  const testing = gatewayTestClock(options.testClock, env, production, options.clock ?? systemClock);
  const clock = testing?.clock ?? options.clock ?? systemClock;
  logStartup(logger, options, settings);
  // Real time (a fake one in tests), never the test clock: moving it must not touch accounts.
  const realTime = options.clock ?? systemClock;
  const authFailures = createAuthFailures({ now: () => realTime.now().getTime() });
  const egress = egressPolicy(egressOptionsFromEnv(env, { production, ...options.egress }));
  const vault = openVault({ dataDir: options.dataDir, env });
  const processors = gatewayProcessors(...connectorClients(options.connector, env, egress.fetch));
  const ops = instrumentation(options.metrics);
  connectorStateMetric(ops.metrics.registry, processors.breaker, clock); // routed connectors' circuits
  const store = await ops.openStore({
    dataDir: options.dataDir,
    ...(options.lockStoreFolder === false ? { lockFolder: false } : {}),
    ...(options.databaseUrl === undefined ? {} : { databaseUrl: options.databaseUrl }),
    vault,
    // SQLite's checkpointer thread stops once the gateway is idle (storage/core/checkpointer.ts).
    idle: ops.idle,
  });
  processors.recordAttemptsIn(store); // routed payments' connector attempts
  processors.openCardsWith((sealed) => vault.decrypt(sealed)); // repeats moved to another connector
  await testing?.check(store, logger);
  const listening = options.baseUrl ?? 'http://127.0.0.1:8080';
  const { demo, demoUsers } = await developerDefaults(
    { store, clock, dataDir: options.dataDir, production, logger },
    () => ensureDemoMerchant(store, clock, listening, options.dataDir),
  );
  warnIfShared(options.dataDir, logger);
  // built once: the apps and the workers decide with the same engine dependencies
  const engine = gatewayEngine({ store, clock, vault, processors });
  const builtAt = options.builtAt ?? clock.now();
  // production tells neither the commit nor the host name (server/mode.ts)
  const identity = identityOf(options, env, production, vault);
  const appOptions = { commit: identity.commit, builtAt, now: () => clock.now() };
  const requests = recentRequests(store, ops.metrics, logger);
  const deps: GatewayDeps = {
    ...engine,
    recordRequest: (entry) => requests.record(entry),
    unseal: (sealed) => vault.decrypt(sealed),
    logger,
    nodeName: checkoutNodeName(identity.nodeName),
    integrity: options.integrity ?? (() => widgetIntegrity()),
    ...publicAddresses(configuredUrl ?? listening, options.live && (liveUrl ?? options.live.baseUrl ?? '')),
    production,
    tls,
    trustProxy,
    authFailures,
    egress,
    admin: {
      token: operatorToken,
      webhooks: store,
      vault,
      egress,
      fetch: options.webhooks?.fetch ?? egress.fetch,
      inbox: store,
      // a settlement run by hand writes its reconciliation files here (routes/admin/operations.ts)
      dataDir: options.dataDir,
      contractOf: processors.contractOf,
      clock: testing?.control(store, logger, options.settlement?.cutoffMs),
      realTime, // sessions, TOTP and failed logins keep real time
      requireTotp: env.GATEWAY_ADMIN_REQUIRE_TOTP === 'on',
    },
    // one throttle for both environments: its keys hold the channel and its mode
    throttle: createThrottle(),
    metrics: ops.metrics,
    readiness: ops.readiness(store, writeProbe(options)),
    idle: ops.idle,
  };
  const { app, liveApp } = createApps(options, appOptions, deps, liveUrl);
  const workers = startWorkers(
    { ...options, commit: identity.commit },
    env,
    { engine, vault, logger, egress, ops, contractOf: processors.contractOf },
    builtAt,
  );
  testing?.attach(workers, options);
  let ftp: RunningFtpServer | undefined;
  try {
    ftp = await startFtp(options, env, { store, authFailures, logger });
  } catch (error) {
    await Promise.all(Object.values(workers).map((worker) => worker.stop()));
    await store.close();
    throw error;
  }
  // The workers first: a poll in progress still needs the store.
  const close = async () => {
    ops.drain();
    for (const worker of Object.values(workers)) await worker.stop();
    await ftp?.close();
    await requests.drain();
    await store.close();
  };
  return { app, liveApp, store, vault, demo, demoUsers, production, clock, ...workers, ftp, ops, close };
}

/** The recent API requests: queued by the access log, written in batches off the request's path. */
const recentRequests = (store: GatewayStore, metrics: GatewayMetrics, logger: Logger) =>
  requestRecorder(store, {
    dropped: () => metrics.apiRequestsDropped.inc(),
    failed: (error) => logger.warn('recent API requests not recorded', { error }),
  });

/** readyz's write probe: the SQLite folder asked for space (a full disk: not ready), PostgreSQL for a committed write. */
const writeProbe = (options: GatewayOptions) =>
  isPostgresUrl(options.databaseUrl)
    ? postgresWritable(options.databaseUrl ?? '')
    : folderWritable(options.dataDir);

/** The commit and node name the answers tell (server/mode.ts disclosedIdentity). */
const identityOf = (
  options: GatewayOptions,
  env: Readonly<Record<string, string | undefined>>,
  production: boolean,
  vault: ReturnType<typeof openVault>,
) =>
  disclosedIdentity({
    production,
    commit: options.commit,
    nodeName: options.nodeName ?? env.GATEWAY_NODE_NAME,
    hostname: hostname(),
    key: vault.subkey,
  });

/** The test environment's app, and the live one's when it has an address: the same store, workers and throttle. */
function createApps(
  options: GatewayOptions,
  appOptions: Parameters<typeof createApp>[0],
  deps: GatewayDeps,
  liveUrl: string | undefined,
) {
  const app = createApp(appOptions, { ...deps, environment: 'test' });
  // The live environment: its own address and transport.
  const liveApp =
    options.live === undefined
      ? undefined
      : createApp(appOptions, {
          ...deps,
          environment: 'live',
          publicUrl: liveUrl ?? options.live.baseUrl ?? '',
          tls: options.live.tls ?? false,
        });
  return { app, liveApp };
}

/** The settings the gateway runs with; those it must not run with are refused before anything is opened. */
function checkedSettings(options: GatewayOptions, env: Readonly<Record<string, string | undefined>>) {
  const production = options.production ?? isProduction(env);
  const tls = options.tls ?? false;
  const trustProxy = options.trustProxy ?? flag(env, 'GATEWAY_TRUST_PROXY');
  checkProductionTransport(production, tls, trustProxy);
  if (options.live !== undefined) checkLiveTransport(options.live.tls ?? false, trustProxy);
  const operatorToken = adminToken(env, production);
  const configuredUrl = publicUrl(env, production);
  const liveUrl = publicUrl(env, production, 'GATEWAY_LIVE_PUBLIC_URL');
  return { production, tls, trustProxy, operatorToken, configuredUrl, liveUrl };
}

/** The first log lines: production mode and what it lacks, or the developer default's warning. */
function logStartup(
  logger: Logger,
  options: GatewayOptions,
  at: {
    production: boolean;
    tls: boolean;
    trustProxy: boolean;
    configuredUrl: string | undefined;
    liveUrl: string | undefined;
  },
): void {
  const { production, tls, trustProxy, configuredUrl, liveUrl } = at;
  if (production) {
    logger.info('production mode', { tls, trustProxy });
    const keyBeside = dataKeyWarning({ ...(options.env ?? process.env), NODE_ENV: 'production' }, options);
    if (keyBeside !== undefined) logger.warn(keyBeside);
    if (existsSync(join(options.dataDir, 'demo-merchant.json')))
      logger.warn(
        'this data folder was used on a developer machine: its demo merchant has a printed token; ' +
          'revoke it (gateway token list / gateway token revoke) and delete demo-merchant.json',
        { file: join(options.dataDir, 'demo-merchant.json') },
      );
    if (configuredUrl === undefined)
      logger.warn('GATEWAY_PUBLIC_URL is not set: redirect URLs use the listening address', {
        baseUrl: options.baseUrl,
      });
  } else logger.warn(DEVELOPER_MODE_MESSAGE);
  if (options.live !== undefined && liveUrl === undefined && production)
    logger.warn('GATEWAY_LIVE_PUBLIC_URL is not set: live redirect URLs use the live listening address', {
      baseUrl: options.live.baseUrl,
    });
}

/** The workers (webhooks, shopperResultUrl notifier, pending payments, scheduler, settlement), started unless told not to. */
function startWorkers(
  options: GatewayOptions,
  env: Readonly<Record<string, string | undefined>>,
  parts: {
    engine: GatewayEngine;
    vault: ReturnType<typeof openVault>;
    logger: Logger;
    egress: ReturnType<typeof egressPolicy>;
    ops: Instrumentation;
    /** Connector channels settle from their processors' records (server/reporting/settlement-run). */
    contractOf: ContractOf;
  },
  builtAt: Date,
) {
  const { engine, vault, logger, egress } = parts;
  const { store, clock } = engine;
  const build = buildNumber(options.commit, builtAt);
  // 30 s by default (decisions); GATEWAY_WEBHOOK_TIMEOUT_MS for tests that kill a dispatcher mid-delivery.
  const webhookTimeoutMs = options.webhooks?.timeoutMs ?? positiveNumber(env.GATEWAY_WEBHOOK_TIMEOUT_MS);
  const webhooks = webhookDispatcher({
    store,
    clock,
    vault,
    logger,
    inbox: store,
    envelope: (at) => ({ buildNumber: build, timestamp: timestamp(at) }),
    intervalMs:
      options.webhooks?.intervalMs ??
      positiveNumber(env.GATEWAY_WEBHOOK_INTERVAL_MS) ??
      DEFAULT_DISPATCH_INTERVAL_MS,
    fetch: options.webhooks?.fetch ?? egress.fetch,
    observe: parts.ops.observeDeliveries,
    ...(webhookTimeoutMs === undefined ? {} : { timeoutMs: webhookTimeoutMs }),
  });
  if (options.webhooks?.autoStart !== false) webhooks.start();
  const notifier = shopperResultNotifier({
    store,
    clock,
    logger,
    intervalMs:
      options.notifier?.intervalMs ??
      positiveNumber(env.GATEWAY_NOTIFY_INTERVAL_MS) ??
      DEFAULT_NOTIFY_INTERVAL_MS,
    fetch: options.notifier?.fetch ?? egress.fetch,
  });
  if (options.notifier?.autoStart !== false) notifier.start();
  const pending = pendingPaymentsWorker(engine, {
    intervalMs: options.pending?.intervalMs ?? positiveNumber(env.GATEWAY_PENDING_INTERVAL_MS),
    logger,
  });
  if (options.pending?.autoStart !== false) pending.start();
  // scheduled payments are screened like any other, velocity history included
  const scheduler = schedulerWorker(engine, {
    intervalMs: options.scheduler?.intervalMs ?? positiveNumber(env.GATEWAY_SCHEDULER_INTERVAL_MS),
    graceMs: options.scheduler?.graceMs ?? positiveNumber(env.GATEWAY_SCHEDULER_GRACE_MS),
    logger,
  });
  if (options.scheduler?.autoStart !== false) scheduler.start();
  const { autoStart: settleOnClock, ...settlementOptions } = options.settlement ?? {};
  const settlement = settlementWorker(
    { store, clock, dataDir: options.dataDir, logger, contractOf: parts.contractOf },
    {
      ...settlementOptions,
      intervalMs: settlementOptions.intervalMs ?? positiveNumber(env.GATEWAY_SETTLEMENT_INTERVAL_MS),
    },
  );
  if (settleOnClock !== false) settlement.start();
  parts.ops.watch({ webhooks, notifier, pending, scheduler, settlement });
  // processors' notifications that came before their payment; processor_events past the retry windows
  const { notices, retention } = processorEventWorkers(engine, env, logger);
  // in the order they stop
  return { notifier, pending, scheduler, webhooks, settlement, notices, retention };
}

/** The reconciliation files' FTP(S) server, when GATEWAY_FTP_PORT (or options.ftp) asks for it. */
async function startFtp(
  options: GatewayOptions,
  env: Readonly<Record<string, string | undefined>>,
  parts: {
    store: GatewayStore;
    authFailures: ReturnType<typeof createAuthFailures>;
    logger: Logger;
  },
): Promise<RunningFtpServer | undefined> {
  const { store, authFailures, logger } = parts;
  const ftpPort = options.ftp?.port ?? port(env.GATEWAY_FTP_PORT);
  if (ftpPort === undefined || options.ftp?.autoStart === false) return undefined;
  const ftpHost = options.ftp?.host ?? (env.GATEWAY_FTP_HOST || '127.0.0.1');
  if (!env.GATEWAY_FTP_CERT && !isLoopback(ftpHost))
    logger.warn(
      'FTP without TLS accepts logins from this machine only: set GATEWAY_FTP_CERT and GATEWAY_FTP_KEY',
      {
        host: ftpHost,
      },
    );
  return await startReconciliationFtp({
    store,
    dataDir: options.dataDir,
    host: ftpHost,
    port: ftpPort,
    ...(env.GATEWAY_FTP_CERT ? { certFile: env.GATEWAY_FTP_CERT } : {}),
    ...(env.GATEWAY_FTP_KEY ? { keyFile: env.GATEWAY_FTP_KEY } : {}),
    authFailures,
    logger,
  });
}

/** A TCP port from the environment (0: any free one); undefined when unset or not a port. */
const port = (value: string | undefined): number | undefined => {
  const n = Number(value);
  return value !== undefined && value !== '' && Number.isInteger(n) && n >= 0 && n <= 65535 ? n : undefined;
};

/** The test app's public address, and both environments' (the `servers` of /v1/openapi.json). */
function publicAddresses(
  test: string,
  live: string | undefined,
): Pick<GatewayDeps, 'publicUrl' | 'addresses'> {
  return { publicUrl: test, addresses: { test, ...(live === undefined ? {} : { live }) } };
}

/** A warning when the data folder is open to group or others (database, key file, reconciliation files). */
function warnIfShared(dataDir: string, logger: Logger): void {
  if (process.platform === 'win32') return;
  try {
    const mode = statSync(dataDir).mode & 0o777;
    if ((mode & 0o077) !== 0)
      logger.warn('the data folder is accessible by group or others', {
        dataDir,
        mode: mode.toString(8).padStart(4, '0'),
        fix: `chmod 700 ${dataDir}`,
      });
  } catch {}
}
