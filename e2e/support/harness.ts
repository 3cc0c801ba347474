/**
 * The world the Playwright flows shop in, as a child process: the real gateway (startGateway,
 * SQLite in a temporary folder, served by @hono/node-server as `npm start` does) on
 * http://127.0.0.1:<port>, the demo shop on http://localhost:<port> (another origin, as a real
 * shop is).
 *
 * Beside them:
 * - two more test channels of the demo merchant that accept fewer brands (`VISA MASTER MADA`,
 *   `VISA MASTER`; `ChannelSettings.brands`, set as the operator CLI does), each with a demo shop
 *   of its own; the demo channel itself stays unrestricted;
 * - the gateway's live environment (`liveApp`, GATEWAY_LIVE_PORT in `npm start`) on
 *   https://127.0.0.1:<port>, with a throwaway self-signed certificate made at start (support/tls.ts):
 *   a live merchant whose live channel's connector points at the live acquirer's system, played by
 *   a test merchant on the gateway's own test address (loopback is allowed on a developer's
 *   machine), a live access token, and a demo shop paying on the live address;
 * - a live channel with 3-D Secure on, its own token and shop, whose connector forwards to an
 *   upstream gateway (a third one, its demo channel, 3-D Secure on) served on HTTPS with the same
 *   certificate: the browser goes from the live page to the upstream's challenge page and back
 *   without a form post to plain HTTP (mixed content); the gateway's opp connector trusts that
 *   certificate (pinnedFetch);
 * - live channels with 3-D Secure on paying through the Adyen and the Stripe fakes
 *   (support/connector-fakes.ts), each with a shop;
 * - a second gateway on the test clock (GATEWAY_TEST_CLOCK, server/clock/), with its own demo
 *   merchant and demo shop, for the flows that move time (expired checkouts): through its admin API
 *   (`POST /admin/v1/clock`), as a QA suite would. A test clock is refused while a live channel
 *   exists, and moving it would expire every other flow's checkout, so it is not the gateway above.
 *
 * - for the dashboard (/admin/): the demo users `startGateway` makes on a fresh data folder (its
 *   `demo-users.json`: the operator and the demo merchant's admin), and a payment of the demo
 *   merchant made yesterday (the clock moved back for it) and settled, so a reconciliation file exists.
 *
 * It prints one JSON line with the URLs and the credentials, then serves until killed.
 */
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createServer as createHttpsServer } from 'node:https';
import { join } from 'node:path';
import { serve } from '@hono/node-server';
import {
  type CommandContext,
  createChannel,
  createMerchant,
  createToken,
  setChannel,
} from '../../server/cli/commands';
import { settle } from '../../server/cli/webhook-commands';
import { oppClient } from '../../server/connectors';
import { createShop } from '../../server/demo-shop/shop';
import { startGateway } from '../../server/gateway';
import { egressOptionsFromEnv, egressPolicy } from '../../server/security/egress';
import { VISA_CARD } from '../../server/test-kit/fixtures/cards';
import { freePort } from '../../server/test-kit/postgres';
import { tempFolderUntilExit } from '../../server/test-kit/temp-folders';
import { connectorFakes, type FakeConnectorChannel } from './connector-fakes';
import { pinnedFetch, selfSignedCertificate } from './tls';

/** Where a merchant's backend reaches the gateway, with which channel and token. */
export interface MerchantAccount {
  readonly gatewayUrl: string;
  readonly entityId: string;
  readonly accessToken: string;
}

/** A test channel of the demo merchant that accepts only `brands`, and a demo shop paying on it. */
export interface RestrictedChannel extends MerchantAccount {
  readonly brands: readonly string[];
  readonly shopUrl: string;
}

/** The live environment: its address, the live merchant's channel and token, its shop. */
export interface LiveInfo extends MerchantAccount {
  /** `https://127.0.0.1:<port>`: a self-signed certificate, so browsers must be told to accept it. */
  readonly gatewayUrl: string;
  /** A demo shop (http://localhost:<port>) creating its checkouts on the live address. */
  readonly shopUrl: string;
  /** The PEM certificate the live address serves (in `dataDir`). */
  readonly certFile: string;
  /** The live acquirer's system the live channel's connector forwards to: a test account on `gatewayUrl` (test). */
  readonly acquirer: MerchantAccount;
  /** A live channel of the same merchant (the live token covers it) with 3-D Secure on, and its shop. */
  readonly threeDSecure: LiveThreeDSecure;
  /** Live channels with 3-D Secure on paying through the Adyen and the Stripe fakes, each with its shop. */
  readonly adyen: LiveFakeChannel;
  readonly stripe: LiveFakeChannel;
}

/** A live channel through a fake processor (support/connector-fakes.ts) and a shop paying on it. */
export interface LiveFakeChannel extends FakeConnectorChannel {
  readonly shopUrl: string;
}

