/**
 * A gateway on a frozen test clock (server/clock/) for HTTP-level tests: its workers do not poll
 * on their own, so work runs only when the clock is moved through the admin API, and a test sees
 * exactly what a move ran. `admin` sends JSON to the admin API with the operator's token.
 */
import { type TestGateway, type TestGatewayOptions, type TestResponse, testGateway } from './gateway';

export const ADMIN_TOKEN = 'test-clock-admin-token-0123456789abcdef';
/** 2026-11-24 (a Tuesday) 10:00 UTC. */
export const CLOCK_START = new Date('2026-11-24T10:00:00.000Z');

export const SECOND = 1_000;
export const MINUTE = 60 * SECOND;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;

export function clockGateway(options: TestGatewayOptions = {}): Promise<TestGateway> {
  return testGateway({
    testClock: { frozen: true, start: CLOCK_START },
    pending: { autoStart: false },
    notifier: { autoStart: false },
    scheduler: { autoStart: false },
    webhooks: { autoStart: false },
    settlement: { autoStart: false },
    ...options,
    env: { GATEWAY_ADMIN_TOKEN: ADMIN_TOKEN, ...options.env },
  });
}

/** A JSON request to the admin API with the operator's token. */
export const admin = (gw: TestGateway, method: string, path: string, body?: unknown): Promise<TestResponse> =>
  gw.send(method, path, body === undefined ? undefined : JSON.stringify(body), {
    token: ADMIN_TOKEN,
    headers: { 'Content-Type': 'application/json' },
  });

/** Moves the clock to `at` (a Date, or ms after CLOCK_START) and expects it moved. */
export async function moveTo(gw: TestGateway, at: Date | number): Promise<TestResponse> {
  const to = typeof at === 'number' ? new Date(CLOCK_START.getTime() + at) : at;
  const res = await admin(gw, 'POST', '/admin/v1/clock', { to: to.toISOString() });
  if (res.status !== 200) throw new Error(`the clock did not move: ${res.text}`);
  return res;
}
