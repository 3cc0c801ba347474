/**
 * The public answers that were the bare envelope in the document (3-D Secure, a checkout's payment
 * status, the result codes, the Reporting API, the simulators) have their contract schemas
 * (shared/contract/reads.ts): real answers of a test gateway parse with them, and the document's
 * answers name them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type * as z from 'zod';
import {
  acquirerRecord,
  aggregationList,
  checkoutStatus,
  payment,
  resultCodeList,
  threeDSecureAuthentication,
  walletCards,
  walletToken,
  walletTokenRefusal,
  walletTokenRequest,
} from '../../shared/contract';
import { RESULT_CODES } from '../../shared/result-codes';
import { WALLET_GROUPS } from '../processors/simulator/wallets';
import { CARD_FIELDS, VISA_CARD } from '../test-kit/fixtures/cards';
import { type TestGateway, type TestMerchant, type TestResponse, testGateway } from '../test-kit/gateway';
import { SAMPLE } from './samples';

let gw: TestGateway;
let m: TestMerchant;

beforeAll(async () => {
  gw = await testGateway({ webhooks: { autoStart: false } });
  m = await gw.addMerchant({ channels: 1 });
}, 60_000);
afterAll(async () => {
  await gw?.cleanup();
});

const post = (path: string, params: Record<string, string>) =>
  gw.post(path, { entityId: m.entityId, ...params }, { token: m.token });
const get = (path: string, params: Record<string, string> = {}) =>
  gw.get(path, { entityId: m.entityId, ...params }, { token: m.token });

/** The contract's complaints about an answer: '' when it is what the contract says. */
function complaints(schema: z.ZodType, res: TestResponse): string {
  const parsed = schema.safeParse(res.body);
  return parsed.success ? '' : `${parsed.error.message}\n${res.text.slice(0, 400)}`;
}

const authentication = {
  amount: '92.00',
  currency: 'EUR',
  paymentBrand: 'VISA',
  'card.number': '4200000000000091',
  'card.expiryMonth': '05',
  'card.expiryYear': '2034',
  'card.holder': 'Jane Jones',
  ...SAMPLE.browser,
  ...SAMPLE.billing,
  shopperResultUrl: 'https://shop.example/return',
};

describe('the public reads are what the contract says', () => {
  it('3-D Secure: an authentication, its read, a card not enrolled', async () => {
    const done = await post('/v1/threeDSecure', authentication);
    expect(done.status).toBe(200);
    expect(complaints(threeDSecureAuthentication, done)).toBe('');
    expect(threeDSecureAuthentication.parse(done.body).threeDSecure?.eci).toMatch(/^0[1-7]$/);
    expect(complaints(threeDSecureAuthentication, await get(`/v1/threeDSecure/${done.body.id}`))).toBe('');
    const notEnrolled = await post('/v1/threeDSecure', {
      ...authentication,
      'card.number': '4000000000002503',
    });
    expect(complaints(threeDSecureAuthentication, notEnrolled)).toBe('');
    // a payment is no authentication: the contract tells them apart by their type
    const debit = await post('/v1/payments', {
      amount: '1.00',
      currency: 'EUR',
      paymentType: 'DB',
      ...VISA_CARD,
    });
    expect(complaints(threeDSecureAuthentication, debit)).not.toBe('');
  });

  it("a checkout's payment status: before the payment, then the payment", async () => {
    const checkout = await post('/v1/checkouts', { amount: '92.00', currency: 'EUR', paymentType: 'DB' });
    const id = checkout.body.id as string;
    const open = await get(`/v1/checkouts/${id}/payment`);
    expect(open.body.result.code).toBe('000.200.000');
    expect(complaints(checkoutStatus, open)).toBe('');
    expect(complaints(checkoutStatus, await get(`/v1/checkouts/${id}/registration`))).toBe('');
    await gw.post(`/v1/checkouts/${id}/payment`, { paymentBrand: 'VISA', ...CARD_FIELDS });
    const paid = await get(`/v1/checkouts/${id}/payment`);
    expect(complaints(checkoutStatus, paid)).toBe('');
    expect(complaints(payment, paid)).toBe('');
  });

  it('the result codes, and the aggregations of a week', async () => {
    const codes = await gw.get('/v1/resultcodes');
    expect(complaints(resultCodeList, codes)).toBe('');
    expect(resultCodeList.parse(codes.body).resultCodes).toHaveLength(RESULT_CODES.length);
    const week = await get('/reports/v1/reconciliations/aggregations', {
      'date.from': '2026-11-01',
      'date.to': '2026-11-07',
    });
    expect(complaints(aggregationList, week)).toBe('');
  });

  it("the simulators: the wallets' cards, the acquirer's chargeback and records", async () => {
    expect(complaints(walletCards, await gw.get('/simulators/wallets/cards'))).toBe('');
    const debit = await post('/v1/payments', {
      amount: '10.00',
      currency: 'EUR',
      paymentType: 'DB',
      ...VISA_CARD,
    });
    const chargeback = await post('/simulators/acquirer/chargebacks', { id: debit.body.id });
    expect(chargeback.body.paymentType).toBe('CB');
    expect(complaints(payment, chargeback)).toBe('');
    const record = await post('/simulators/acquirer/records', {
      amount: '12.50',
      currency: 'EUR',
      paymentBrand: 'VISA',
      merchantTransactionId: 'acquirer-only-0001',
    });
    expect(record.status).toBe(200);
    expect(complaints(acquirerRecord, record)).toBe('');
  });

  it("the simulated wallets' token: its form, its answer and its refusal, as the document names them", async () => {
    const request = { wallet: 'walletA', card: 'visa', entityId: m.entityId };
    expect(walletTokenRequest.safeParse(request).success).toBe(true);
    expect(walletTokenRequest.shape.wallet.options).toEqual([...WALLET_GROUPS]);
    const token = await gw.post('/simulators/wallets/token', request);
    expect(token.status, token.text).toBe(200);
    expect(complaints(walletToken, token)).toBe('');
    const refused = await gw.post('/simulators/wallets/token', { ...request, card: 'nope' });
    expect(refused.status).toBe(400);
    expect(complaints(walletTokenRefusal, refused)).toBe('');
    expect(complaints(walletToken, refused)).not.toBe('');

    const doc = (await gw.get('/v1/openapi.json')).body;
    const op = doc.paths['/simulators/wallets/token'].post;
    expect(op.requestBody.content['application/x-www-form-urlencoded'].schema).toEqual({
      $ref: '#/components/schemas/WalletTokenRequest',
    });
    expect(op.responses['200'].content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/WalletToken',
    });
    expect(JSON.stringify(op.responses['400'].content['application/json'].schema)).toContain(
      '#/components/schemas/WalletTokenRefusal',
    );
    for (const name of ['WalletTokenRequest', 'WalletToken', 'WalletTokenRefusal'])
      expect(doc.components.schemas[name], name).toBeDefined();
    expect(doc.components.schemas.WalletTokenRequest.required).toEqual(['wallet', 'card']);
  });
});