/**
 * The live channel that authenticates: its connector forwards to `upstream`, another gateway of the
 * family served on HTTPS (the harness's certificate; its demo channel, 3-D Secure on), so the
 * shopper's browser goes from the live page to the upstream's challenge page without leaving HTTPS.
 */
export interface LiveThreeDSecure extends MerchantAccount {
  /** A demo shop (http://localhost:<port>) paying on this channel on the live address. */
  readonly shopUrl: string;
  /** The upstream gateway's demo channel (3-D Secure on): `https://127.0.0.1:<port>`, the same certificate. */
  readonly upstream: MerchantAccount;
}

/** The gateway on the test clock: its demo merchant's shop, and the operator's token for its admin API. */
export interface ClockGatewayInfo extends MerchantAccount {
  readonly shopUrl: string;
  /** `Authorization: Bearer <adminToken>` on `${gatewayUrl}/admin/v1/clock`. */
  readonly adminToken: string;
}

/** A dashboard user's credentials. */
export interface AdminUser {
  readonly username: string;
  readonly password: string;
}

/** What the dashboard's flows (e2e/flows/admin-*) sign in with and look for. */
export interface AdminInfo {
  /** The demo merchant, whose admin `merchantAdmin` is. */
  readonly merchantId: string;
  readonly operator: AdminUser;
  readonly merchantAdmin: AdminUser;
  /** The merchantTransactionId of the demo merchant's payment made yesterday and settled. */
  readonly settledOrder: string;
  /** Its channel (a test channel of the demo merchant without 3-D Secure). */
  readonly settledEntityId: string;
}

export interface HarnessInfo extends MerchantAccount {
  readonly gatewayUrl: string;
  readonly shopUrl: string;
  readonly entityId: string;
  readonly accessToken: string;
  readonly dataDir: string;
  /** Test channels of the demo merchant (its token pays on them) accepting fewer brands. */
  readonly channels: {
    readonly visaMasterMada: RestrictedChannel;
    readonly visaMaster: RestrictedChannel;
    /** Asks for a stored card's CVV in one-click payments. */
    readonly storedCardCvv: RestrictedChannel;
  };
  readonly live: LiveInfo;
  readonly clock: ClockGatewayInfo;
  readonly admin: AdminInfo;
}

// Deleted when the harness exits, however it exits: stopped, or a start-up that fails half-way.
const dataDir = tempFolderUntilExit('gateway-e2e-');
const clockDataDir = tempFolderUntilExit('gateway-e2e-clock-');
const upstreamDataDir = tempFolderUntilExit('gateway-e2e-upstream-');
// A signal during the start-up ends it at once (the folders go with the process); once everything
// serves, `shutdown` below closes the servers and the gateways first.
let stop: () => Promise<void> = async () => process.exit(0);
process.on('SIGTERM', () => void stop());
process.on('SIGINT', () => void stop());

const ports = async (n: number): Promise<number[]> => {
  const out: number[] = [];
  for (let i = 0; i < n; i++) out.push(await freePort());
  return out;
};
const [gatewayPort, shopPort, livePort, liveShopPort, madaShopPort, visaMasterShopPort, cvvShopPort] =
  (await ports(7)) as [number, number, number, number, number, number, number];
