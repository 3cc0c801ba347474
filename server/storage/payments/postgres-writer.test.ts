/**
 * The PostgreSQL batch writer writes a batch in one statement with the webhooks it last read for
 * the merchants: a webhook another process registers or deletes in between must still be obeyed
 * (the statement checks them and the batch is written again the default way), and a key another
 * process holds must still be refused.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Payment } from '../../../shared/engine/core/model';
import type { IdempotencyClaim } from '../../../shared/engine/core/ports';
import { recordPayment } from '../../../shared/engine/steps/record';
import { asMinor } from '../../../shared/money';
import { type PostgresCluster, postgresUnavailableReason, startPostgres } from '../../test-kit/postgres';
import { testVault } from '../../test-kit/vault';
import { type GatewayStore, openStore } from '../index';

const hex = (): string => randomBytes(16).toString('hex');
const unavailable = postgresUnavailableReason();

function payment(merchantId: string): Payment {
  return {
    id: hex(),
    merchantId,
    channelId: 'c'.repeat(32),
    paymentType: 'DB',
    amount: asMinor(1234),
    currency: 'EUR',
    resultCode: '000.100.110',
    resultDescription: "Request successfully processed in 'Merchant in Integrator Test Mode'",
    shortId: '1234.5678.9012',
    ndc: hex(),
    details: {},
    createdAt: new Date(),
  };
}

describe.skipIf(unavailable !== undefined)('PostgreSQL payments written by two processes', () => {
  let cluster: PostgresCluster;
  let one: GatewayStore;
  let two: GatewayStore;

  beforeAll(async () => {
    cluster = await startPostgres();
    one = await openStore({ databaseUrl: cluster.url, vault: testVault() });
    two = await openStore({ databaseUrl: cluster.url, vault: testVault() });
  }, 60_000);

  afterAll(async () => {
    await one?.close();
    await two?.close();
    await cluster?.stop();
  }, 60_000);

  const webhook = (merchantId: string) => ({
    id: hex(),
    merchantId,
    url: 'https://merchant.example/hooks',
    secret: 'sealed',
    encrypted: false,
    types: ['PAYMENT' as const],
    createdAt: new Date(),
    deletedAt: null,
  });
  const deliveriesOf = async (merchantId: string, webhookId: string) =>
    (await one.listDeliveries(merchantId, { webhookId, limit: 100 })).map((d) => d.orderKey);

  it('notifies a webhook registered by another process after this one wrote the merchant a payment', async () => {
    const merchantId = hex();
    await recordPayment({ store: one }, payment(merchantId)); // no webhook yet
    const hook = webhook(merchantId);
    await two.insertWebhook(hook);
    const after = payment(merchantId);
    await recordPayment({ store: one }, after);
    expect(await deliveriesOf(merchantId, hook.id)).toEqual([after.id]);
  });

  it('stops notifying a webhook another process deleted', async () => {
    const merchantId = hex();
    const hook = webhook(merchantId);
    await two.insertWebhook(hook);
    const before = payment(merchantId);
    await recordPayment({ store: one }, before);
    expect(await deliveriesOf(merchantId, hook.id)).toEqual([before.id]);
    expect(await two.deleteWebhook(merchantId, hook.id, new Date())).toBe(true);
    await recordPayment({ store: one }, payment(merchantId));
    expect(await deliveriesOf(merchantId, hook.id)).toEqual([before.id]);
  });

  it("refuses a payment whose Idempotency-Key another process's payment took, and writes the rest of its batch", async () => {
    const merchantId = hex();
    await recordPayment({ store: one }, payment(merchantId));
    const now = new Date();
    const claim = (key: string): IdempotencyClaim => ({
      merchantId,
      key,
      requestHash: 'h',
      createdAt: now,
      replaceBefore: new Date(now.getTime() - 60_000),
    });
    const key = hex();
    await two.insertPayment(payment(merchantId), [], claim(key));
    const refused = payment(merchantId);
    const alongside = payment(merchantId);
    const results = await Promise.allSettled([
      one.insertPayment(refused, [], claim(key)),
      one.insertPayment(alongside, [], claim(hex())),
    ]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'fulfilled']);
    expect(await one.getPayment(merchantId, refused.id)).toBeUndefined();
    expect((await one.getPayment(merchantId, alongside.id))?.id).toBe(alongside.id);
  });
});
