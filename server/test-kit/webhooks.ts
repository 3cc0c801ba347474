/**
 * Webhook tests drive the dispatcher themselves: the gateway starts with its background workers
 * stopped (WEBHOOKS_DRIVEN), and `deliverPending` runs the dispatcher's rounds on the fake clock.
 * `storedWebhook` is a registration written straight into the store (no test notification sent).
 */
import { newId } from '../../shared/engine/core/ids';
import type { Webhook } from '../storage/webhooks/model';
import { type FakeClock, fakeClock } from './clock';
import { ADMIN_TOKEN } from './fixtures/tokens';
import { type TestGateway, type TestGatewayOptions, testGateway } from './gateway';
import { startReceiver } from './receiver';
import { testVault } from './vault';

/** The key of a `storedWebhook` (sealed under the tests' data key, as registration seals one). */
export const STORED_WEBHOOK_KEY = '000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f';

/**
 * testGateway options: the webhook dispatcher (5 s per delivery), the shopperResultUrl notifier
 * and the pending-payments worker not started, so each round runs when the test says.
 */
export const WEBHOOKS_DRIVEN = {
  webhooks: { autoStart: false, timeoutMs: 5_000 },
  notifier: { autoStart: false },
  pending: { autoStart: false },
} as const satisfies TestGatewayOptions;

/**
 * Runs the dispatcher's rounds, a minute of fake time apart, until the merchant has nothing
 * pending; false when something is still pending after `rounds`.
 */
export async function deliverPending(
  gw: TestGateway,
  clock: FakeClock,
  merchantId: string,
  rounds = 30,
): Promise<boolean> {
  for (let round = 0; round < rounds; round++) {
    await gw.webhooks.runOnce();
    const pending = await gw.store.listDeliveries(merchantId, { status: 'pending', limit: 1 });
    if (pending.length === 0) return true;
    clock.advance(60_000);
  }
  return false;
}

/**
 * A webhook registration for the store's insertWebhook: PAYMENT notifications to an address no
 * test listens on, STORED_WEBHOOK_KEY sealed (every delivery is signed with it); `fields` say how
 * a test's differs.
 */
export const storedWebhook = (merchantId: string, fields: Partial<Webhook> = {}): Webhook => ({
  id: newId(),
  merchantId,
  url: 'https://merchant.example/hooks',
  secret: testVault().encrypt(STORED_WEBHOOK_KEY),
  encrypted: false,
  types: ['PAYMENT'],
  createdAt: new Date(),
  deletedAt: null,
  ...fields,
});

/**
 * What a webhook test starts with: a gateway on a fake clock whose dispatcher the test drives
 * (WEBHOOKS_DRIVEN), the operator token ADMIN_TOKEN to register webhooks with, a receiver on
 * loopback and one merchant with a channel. `close` stops the gateway and the receiver.
 */
export async function webhookTestbed(options: TestGatewayOptions = {}) {
  const clock = fakeClock();
  const receiver = await startReceiver();
  const gw = await testGateway({
    clock,
    env: { GATEWAY_ADMIN_TOKEN: ADMIN_TOKEN },
    ...WEBHOOKS_DRIVEN,
    ...options,
  });
  const merchant = await gw.addMerchant({ channels: 1 });
  const close = async () => {
    await gw.cleanup();
    await receiver.close();
  };
  return { clock, receiver, gw, merchant, close };
}

/** A notification as the outbox keeps it, as far as a test reads what a merchant was told. */
interface Told {
  readonly type: string;
  readonly action?: string;
  readonly payload: { readonly id: string; readonly result: { readonly code: string } };
}

/**
 * What `merchantId`'s webhooks are told about payment or registration `id`, in the order it was
 * told: `action code` per notification (`type action code` with `withType`).
 */
export async function toldAbout(
  gw: Pick<TestGateway, 'store'>,
  merchantId: string,
  id: string,
  { withType = false } = {},
): Promise<string[]> {
  const deliveries = await gw.store.listDeliveries(merchantId, { limit: 500 });
  return [...deliveries]
    .sort((a, b) => a.seq - b.seq)
    .map((d) => d.notification as unknown as Told)
    .filter((n) => n.payload.id === id)
    .map((n) => `${withType ? `${n.type} ` : ''}${n.action} ${n.payload.result.code}`);
}