const [clockGatewayPort, clockShopPort] = (await ports(2)) as [number, number];
const [upstreamPort, live3dsShopPort, adyenShopPort, stripeShopPort] = (await ports(4)) as [
  number,
  number,
  number,
  number,
];
const gatewayUrl = `http://127.0.0.1:${gatewayPort}`;
const liveUrl = `https://127.0.0.1:${livePort}`;
const certificate = selfSignedCertificate(dataDir);
const env = { ...process.env, LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn' };
// The clock of the gateway above: moved back a day only while the harness makes yesterday's payment
// (settledYesterday); flows that move time use the gateway on the test clock below.
let offsetMs = 0;
const clock = { now: () => new Date(Date.now() + offsetMs) };
const gateway = await startGateway({
  dataDir,
  clock,
  commit: '0'.repeat(40),
  baseUrl: gatewayUrl,
  live: { baseUrl: liveUrl, tls: true },
  env,
  // The opp connector trusts the harness's certificate (the upstream below serves it); plain http
  // (the live acquirer on the test address) goes through as before.
  connector: oppClient({ fetch: pinnedFetch(certificate.cert) }),
});
if (gateway.demo === undefined) throw new Error('a fresh data folder must get the demo merchant');
if (gateway.liveApp === undefined) throw new Error('the gateway was given a live address');
const { entityId, accessToken, merchantId } = gateway.demo;

// What the operator CLI does (`gateway merchant|channel|token …`), on the gateway's store.
const cli: CommandContext = {
  store: gateway.store,
  output: { out: () => {}, err: () => {} },
  egress: egressPolicy(egressOptionsFromEnv(env)),
};

/** A test channel of the demo merchant accepting only `brands` (the demo token covers it). */
async function restricted(name: string, brands: readonly string[], port: number): Promise<RestrictedChannel> {
  const channel = await createChannel(cli, { merchantId, name, threeDSecure: true, accepts: { brands } });
  return { gatewayUrl, entityId: channel.id, accessToken, brands, shopUrl: `http://localhost:${port}` };
}
/** Such a channel that also asks for a stored card's CVV in one-click (`registrationsRequireCvv`). */
async function askingCvv(name: string, brands: readonly string[], port: number): Promise<RestrictedChannel> {
  const made = await restricted(name, brands, port);
  const channel = await gateway.store.getChannel(made.entityId);
  await gateway.store.updateChannelSettings(made.entityId, {
    ...channel!.settings,
    registrationsRequireCvv: true,
  });
  return made;
}
const channels = {
  visaMasterMada: await restricted('Brands_VISA_MASTER_MADA', ['VISA', 'MASTER', 'MADA'], madaShopPort),
  visaMaster: await restricted('Brands_VISA_MASTER', ['VISA', 'MASTER'], visaMasterShopPort),
  storedCardCvv: await askingCvv('Stored_card_CVV', ['VISA', 'MASTER', 'AMEX'], cvvShopPort),
};

// The live acquirer's system: a test merchant on the gateway's own test address.
const acquirerMerchant = await createMerchant(cli, { name: 'Live acquirer (simulated)' });
const acquirerChannel = await createChannel(cli, { merchantId: acquirerMerchant.id, name: 'Acquirer_Test' });
const acquirerToken = await createToken(cli, {
  merchantId: acquirerMerchant.id,
  channelIds: [acquirerChannel.id],
});
const acquirer: MerchantAccount = {
  gatewayUrl,
  entityId: acquirerChannel.id,
  accessToken: acquirerToken.accessToken,
};
// The live merchant: a live channel whose connector forwards to that account, a live token.
const liveMerchant = await createMerchant(cli, { name: 'Live Merchant' });
const liveChannel = await createChannel(cli, {
  merchantId: liveMerchant.id,
  name: 'Live_Channel',
  mode: 'LIVE',
});
await setChannel(cli, {
  entityId: liveChannel.id,
  connector: { baseUrl: acquirer.gatewayUrl, entityId: acquirer.entityId, accessToken: acquirer.accessToken },
});
const liveToken = await createToken(cli, { merchantId: liveMerchant.id, channelIds: [liveChannel.id] });

// The upstream of the live channel that authenticates: another gateway, on HTTPS, whose demo
// channel has 3-D Secure on (its challenge page is the simulator's, at its own address).
const upstreamUrl = `https://127.0.0.1:${upstreamPort}`;
const upstreamGateway = await startGateway({
  dataDir: upstreamDataDir,
  commit: '0'.repeat(40),
  baseUrl: upstreamUrl,
  tls: true,
  env,
});
if (upstreamGateway.demo === undefined) throw new Error('a fresh data folder must get the demo merchant');
const upstream: MerchantAccount = {
  gatewayUrl: upstreamUrl,
  entityId: upstreamGateway.demo.entityId,
  accessToken: upstreamGateway.demo.accessToken,
};
const live3dsChannel = await createChannel(cli, {
  merchantId: liveMerchant.id,
  name: 'Live_3DS_Channel',
  mode: 'LIVE',
  threeDSecure: true,
});
await setChannel(cli, {
  entityId: live3dsChannel.id,
  connector: { baseUrl: upstream.gatewayUrl, entityId: upstream.entityId, accessToken: upstream.accessToken },
});
const live3dsToken = await createToken(cli, { merchantId: liveMerchant.id, channelIds: [live3dsChannel.id] });
const fakes = await connectorFakes(cli, gateway.store, liveMerchant.id, liveUrl);
const live: LiveInfo = {
  gatewayUrl: liveUrl,
  shopUrl: `http://localhost:${liveShopPort}`,
  entityId: liveChannel.id,
  accessToken: liveToken.accessToken,
  certFile: certificate.certFile,
  acquirer,
  threeDSecure: {
    gatewayUrl: liveUrl,
    shopUrl: `http://localhost:${live3dsShopPort}`,
    entityId: live3dsChannel.id,
    accessToken: live3dsToken.accessToken,
    upstream,
  },
  adyen: { ...fakes.adyen, shopUrl: `http://localhost:${adyenShopPort}` },
  stripe: { ...fakes.stripe, shopUrl: `http://localhost:${stripeShopPort}` },
};

// The gateway on the test clock, with its own demo merchant (test channels only).
const clockGatewayUrl = `http://127.0.0.1:${clockGatewayPort}`;
const adminToken = randomBytes(24).toString('hex');
const clockGateway = await startGateway({
  dataDir: clockDataDir,
  commit: '0'.repeat(40),
  baseUrl: clockGatewayUrl,
  env: { ...env, GATEWAY_ADMIN_TOKEN: adminToken, GATEWAY_TEST_CLOCK: 'on' },
});
if (clockGateway.demo === undefined) throw new Error('a fresh data folder must get the demo merchant');
const clockInfo: ClockGatewayInfo = {
  gatewayUrl: clockGatewayUrl,
  shopUrl: `http://localhost:${clockShopPort}`,
  entityId: clockGateway.demo.entityId,
  accessToken: clockGateway.demo.accessToken,
  adminToken,
};

/** The demo users startGateway wrote (demo-users.json), by role. */
async function demoUsers(): Promise<{ operator: AdminUser; merchantAdmin: AdminUser }> {
  const none = { username: '', password: '' };
  let users: { username: string; password: string; role: string }[] = [];
  try {
    users = JSON.parse(await readFile(join(dataDir, 'demo-users.json'), 'utf8'));
  } catch {}
  const of = (role: string) => {
    const user = users.find((u) => u.role === role);
    return user === undefined ? none : { username: user.username, password: user.password };
  };
  return { operator: of('operator'), merchantAdmin: of('merchant-admin') };
}

/**
 * A payment of the demo merchant made yesterday (the clock moved back a day for it) on a test
 * channel without 3-D Secure, and yesterday settled: the dashboard then lists a reconciliation file.
 */
async function settledYesterday(): Promise<{ order: string; entityId: string }> {
  const channel = await createChannel(cli, { merchantId, name: 'Settled_Yesterday' });
  const order = `settled-${Date.now().toString(36)}`;
  offsetMs = -24 * 60 * 60 * 1000;
  const yesterday = clock.now().toISOString().slice(0, 10);
  try {
    const res = await gateway.app.request(`${gatewayUrl}/v1/payments`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${accessToken}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams({
        entityId: channel.id,
        amount: '25.00',
        currency: 'EUR',
        paymentType: 'DB',
        ...VISA_CARD,
        merchantTransactionId: order,
      }),
    });
    if (res.status !== 200) throw new Error(`the settled payment was refused: ${await res.text()}`);
  } finally {
    offsetMs = 0;
  }
  await settle({ ...cli, store: gateway.store, dataDir }, { date: yesterday, merchantId });
  return { order, entityId: channel.id };
}
const settled = await settledYesterday();
const admin: AdminInfo = {
  merchantId,
  ...(await demoUsers()),
  settledOrder: settled.order,
  settledEntityId: settled.entityId,
};

