/**
 * The composition root: opens the store and the vault, makes sure a demo merchant exists on an
 * empty store, and builds the app. `npm start` and the tests both start the gateway through here.
 */
import { writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { checkoutNodeName, newId } from '../shared/engine/ids';
import type { Clock, Connector, Store } from '../shared/engine/ports';
import { systemClock } from '../shared/engine/ports';
import { createApp } from './app';
import { oppForwardConnector } from './connectors/opp-forward';
import { buildNumber, timestamp } from './http/envelope';
import { widgetIntegrity } from './http/routes/widget';
import { createLogger, type Logger } from './security/logger';
import { newToken } from './security/tokens';
import { openVault } from './security/vault';
import { walletTokens } from './security/wallet-tokens';
import { openStore } from './storage';
import { DEFAULT_DISPATCH_INTERVAL_MS, webhookDispatcher } from './webhooks/dispatcher';
import { pendingPaymentsWorker } from './workers/pending-payments';
import { DEFAULT_NOTIFY_INTERVAL_MS, shopperResultNotifier } from './workers/shopper-result-notifier';

export interface GatewayOptions {
  readonly dataDir: string;
  readonly databaseUrl?: string;
  readonly commit: string;
  readonly builtAt?: Date;
  readonly clock?: Clock;
  readonly env?: Readonly<Record<string, string | undefined>>;
  readonly logger?: Logger;
  /** Base URL written to demo-merchant.json. */
  readonly baseUrl?: string;
  /** The EXTERNAL connector; HTTP forwarding to another gateway of the family by default. */
  readonly connector?: Connector;
  /** The node part of checkout ids; GATEWAY_NODE_NAME, else the host name (see checkoutNodeName). */
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
}

export interface DemoMerchant {
  readonly merchantId: string;
  readonly entityId: string;
  readonly accessToken: string;
  readonly baseUrl: string;
}

export async function startGateway(options: GatewayOptions) {
  const clock = options.clock ?? systemClock;
  const logger = options.logger ?? createLogger({ env: options.env ?? process.env });
  const store = await openStore({
    dataDir: options.dataDir,
    ...(options.databaseUrl === undefined ? {} : { databaseUrl: options.databaseUrl }),
  });
  const vault = openVault({ dataDir: options.dataDir, env: options.env ?? process.env });
  const demo = await ensureDemoMerchant(
    store,
    clock,
    options.baseUrl ?? 'http://127.0.0.1:8080',
    options.dataDir,
  );
  if (demo !== undefined)
    logger.info('created demo merchant', { entityId: demo.entityId, file: 'demo-merchant.json' });
  const env = options.env ?? process.env;
  const wallets = walletTokens(vault.subkey('wallet-tokens'));
  const builtAt = options.builtAt ?? clock.now();
  const app = createApp(
    { commit: options.commit, builtAt, now: () => clock.now() },
    {
      store,
      clock,
      seal: (plain) => vault.encrypt(plain),
      logger,
      wallets,
      connector: options.connector ?? oppForwardConnector(),
      nodeName: checkoutNodeName(options.nodeName ?? env.GATEWAY_NODE_NAME ?? hostname()),
      integrity: options.integrity ?? (() => widgetIntegrity()),
      ...(env.GATEWAY_PUBLIC_URL ? { publicUrl: env.GATEWAY_PUBLIC_URL } : {}),
      admin: {
        token: env.GATEWAY_ADMIN_TOKEN === '' ? undefined : env.GATEWAY_ADMIN_TOKEN,
        webhooks: store,
        vault,
        ...(options.webhooks?.fetch === undefined ? {} : { fetch: options.webhooks.fetch }),
      },
    },
  );
  const build = buildNumber(options.commit, builtAt);
  const webhooks = webhookDispatcher({
    store,
    clock,
    vault,
    logger,
    envelope: (at) => ({ buildNumber: build, timestamp: timestamp(at) }),
    intervalMs:
      options.webhooks?.intervalMs ??
      positiveNumber(env.GATEWAY_WEBHOOK_INTERVAL_MS) ??
      DEFAULT_DISPATCH_INTERVAL_MS,
    ...(options.webhooks?.fetch === undefined ? {} : { fetch: options.webhooks.fetch }),
    ...(options.webhooks?.timeoutMs === undefined ? {} : { timeoutMs: options.webhooks.timeoutMs }),
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
    ...(options.notifier?.fetch === undefined ? {} : { fetch: options.notifier.fetch }),
  });
  if (options.notifier?.autoStart !== false) notifier.start();
  const pending = pendingPaymentsWorker(
    { store, clock, seal: (plain) => vault.encrypt(plain), wallets },
    {
      intervalMs: options.pending?.intervalMs ?? positiveNumber(env.GATEWAY_PENDING_INTERVAL_MS),
      logger,
    },
  );
  if (options.pending?.autoStart !== false) pending.start();
  // The workers first: a poll in progress still needs the store.
  const close = async () => {
    await notifier.stop();
    await pending.stop();
    await webhooks.stop();
    await store.close();
  };
  return { app, store, vault, demo, notifier, pending, webhooks, close };
}

const positiveNumber = (value: string | undefined): number | undefined => {
  const n = Number(value);
  return value !== undefined && Number.isFinite(n) && n > 0 ? n : undefined;
};

/**
 * On an empty store: a demo merchant with one test channel (3-D Secure on) and an access token,
 * written to `<dataDir>/demo-merchant.json` (mode 0600: it holds a credential) and returned once.
 */
export async function ensureDemoMerchant(
  store: Store,
  clock: Clock,
  baseUrl: string,
  dataDir: string,
): Promise<DemoMerchant | undefined> {
  if ((await store.listMerchants()).length > 0) return undefined;
  const now = clock.now();
  const merchantId = newId();
  const entityId = newId();
  await store.insertMerchant({ id: merchantId, name: 'Demo Merchant', createdAt: now });
  await store.insertChannel({
    id: entityId,
    merchantId,
    name: 'Demo_Test_Channel',
    mode: 'TEST',
    settings: { threeDSecure: true },
    createdAt: now,
  });
  const token = newToken();
  await store.insertToken({
    id: newId(),
    merchantId,
    userId: token.userId,
    secretHash: token.secretHash,
    channelIds: [],
    revokedAt: null,
    createdAt: now,
  });
  const demo = { merchantId, entityId, accessToken: token.token, baseUrl };
  writeFileSync(join(dataDir, 'demo-merchant.json'), `${JSON.stringify(demo, null, 2)}\n`, { mode: 0o600 });
  return demo;
}
