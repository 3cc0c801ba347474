/**
 * `startTestGateway()`: a throwaway gateway for a QA suite, as a Playwright fixture or in
 * `globalSetup`, on a free port or the one given (`port`). It runs serve.ts as a child process
 * (child.ts) and waits for its JSON line, then registers
 * an inbox webhook for the merchant, so every notification can be read back (`webhooks`).
 *
 * `connectTestGateway(info)`: the same clock and inbox for a gateway started elsewhere: by
 * globalSetup (the workers get `info` through the environment: `gateway.info`), or by the QA team
 * themselves (`GATEWAY_TEST_CLOCK=on`, `GATEWAY_ADMIN_TOKEN`, an inbox webhook added by the CLI).
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { addInboxWebhook, type TestClock, testClock, type WebhookInbox, webhookInbox } from './admin';
import { startChild } from './child';

export interface TestGatewayOptions {
  /** The test channel authenticates new cards with 3-D Secure (default true). */
  readonly threeDSecure?: boolean;
  /** The brands the test channel accepts (default: every brand). */
  readonly brands?: readonly string[];
  readonly merchantName?: string;
  /** The port on 127.0.0.1 the gateway listens on (default 0: a free one, chosen at start). */
  readonly port?: number;
  /** More environment for the gateway (GATEWAY_* settings; LOG_LEVEL, `warn` by default). */
  readonly env?: Readonly<Record<string, string>>;
}

/** What a suite needs to reach the gateway: serialisable, for globalSetup to hand to workers. */
export interface TestGatewayInfo {
  /** `http://127.0.0.1:<port>`: the API, the widget's script (`/v1/paymentWidgets.js`), the admin API. */
  readonly url: string;
  /** The test channel: `entityId` of every request. */
  readonly entityId: string;
  /** The merchant's access token (Bearer), for the shop's backend. */
  readonly accessToken: string;
  /** The operator's token for the admin API (the clock, the inbox). */
  readonly adminToken: string;
  readonly merchantId: string;
}

export interface ConnectedGateway extends TestGatewayInfo {
  readonly clock: TestClock;
  readonly webhooks: WebhookInbox;
}

export interface TestGateway extends ConnectedGateway {
  /** The serialisable part, e.g. `process.env.TEST_GATEWAY = JSON.stringify(gateway.info)`. */
  readonly info: TestGatewayInfo;
  /** Stops the gateway and deletes its data. */
  stop(): Promise<void>;
}

/**
 * The package's root (two folders up, from e2e/kit/ and from the built dist/testing/ alike): the
 * child's working directory.
 */
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/**
 * The gateway the child runs: from the package (this module is dist/testing/index.js or .cjs),
 * serve.ts bundled beside it (dist/testing/serve.js, plain `node`: an installed package has no
 * TypeScript loader to rely on); from the repository's sources, serve.ts itself under tsx.
 */
const PACKAGED = !fileURLToPath(import.meta.url).endsWith('.ts');
const SERVE = PACKAGED ? join(ROOT, 'dist/testing/serve.js') : join(ROOT, 'e2e/kit/serve.ts');

/** A TCP port, or a TypeError naming the option (not a gateway that fails to start later). */
function checkedPort(port: number | undefined): number {
  if (port === undefined) return 0;
  if (Number.isInteger(port) && port >= 0 && port <= 65_535) return port;
  throw new TypeError(`startTestGateway: port must be an integer from 0 to 65535, not ${String(port)}`);
}

/** The clock and the inbox of a running gateway, from what startTestGateway (or the team) started. */
export function connectTestGateway(info: TestGatewayInfo): ConnectedGateway {
  return { ...info, clock: testClock(info), webhooks: webhookInbox(info, info.merchantId) };
}

export async function startTestGateway(options: TestGatewayOptions = {}): Promise<TestGateway> {
  const env: Record<string, string | undefined> = {
    ...process.env,
    OPG_TEST_GATEWAY: JSON.stringify({ ...options, port: checkedPort(options.port) }),
  };
  // A runner's own loader options (Playwright's) are not the gateway's.
  delete env.NODE_OPTIONS;
  const { report: info, stop } = await startChild<TestGatewayInfo>(SERVE, {
    cwd: ROOT,
    env,
    typescript: !PACKAGED,
    isReport: (parsed) => typeof parsed.url === 'string' && typeof parsed.accessToken === 'string',
  });
  try {
    await addInboxWebhook(info, info.merchantId);
    return { ...connectTestGateway(info), info, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