const local = (port: number, fetch: (request: Request) => Response | Promise<Response>) =>
  serve({ fetch, port, hostname: '127.0.0.1' });
const servers = [
  local(gatewayPort, gateway.app.fetch),
  local(shopPort, createShop({ gatewayUrl, entityId, accessToken }).fetch),
  local(clockGatewayPort, clockGateway.app.fetch),
  local(clockShopPort, createShop(clockInfo).fetch),
  ...Object.values(channels).map((channel) =>
    local(Number(new URL(channel.shopUrl).port), createShop(channel).fetch),
  ),
  // The live address serves TLS itself, as `npm start` does with GATEWAY_LIVE_TLS_CERT/KEY.
  serve({
    fetch: gateway.liveApp.fetch,
    port: livePort,
    hostname: '127.0.0.1',
    createServer: createHttpsServer,
    serverOptions: { cert: certificate.cert, key: certificate.key },
  }),
  ...[live, live.threeDSecure, live.adyen, live.stripe].map((channel) =>
    local(
      Number(new URL(channel.shopUrl).port),
      createShop({
        gatewayUrl: liveUrl,
        entityId: channel.entityId,
        accessToken: channel.accessToken,
        fetch: pinnedFetch(certificate.cert),
      }).fetch,
    ),
  ),
  serve({
    fetch: upstreamGateway.app.fetch,
    port: upstreamPort,
    hostname: '127.0.0.1',
    createServer: createHttpsServer,
    serverOptions: { cert: certificate.cert, key: certificate.key },
  }),
];

const info: HarnessInfo = {
  gatewayUrl,
  shopUrl: `http://localhost:${shopPort}`,
  entityId,
  accessToken,
  dataDir,
  channels,
  live,
  clock: clockInfo,
  admin,
};
console.log(JSON.stringify(info));

stop = async () => {
  try {
    for (const server of servers) server.close();
    await gateway.close();
    await clockGateway.close();
    await upstreamGateway.close();
    await fakes.close();
  } finally {
    process.exit(0); // the data folders are deleted on the way out (tempFolderUntilExit)
  }
};
