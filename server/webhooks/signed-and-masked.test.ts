/**
 * What a webhook carries, checked as an attacker on the path or a careless log would read it:
 * every delivery is signed (a receiver checks `X-Signature` with the webhook's key, using nothing
 * of the gateway's code), a plain-JSON one shows no account number in full, and a card number a
 * merchant put into free text (descriptor, memo, custom parameters, a cart item) is masked in the
 * stored payment, the API answer, the webhook and the logs.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../security/logger';
import type { FakeClock } from '../test-kit/clock';
import { IBAN, SEPA_WITH_MANDATE } from '../test-kit/fixtures/bank-accounts';
import { VISA_CARD } from '../test-kit/fixtures/cards';
import { ADMIN_TOKEN } from '../test-kit/fixtures/tokens';
import type { TestGateway, TestMerchant } from '../test-kit/gateway';
import type { Received, Receiver } from '../test-kit/receiver';
import { deliverPending, webhookTestbed } from '../test-kit/webhooks';

const KEY = '1f1e1d1c1b1a191817161514131211100f0e0d0c0b0a09080706050403020100';
const ACCOUNT_NUMBER = 'KTO99887766554433';
const PAN_IN_TEXT = '4200000000000000';
// biome-ignore lint/suspicious/noExplicitAny: notifications are read field by field
type Json = any;

/** A receiver's check, written from the docs alone: HMAC-SHA256 of `t.body` under the key's bytes. */
function signed(r: Received, key: string, now: Date): boolean {
  const header = String(r.headers['x-signature'] ?? '');
  const m = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(header);
  if (m === null) return false;
  if (Math.abs(now.getTime() / 1000 - Number(m[1])) > 300) return false;
  const expected = createHmac('sha256', Buffer.from(key, 'hex')).update(`${m[1]}.${r.body}`).digest();
  return timingSafeEqual(expected, Buffer.from(m[2]!, 'hex'));
}

let clock: FakeClock;
let gw: TestGateway;
let receiver: Receiver;
let m: TestMerchant;
const log: string[] = [];

beforeAll(async () => {
  ({
    clock,
    receiver,
    gw,
    merchant: m,
  } = await webhookTestbed({
    logger: createLogger({ level: 'debug', stream: { write: (line: string) => log.push(line) } }),
  }));
}, 60_000);
afterAll(async () => {
  await gw?.cleanup();
  await receiver?.close();
});

const register = async (path: string, body: object) => {
  const res = await gw.send('POST', `/admin/v1/merchants/${m.merchantId}/webhooks`, JSON.stringify(body), {
    headers: { Authorization: `Bearer ${ADMIN_TOKEN}`, 'Content-Type': 'application/json' },
  });
  expect(res.status, res.text).toBe(201);
  return path;
};
const pay = (params: Record<string, string>) =>
  gw.post('/v1/payments', { entityId: m.entityId, currency: 'EUR', ...params }, { token: m.token });
const postsTo = (path: string) => receiver.received.filter((r) => r.url === path && r.method === 'POST');

describe('webhook deliveries', () => {
  it('are signed, plain or encrypted: the receiver checks X-Signature with the key', async () => {
    await register('/plain', { url: `${receiver.url}/plain`, key: KEY, encrypted: false });
    await register('/sealed', { url: `${receiver.url}/sealed`, key: KEY });
    const paid = await pay({ amount: '5.00', paymentType: 'DB', ...VISA_CARD });
    expect(paid.status).toBe(200);
    expect(await deliverPending(gw, clock, m.merchantId)).toBe(true);
    for (const path of ['/plain', '/sealed']) {
      const got = postsTo(path);
      // the test notification at registration, then the payment's
      expect(got.length).toBeGreaterThanOrEqual(2);
      for (const r of got)
        expect(signed(r, KEY, clock.now()), `${path}: ${r.headers['x-signature']}`).toBe(true);
      // a body changed on the way no longer matches its signature
      expect(signed({ ...got.at(-1)!, body: `${got.at(-1)!.body} ` }, KEY, clock.now())).toBe(false);
    }
  });

  it('show no account number in full when plain JSON', async () => {
    const path = await register('/accounts', { url: `${receiver.url}/accounts`, encrypted: false });
    const paid = await pay({
      amount: '7.00',
      paymentType: 'DB',
      ...SEPA_WITH_MANDATE,
      'bankAccount.number': ACCOUNT_NUMBER,
    });
    expect(paid.status, paid.text).toBe(200);
    expect(await deliverPending(gw, clock, m.merchantId)).toBe(true);
    const bodies = postsTo(path).map((r) => r.body);
    const ofPayment: Json = bodies
      .map((b) => JSON.parse(b))
      .find((n: Json) => n.payload?.id === paid.body.id);
    expect(ofPayment.payload.bankAccount.iban).toBe('DE89**************3000');
    expect(ofPayment.payload.bankAccount.number).toBe('*************4433');
    for (const b of bodies) {
      expect(b).not.toContain(IBAN);
      expect(b).not.toContain(ACCOUNT_NUMBER);
    }
  });
});

describe('a card number in free text', () => {
  it('is masked in the stored payment, the API answer, the webhook and the logs', async () => {
    const path = await register('/free-text', { url: `${receiver.url}/free-text`, encrypted: false });
    const paid = await pay({
      amount: '9.00',
      paymentType: 'DB',
      ...SEPA_WITH_MANDATE,
      descriptor: `order ${PAN_IN_TEXT}`,
      merchantMemo: 'card was 4200 0000 0000 0000',
      'customParameters[note]': 'pan 4200-0000-0000-0000',
      'cart.items[0].name': `gift for ${PAN_IN_TEXT}`,
    });
    expect(paid.status, paid.text).toBe(200);
    expect(paid.body.descriptor).toBe('order 420000******0000');
    expect(paid.body.customParameters.note).toBe('pan 420000******0000');
    const read = await gw.send('GET', `/v1/payments/${paid.body.id}?entityId=${m.entityId}`, undefined, {
      token: m.token,
    });
    expect(await deliverPending(gw, clock, m.merchantId)).toBe(true);
    const clear = [PAN_IN_TEXT, '4200 0000 0000 0000', '4200-0000-0000-0000'];
    const places: [string, string][] = [
      ['the answer', paid.text],
      ['the read', read.text],
      ...postsTo(path).map((r): [string, string] => ['the webhook', r.body]),
      ['the logs', log.join('\n')],
      ...(await gw.dataFiles()).map((f): [string, string] => [f.path, f.bytes.toString('latin1')]),
    ];
    for (const [where, text] of places)
      for (const pan of clear) expect(text.includes(pan), `${pan} in ${where}`).toBe(false);
  });

  it('leaves identifiers alone: a numeric merchantTransactionId and a SKU pass unchanged', async () => {
    const paid = await pay({
      amount: '2.00',
      paymentType: 'DB',
      ...VISA_CARD,
      merchantTransactionId: '4111111111111111',
      'cart.items[0].name': 'Gift card',
      'cart.items[0].sku': '4111111111111111',
      descriptor: 'call 4111 1111 1111 1112 (not a card: Luhn fails)',
    });
    expect(paid.status, paid.text).toBe(200);
    expect(paid.body.merchantTransactionId).toBe('4111111111111111');
    expect(paid.body.cart.items[0].sku).toBe('4111111111111111');
    expect(paid.body.descriptor).toBe('call 4111 1111 1111 1112 (not a card: Luhn fails)');
  });
});
