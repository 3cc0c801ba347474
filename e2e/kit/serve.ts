/**
 * The throwaway gateway startTestGateway runs, as a child process (`node --import tsx`, or its
 * bundle dist/testing/serve.js under plain `node` in the package, so a QA suite's own runner never
 * loads the gateway): startGateway on 127.0.0.1 at the given port or a free one (0), SQLite
 * in a temporary folder, the test clock on, the admin API on with a random operator token; then,
 * as the operator CLI does, a merchant, its test channel (3-D Secure and brands as asked) and an
 * access token. It prints one JSON line (TestGatewayInfo), serves until SIGTERM, then deletes the
 * folder.
 *
 * Options come in OPG_TEST_GATEWAY (JSON: TestGatewayOptions).
 */
import { randomBytes } from 'node:crypto';
import { serve } from '@hono/node-server';
import { type CommandContext, createChannel, createMerchant, createToken } from '../../server/cli/commands';
import { type GatewayOptions, startGateway } from '../../server/gateway';
import { egressOptionsFromEnv, egressPolicy } from '../../server/security/egress';
import { freePort } from '../../server/test-kit/postgres';
import { tempFolderUntilExit } from '../../server/test-kit/temp-folders';
import { ensureWidgetBuilt } from '../../widget/build/ensure';
import type { TestGatewayInfo, TestGatewayOptions } from './gateway';

// A signal during the start-up ends it at once; once the gateway serves, `stop` below closes it first.
let stop: () => Promise<void> = async () => process.exit(0);
process.on('SIGTERM', () => void stop());
process.on('SIGINT', () => void stop());

const options = JSON.parse(process.env.OPG_TEST_GATEWAY ?? '{}') as TestGatewayOptions;
await ensureWidgetBuilt();

// Deleted when this process exits, however it exits: stopped, or a start-up that fails half-way.
const dataDir = tempFolderUntilExit('opg-test-gateway-');
const port = options.port === undefined || options.port === 0 ? await freePort() : options.port;
const url = `http://127.0.0.1:${port}`;
const adminToken = randomBytes(32).toString('hex');
const env = {
  ...process.env,
  ...options.env,
  GATEWAY_ADMIN_TOKEN: adminToken,
  LOG_LEVEL: options.env?.LOG_LEVEL ?? process.env.LOG_LEVEL ?? 'warn',
};
const gatewayOptions: GatewayOptions = {
  dataDir,
  commit: '0'.repeat(40),
  baseUrl: url,
  env,
  testClock: true,
  // Notifications reach the inbox within a fraction of a second, so `webhooks.next()` is quick.
  webhooks: { intervalMs: 100 },
};
const gateway = await startGateway(gatewayOptions);

// What the operator CLI does (`gateway merchant|channel|token create`), on the gateway's store.
const cli: CommandContext = {
  store: gateway.store,
  output: { out: () => {}, err: () => {} },
  egress: egressPolicy(egressOptionsFromEnv(env)),
};
const merchant = await createMerchant(cli, { name: options.merchantName ?? 'QA shop' });
const channel = await createChannel(cli, {
  merchantId: merchant.id,
  name: 'QA_Test_Channel',
  threeDSecure: options.threeDSecure ?? true,
  ...(options.brands === undefined ? {} : { accepts: { brands: options.brands } }),
});
const token = await createToken(cli, { merchantId: merchant.id, channelIds: [channel.id] });

// Listening before the line is printed: the suite's first request may follow at once.
const server = await new Promise<ReturnType<typeof serve>>((resolve) => {
  const listening = serve({ fetch: gateway.app.fetch, port, hostname: '127.0.0.1' }, () =>
    resolve(listening),
  );
});

const info: TestGatewayInfo = {
  url,
  adminToken,
  merchantId: merchant.id,
  entityId: channel.id,
  accessToken: token.accessToken,
};
console.log(JSON.stringify(info));

stop = async () => {
  try {
    server.close();
    await gateway.close();
  } finally {
    process.exit(0); // the data folder is deleted on the way out (tempFolderUntilExit)
  }
};
