/**
 * A gateway for HTTP-level tests: `startGateway` on a fresh temporary data folder (SQLite there,
 * or PostgreSQL with `databaseUrl`), a fixed data key, a silent logger, and helpers that send
 * form-encoded requests through Hono's in-process `app.request` (no sockets). `close()` shuts the
 * store and keeps the folder (a restart on the same data); `cleanup()` also deletes the folder.
 * Whatever a test leaves (a gateway still open, a folder only closed) is cleaned up at the end of
 * its test file (temp-folders.ts).
 */
import { readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';
import { newId } from '../../shared/engine/core/ids';
import type { ChannelMode, ChannelSettings, Environment } from '../../shared/engine/core/model';
import type { Clock, Connector } from '../../shared/engine/core/ports';
import { createApp } from '../app';
import { type GatewayOptions, startGateway } from '../gateway';
import { createLogger, type Logger } from '../security/logger';
import { newToken } from '../security/tokens';
import { SQLITE_FILE } from '../storage/open';
import { atFileEnd, tempFolder } from './temp-folders';

/** 64 hex characters: a fixed data key, so no key file is generated in the data folder. */
export const TEST_DATA_KEY = '0f1e2d3c4b5a69788796a5b4c3d2e1f00112233445566778899aabbccddeeff0';
export const TEST_COMMIT = 'a89317e58e01406de09ff75de6c962f2365f66e9';
export const TEST_BUILT_AT = new Date('2026-11-21T10:00:00Z');

export interface TestGatewayOptions {
  /** A `postgres://` URL selects PostgreSQL; SQLite in the temporary folder otherwise. */
  readonly databaseUrl?: string;
  readonly clock?: Clock;
  /** Extra environment; `GATEWAY_DATA_KEY` and `LOG_LEVEL=silent` are set unless given here. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /**
   * `startGateway` cannot set the body limit, so with this option the helper builds the app
   * itself through `createApp`, on the gateway's store and vault, with this `maxBodyBytes`.
   */
  readonly maxBodyBytes?: number;
  /** The EXTERNAL connector (e.g. forwarding into another in-process gateway). */
  readonly connector?: Connector;
  /** An existing data folder (a restart on the same data); a fresh temporary one otherwise. */
  readonly dataDir?: string;
  /**
   * A second gateway on a folder another gateway of this test serves (`dataDir`), to read past
   * its caches: passed to startGateway as `lockStoreFolder: false`.
   */
  readonly beside?: true;
  /** Passed to startGateway: the shopperResultUrl notifier's fetch, interval, autoStart. */
  readonly notifier?: GatewayOptions['notifier'];
  /** Passed to startGateway: the pending-payments worker's interval, autoStart. */
  readonly pending?: GatewayOptions['pending'];
  /** Passed to startGateway: the scheduler's interval, grace, autoStart. */
  readonly scheduler?: GatewayOptions['scheduler'];
  /** Passed to startGateway: the settlement run's interval, cut-off, configuration, autoStart. */
  readonly settlement?: GatewayOptions['settlement'];
  /** Passed to startGateway: the reconciliation FTP server's port (0: any free one), host, autoStart. */
  readonly ftp?: GatewayOptions['ftp'];
  /** Passed to startGateway: the webhook dispatcher's fetch, interval, timeout, autoStart. */
  readonly webhooks?: GatewayOptions['webhooks'];
  readonly nodeName?: string;
  readonly integrity?: () => string | undefined;
  /** Passed to startGateway: the egress policy's mode, allow-list and resolver (server/security/egress.ts). */
  readonly egress?: GatewayOptions['egress'];
  /** The gateway's logger (a capture, to search what is logged); silent otherwise. */
  readonly logger?: Logger;
  /** Passed to startGateway: the test clock (server/clock/), moved through the admin API. */
  readonly testClock?: GatewayOptions['testClock'];
}

/** testGateway options: the pending-payments worker and the shopperResultUrl notifier not started. */
export const WORKERS_STOPPED = {
  pending: { autoStart: false },
  notifier: { autoStart: false },
} as const satisfies TestGatewayOptions;

export interface SendOptions {
  /** Sent as `Authorization: Bearer <token>`. */
  readonly token?: string;
  /** Extra headers; they win over the Authorization set from `token`. */
  readonly headers?: Readonly<Record<string, string>>;
}

export interface TestResponse {
  readonly status: number;
  readonly headers: Headers;
  /** The parsed JSON body (undefined when the body is not JSON). */
  // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary response fields
  readonly body: any;
  /** The raw response text, to search for things that must not be there. */
  readonly text: string;
}

export interface AddMerchantOptions {
  /** How many channels (entityIds) the merchant gets; at least 1. */
  readonly channels: number;
  readonly mode?: ChannelMode;
  readonly throttlePerMinute?: number;
  /** Further settings for every channel (connector, threeDSecure …). */
  readonly settings?: ChannelSettings;
  /** Indexes into the new channels the token is restricted to; all of the merchant's when omitted. */
  readonly tokenChannels?: readonly number[];
}

export interface TestMerchant {
  readonly merchantId: string;
  /** Channel ids (entityIds), in creation order. */
  readonly entityIds: readonly string[];
  /** The first channel. */
  readonly entityId: string;
  readonly tokenId: string;
  /** What goes after `Bearer`. */
  readonly token: string;
  /** The two halves of the token, for the legacy `authentication.*` parameters. */
  readonly userId: string;
  readonly secret: string;
}

const BASE = 'http://localhost';
/** The live environment's address in process: always HTTPS (the live app serves TLS "itself"). */
export const LIVE_BASE = 'https://live.localhost';

/** Form-encodes a record (URLSearchParams) or passes a string through as it is. */
export const form = (params: Record<string, string> | string): string =>
  typeof params === 'string' ? params : new URLSearchParams(params).toString();

export async function testGateway(options: TestGatewayOptions = {}) {
  // A folder the kit makes is deleted at the end of the test file at the latest (tempFolder); one
  // the test gives is the test's.
  const dataDir = options.dataDir ?? (await tempFolder('gateway-http-'));
  const env = { GATEWAY_DATA_KEY: TEST_DATA_KEY, LOG_LEVEL: 'silent', ...options.env };
  let gateway: Awaited<ReturnType<typeof startGateway>>;
  try {
    gateway = await startGateway({
      dataDir,
      // The requests' origin: the base of the URLs the gateway hands out (redirect.url).
      baseUrl: BASE,
      // the live environment beside it, on its own address (gw.live)
      live: { baseUrl: LIVE_BASE, tls: true },
      commit: TEST_COMMIT,
      builtAt: TEST_BUILT_AT,
      env,
      ...(options.clock === undefined ? {} : { clock: options.clock }),
      ...(options.databaseUrl === undefined ? {} : { databaseUrl: options.databaseUrl }),
      ...(options.connector === undefined ? {} : { connector: options.connector }),
      ...(options.notifier === undefined ? {} : { notifier: options.notifier }),
      ...(options.pending === undefined ? {} : { pending: options.pending }),
      ...(options.scheduler === undefined ? {} : { scheduler: options.scheduler }),
      ...(options.settlement === undefined ? {} : { settlement: options.settlement }),
      ...(options.ftp === undefined ? {} : { ftp: options.ftp }),
      ...(options.webhooks === undefined ? {} : { webhooks: options.webhooks }),
      ...(options.nodeName === undefined ? {} : { nodeName: options.nodeName }),
      ...(options.integrity === undefined ? {} : { integrity: options.integrity }),
      ...(options.egress === undefined ? {} : { egress: options.egress }),
      ...(options.logger === undefined ? {} : { logger: options.logger }),
      ...(options.testClock === undefined ? {} : { testClock: options.testClock }),
      ...(options.beside === true ? { lockStoreFolder: false } : {}),
    });
  } catch (error) {
    if (options.dataDir === undefined) await rm(dataDir, { recursive: true, force: true });
    throw error;
  }
  // Closed at the end of the test file if the test does not close it (before its folder goes).
  const forget = atFileEnd(() => close());
  // the gateway's own clock: the one given, its test clock, or real time
  const clock = gateway.clock;
  const vault = gateway.vault;
  const app =
    options.maxBodyBytes === undefined
      ? gateway.app
      : createApp(
          { commit: TEST_COMMIT, builtAt: TEST_BUILT_AT, now: () => clock.now() },
          {
            store: gateway.store,
            clock,
            seal: (plain) => vault.encrypt(plain),
            unseal: (sealed) => vault.decrypt(sealed),
            logger: createLogger({ env }),
            maxBodyBytes: options.maxBodyBytes,
            publicUrl: BASE,
          },
        );

  /** Sends one request in process. `path` may start with `//`: it is appended to the base as it is. */
  const send = (
    method: string,
    path: string,
    body: string | undefined,
    opts: SendOptions = {},
  ): Promise<TestResponse> => sendTo(app, BASE, method, path, body, opts);

  async function sendTo(
    target: { request: (url: string, init: RequestInit) => Response | Promise<Response> },
    base: string,
    method: string,
    path: string,
    body: string | undefined,
    opts: SendOptions = {},
  ): Promise<TestResponse> {
    const headers: Record<string, string> = {};
    if (opts.token !== undefined) headers.Authorization = `Bearer ${opts.token}`;
    if (body !== undefined) headers['Content-Type'] = 'application/x-www-form-urlencoded';
    Object.assign(headers, opts.headers);
    const url = path.startsWith('/') ? `${base}${path}` : path;
    // A GET or HEAD may carry no body at all in fetch's Request, not even an empty one.
    const sendBody = body !== undefined && !(body === '' && (method === 'GET' || method === 'HEAD'));
    const res = await target.request(url, { method, headers, ...(sendBody ? { body } : {}) });
    const text = await res.text();
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    return { status: res.status, headers: res.headers, body: parsed, text };
  }

  const post = (
    path: string,
    params: Record<string, string> | string,
    opts?: SendOptions,
  ): Promise<TestResponse> => send('POST', path, form(params), opts);

  /** GET with the parameters in the query string (none: no `?`). */
  const get = (
    path: string,
    params: Record<string, string> | string = {},
    opts?: SendOptions,
  ): Promise<TestResponse> => {
    const query = form(params);
    return send(
      'GET',
      query === '' ? path : `${path}${path.includes('?') ? '&' : '?'}${query}`,
      undefined,
      opts,
    );
  };

  /** The live environment's address (GATEWAY_LIVE_PORT), in process: its own app on the same store. */
  const liveApp = gateway.liveApp!;
  const liveSend = (
    method: string,
    path: string,
    body: string | undefined,
    opts: SendOptions = {},
  ): Promise<TestResponse> => sendTo(liveApp, LIVE_BASE, method, path, body, opts);
  const live = {
    app: liveApp,
    send: liveSend,
    post: (path: string, params: Record<string, string> | string, opts?: SendOptions) =>
      liveSend('POST', path, form(params), opts),
    get: (path: string, params: Record<string, string> | string = {}, opts?: SendOptions) => {
      const query = form(params);
      return liveSend(
        'GET',
        query === '' ? path : `${path}${path.includes('?') ? '&' : '?'}${query}`,
        undefined,
        opts,
      );
    },
  };

  async function addMerchant(o: AddMerchantOptions): Promise<TestMerchant> {
    const now = clock.now();
    const merchantId = newId();
    await gateway.store.insertMerchant({
      id: merchantId,
      name: `Test Merchant ${merchantId.slice(0, 6)}`,
      createdAt: now,
    });
    const entityIds: string[] = [];
    for (let i = 0; i < Math.max(1, o.channels); i++) {
      const id = newId();
      await gateway.store.insertChannel({
        id,
        merchantId,
        name: `Test_Channel_${i + 1}`,
        mode: o.mode ?? 'TEST',
        settings: {
          ...o.settings,
          ...(o.throttlePerMinute === undefined ? {} : { throttlePerMinute: o.throttlePerMinute }),
        },
        createdAt: now,
      });
      entityIds.push(id);
    }
    const token = await addToken(
      merchantId,
      (o.tokenChannels ?? []).map((i) => entityIds[i]!),
      o.mode === 'LIVE' ? 'live' : 'test',
    );
    return { merchantId, entityIds, entityId: entityIds[0]!, ...token };
  }

  /**
   * Another access token for a merchant, optionally restricted to some of its channels, of one
   * environment (test unless given).
   */
  async function addToken(
    merchantId: string,
    channelIds: readonly string[] = [],
    environment: Environment = 'test',
  ) {
    const t = newToken();
    const tokenId = newId();
    await gateway.store.insertToken({
      id: tokenId,
      merchantId,
      userId: t.userId,
      secretHash: t.secretHash,
      channelIds,
      environment,
      revokedAt: null,
      createdAt: clock.now(),
    });
    return { tokenId, token: t.token, userId: t.userId, secret: t.secret };
  }

  /** Ids of a merchant's payments, read straight from the database (any outcome, oldest first). */
  async function paymentIds(merchantId: string): Promise<string[]> {
    const query = 'SELECT id FROM payments WHERE merchant_id = $1 ORDER BY created_at, id';
    if (options.databaseUrl !== undefined) {
      const client = new pg.Client({ connectionString: options.databaseUrl });
      await client.connect();
      try {
        return (await client.query<{ id: string }>(query, [merchantId])).rows.map((r) => r.id);
      } finally {
        await client.end();
      }
    }
    const db = new BetterSqlite3(join(dataDir, SQLITE_FILE), { readonly: true });
    try {
      return (db.prepare(query.replace('$1', '?')).all(merchantId) as { id: string }[]).map((r) => r.id);
    } finally {
      db.close();
    }
  }

  /** Every file in the data folder, recursively, with its bytes (SQLite database, WAL, key file …). */
  async function dataFiles(): Promise<{ path: string; bytes: Buffer }[]> {
    const out: { path: string; bytes: Buffer }[] = [];
    const walk = async (dir: string): Promise<void> => {
      for (const entry of await readdir(dir, { withFileTypes: true })) {
        const path = join(dir, entry.name);
        if (entry.isDirectory()) await walk(path);
        else if (entry.isFile()) out.push({ path, bytes: await readFile(path) });
      }
    };
    await walk(dataDir);
    return out;
  }

  let closed = false;
  /** Closes the store; the data folder stays until `cleanup`. Safe to call twice. */
  async function close(): Promise<void> {
    if (closed) return;
    closed = true;
    await gateway.close();
  }
  /** Closes the store and deletes the data folder. */
  async function cleanup(): Promise<void> {
    try {
      await close();
    } finally {
      await rm(dataDir, { recursive: true, force: true });
      forget();
    }
  }

  return {
    ...gateway,
    app,
    live,
    dataDir,
    post,
    get,
    send,
    addMerchant,
    addToken,
    paymentIds,
    dataFiles,
    close,
    cleanup,
  };
}

export type TestGateway = Awaited<ReturnType<typeof testGateway>>;
