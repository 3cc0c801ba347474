/**
 * The webhook inbox through the admin API and the CLI: an inbox webhook's notifications go
 * through the outbox and the dispatcher, encrypted with its key, and land decrypted, exactly as a
 * merchant's receiver decrypts them; the list filters by type and pages with after=; clearing
 * empties it; live merchants cannot have one.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run } from '../cli/run';
import { openVault } from '../security/vault';
import { openStore } from '../storage';
import { SEPA_WITH_MANDATE } from '../test-kit/fixtures/bank-accounts';
import { VISA_CARD } from '../test-kit/fixtures/cards';
import { TEST_DATA_KEY, type TestGateway, type TestMerchant } from '../test-kit/gateway';
import { type Receiver, startReceiver } from '../test-kit/receiver';
import { admin, clockGateway } from '../test-kit/test-clock';
import { testVault } from '../test-kit/vault';
import { decryptNotification } from './encryption';

let gw: TestGateway;
let m: TestMerchant;
let receiver: Receiver;
let inboxId = '';

const inbox = (query = '') => admin(gw, 'GET', `/admin/v1/merchants/${m.merchantId}/inbox${query}`);
const pay = (params: Record<string, string> = {}) =>
  gw.post(
    '/v1/payments',
    { entityId: m.entityId, amount: '25.50', currency: 'EUR', paymentType: 'DB', ...VISA_CARD, ...params },
    { token: m.token },
  );
/** Runs the dispatcher at the clock's time: what is due now is delivered. */
const deliver = () => admin(gw, 'POST', '/admin/v1/clock', { advance: 0 });

beforeAll(async () => {
  gw = await clockGateway();
  m = await gw.addMerchant({ channels: 1 });
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver.close();
  await gw.cleanup();
});

describe('an inbox webhook', () => {
  it('registers without a URL; its test notification is the first thing in the inbox', async () => {
    const res = await admin(gw, 'POST', `/admin/v1/merchants/${m.merchantId}/webhooks`, {
      inbox: true,
      types: ['PAYMENT', 'REGISTRATION'],
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({
      url: null,
      inbox: true,
      encrypted: true,
      types: ['PAYMENT', 'REGISTRATION'],
    });
    expect(res.body.key).toMatch(/^[0-9A-F]{64}$/);
    inboxId = res.body.id;
    const list = await inbox();
    expect(list.status).toBe(200);
    expect(list.body.notifications).toEqual([
      {
        seq: expect.any(Number),
        webhookId: inboxId,
        receivedAt: '2026-11-24T10:00:00.000Z',
        type: 'test',
        payload: { webhookId: inboxId, description: expect.stringContaining('Test notification') },
      },
    ]);
    const hooks = await admin(gw, 'GET', `/admin/v1/merchants/${m.merchantId}/webhooks`);
    expect(hooks.body.webhooks).toEqual([expect.objectContaining({ id: inboxId, inbox: true, url: null })]);
  });

  it("holds a payment's notification decrypted, exactly what a receiver decrypts, after the dispatcher ran", async () => {
    const hook = await admin(gw, 'POST', `/admin/v1/merchants/${m.merchantId}/webhooks`, {
      url: `${receiver.url}/hook`,
      types: ['PAYMENT'],
    });
    expect(hook.status, hook.text).toBe(201);
    receiver.received.length = 0;
    const paid = await pay({ merchantTransactionId: 'order-0001' });
    expect(paid.status, paid.text).toBe(200);
    // nothing before the dispatcher runs: it goes through the outbox like any delivery
    expect((await inbox('?type=PAYMENT')).body.notifications).toEqual([]);
    expect((await deliver()).body.ran.webhooks).toBe(2);
    const [received] = (await inbox('?type=PAYMENT')).body.notifications;
    expect(received).toMatchObject({ webhookId: inboxId, type: 'PAYMENT', action: 'CREATED' });
    expect(received.payload).toMatchObject({
      id: paid.body.id,
      paymentType: 'DB',
      amount: '25.50',
      currency: 'EUR',
      merchantTransactionId: 'order-0001',
      result: { code: '000.100.110' },
    });
    // the URL webhook's receiver, decrypting with its key, reads the same notification
    const [post] = receiver.received;
    const json = decryptNotification(
      hook.body.key,
      post!.body,
      String(post!.headers['x-initialization-vector']),
      String(post!.headers['x-authentication-tag']),
    );
    const { type, action, payload } = JSON.parse(json);
    expect({ type, action, payload }).toEqual({
      type: received.type,
      action: received.action,
      payload: received.payload,
    });
    // the delivery log shows it delivered, once
    const log = await admin(
      gw,
      'GET',
      `/admin/v1/merchants/${m.merchantId}/webhook-deliveries?webhookId=${inboxId}`,
    );
    const mine = log.body.deliveries.filter((d: { webhookId: string }) => d.webhookId === inboxId);
    expect(mine).toEqual([
      expect.objectContaining({ status: 'delivered', attempts: 1, paymentId: paid.body.id }),
    ]);
    expect((await deliver()).body.ran.webhooks).toBe(0);
  });

  it('lists by type, after a seq, up to a limit, oldest first', async () => {
    await pay({ merchantTransactionId: 'order-0002' });
    await pay({ merchantTransactionId: 'order-0003' });
    await deliver();
    const all = (await inbox()).body.notifications;
    expect(all.map((n: { type: string }) => n.type)).toEqual(['test', 'PAYMENT', 'PAYMENT', 'PAYMENT']);
    const seqs = all.map((n: { seq: number }) => n.seq);
    expect([...seqs].sort((a, b) => a - b)).toEqual(seqs);
    const payments = (await inbox('?type=PAYMENT')).body.notifications;
    expect(
      payments.map((n: { payload: { merchantTransactionId: string } }) => n.payload.merchantTransactionId),
    ).toEqual(['order-0001', 'order-0002', 'order-0003']);
    const after = (await inbox(`?type=PAYMENT&after=${payments[0].seq}&limit=1`)).body.notifications;
    expect(after.map((n: { seq: number }) => n.seq)).toEqual([payments[1].seq]);
    expect((await inbox('?type=test')).body.notifications).toHaveLength(1);
    expect((await inbox('?type=RISK')).body.notifications).toEqual([]);
  });

  it('refuses bad query parameters, naming each', async () => {
    const res = await inbox('?type=payment&after=-1&limit=0');
    expect(res.status).toBe(400);
    expect(res.body.result.parameterErrors.map((e: { name: string }) => e.name)).toEqual([
      'type',
      'after',
      'limit',
    ]);
    expect(
      (await admin(gw, 'GET', '/admin/v1/merchants/0123456789abcdef0123456789abcdef/inbox')).status,
    ).toBe(404);
  });

  it('clears', async () => {
    const res = await admin(gw, 'DELETE', `/admin/v1/merchants/${m.merchantId}/inbox`);
    expect(res.status).toBe(200);
    expect(res.body.cleared).toBe(4);
    expect((await inbox()).body.notifications).toEqual([]);
    await pay({ merchantTransactionId: 'order-0004' });
    await deliver();
    expect(
      (await inbox()).body.notifications.map(
        (n: { payload: { merchantTransactionId: string } }) => n.payload.merchantTransactionId,
      ),
    ).toEqual(['order-0004']);
  });
});

describe('account numbers in the inbox', () => {
  it('are sealed at rest like every stored document, and read in full through the admin API', async () => {
    const iban = 'DE89370400440532013000';
    const paid = await gw.post(
      '/v1/payments',
      {
        entityId: m.entityId,
        amount: '12.00',
        currency: 'EUR',
        paymentType: 'DB',
        ...SEPA_WITH_MANDATE,
        'bankAccount.iban': iban,
      },
      { token: m.token },
    );
    expect(paid.status, paid.text).toBe(200);
    await deliver();
    const received = (await inbox('?type=PAYMENT')).body.notifications.find(
      (n: { payload: { id: string } }) => n.payload.id === paid.body.id,
    );
    expect(JSON.stringify(received.payload)).toContain(iban);
    // after a checkpoint the database file holds everything written: the IBAN only sealed
    await gw.close();
    const files = await gw.dataFiles();
    for (const file of files) expect(file.bytes.includes(iban), file.path).toBe(false);
    gw = await clockGateway({ dataDir: gw.dataDir });
  });
});

describe('gateway webhook add --inbox', () => {
  async function cli(...argv: string[]) {
    const out: string[] = [];
    const err: string[] = [];
    const code = await run(argv, {
      openStore: () => openStore({ dataDir: gw.dataDir, vault: testVault(), lockFolder: false }),
      openVault: () => openVault({ dataDir: gw.dataDir, env: { GATEWAY_DATA_KEY: TEST_DATA_KEY } }),
      output: { out: (l) => out.push(l), err: (l) => err.push(l) },
      dataDir: gw.dataDir,
    });
    return { code, out, err };
  }

  it('registers an inbox webhook; the running gateway delivers into it', async () => {
    const other = await gw.addMerchant({ channels: 1 });
    const res = await cli('webhook', 'add', '--merchant', other.merchantId, '--inbox', '--json');
    expect(res.code, res.err.join('\n')).toBe(0);
    const shown = JSON.parse(res.out.join('\n'));
    expect(shown).toMatchObject({ inbox: true, url: null });
    const list = await admin(gw, 'GET', `/admin/v1/merchants/${other.merchantId}/inbox`);
    expect(list.body.notifications.map((n: { type: string }) => n.type)).toEqual(['test']);
    const paid = await gw.post(
      '/v1/payments',
      { entityId: other.entityId, amount: '1.00', currency: 'EUR', paymentType: 'DB', ...VISA_CARD },
      { token: other.token },
    );
    expect(paid.status, paid.text).toBe(200);
    await deliver();
    const log = await admin(gw, 'GET', `/admin/v1/merchants/${other.merchantId}/webhook-deliveries`);
    expect(log.body.deliveries).toEqual([expect.objectContaining({ status: 'delivered' })]);
    const payments = await admin(gw, 'GET', `/admin/v1/merchants/${other.merchantId}/inbox?type=PAYMENT`);
    expect(payments.body.notifications.map((n: { payload: { id: string } }) => n.payload.id)).toEqual([
      paid.body.id,
    ]);
    const listed = await cli('webhook', 'list', '--merchant', other.merchantId);
    expect(listed.out.join('\n')).toContain('(inbox)');
  });

  it('refuses --inbox with --url, without either, and for a live merchant', async () => {
    const live = await gw.addMerchant({ channels: 1, mode: 'LIVE' });
    expect(
      (await cli('webhook', 'add', '--merchant', m.merchantId, '--inbox', '--url', 'https://x.example')).code,
    ).toBe(2);
    expect((await cli('webhook', 'add', '--merchant', m.merchantId)).code).toBe(2);
    // a field refused, as the admin API names `inbox`: the CLI's usage exit, naming the flag
    const refused = await cli('webhook', 'add', '--merchant', live.merchantId, '--inbox');
    expect(refused.code).toBe(2);
    expect(refused.err[0]).toMatch(/inbox is for test channels only/);
  });
});

// last: once a live channel exists the test clock no longer moves
describe('live merchants', () => {
  it('is for test channels only, and takes no URL', async () => {
    const live = await gw.addMerchant({ channels: 1, mode: 'LIVE' });
    const refused = await admin(gw, 'POST', `/admin/v1/merchants/${live.merchantId}/webhooks`, {
      inbox: true,
    });
    expect(refused.status).toBe(400);
    expect(refused.body.result.parameterErrors).toEqual([
      expect.objectContaining({ name: 'inbox', message: expect.stringMatching(/test channels only/) }),
    ]);
    const both = await admin(gw, 'POST', `/admin/v1/merchants/${m.merchantId}/webhooks`, {
      inbox: true,
      url: 'https://shop.example/hook',
    });
    expect(both.status).toBe(400);
    expect(both.body.result.parameterErrors.map((e: { name: string }) => e.name)).toEqual(['url']);
    const odd = await admin(gw, 'POST', `/admin/v1/merchants/${m.merchantId}/webhooks`, { inbox: 'yes' });
    expect(odd.body.result.parameterErrors.map((e: { name: string }) => e.name)).toEqual(['inbox']);
  });
});
