/**
 * What the checkout id alone shows (security hole 10). The id travels through the shopper's
 * browser, so whoever holds it may read the checkout's status without credentials, as a few old
 * clients do (compat); decisions: such a read answers the result, ids, amount, currency, payment
 * type and brand, merchantTransactionId and the card's bin and last four digits, no personal data.
 * With the merchant's credentials the answer is complete. The same holds for the answer of a
 * submission made without credentials (anyone with the id may submit, e.g. an expired card, to see
 * the checkout's customer data echoed in the decline).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeClock } from '../../test-kit/clock';
import { type TestGateway, type TestMerchant, type TestResponse, testGateway } from '../../test-kit/gateway';

/** The shopper's personal data, given by the merchant at creation and by the shopper at payment. */
const PERSONAL = {
  'customer.givenName': 'Jeanette',
  'customer.surname': 'Privatperson',
  'customer.email': 'jeanette.private@example.com',
  'customer.phone': '+49 30 98765432',
  'customer.ip': '203.0.113.77',
  'customer.birthDate': '1981-02-03',
  'billing.street1': 'Geheimweg 7',
  'billing.city': 'Musterstadt',
  'billing.postcode': '54321',
  'billing.country': 'DE',
  'shipping.street1': 'Lieferstrasse 9',
  'shipping.city': 'Versandort',
  'shipping.country': 'AT',
} as const;
const HOLDER = 'Jeanette Privatperson';
const CARD = {
  'card.number': '4200000000000000',
  'card.holder': HOLDER,
  'card.expiryMonth': '07',
  'card.expiryYear': '2031',
  'card.cvv': '987',
} as const;
/**
 * Values that must not appear anywhere in an answer to someone holding only the checkout id. The
 * all-digit ones are searched for as JSON values: an id, ndc or shortId is random hex or digits and
 * holds four or five given digits now and then (a CI run found '2031' inside an id).
 */
const SECRETS = [
  'Jeanette',
  'Privatperson',
  'jeanette.private',
  '98765432',
  '203.0.113.77',
  '1981-02-03',
  'Geheimweg',
  'Musterstadt',
  '"54321"',
  'Lieferstrasse',
  'Versandort',
  '"2031"',
  'SHOPPER_note',
  'orderRef',
];

const PAYMENT_KEYS = [
  'amount',
  'buildNumber',
  'card',
  'currency',
  'id',
  'merchantTransactionId',
  'ndc',
  'paymentBrand',
  'paymentType',
  'result',
  'shortId',
  'timestamp',
];

function expectNothingPersonal(res: TestResponse): void {
  for (const secret of SECRETS) expect(res.text, secret).not.toContain(secret);
  expect(Object.keys(res.body.card ?? {}).sort()).toEqual(['bin', 'last4Digits']);
  expect(Object.keys(res.body.result).sort()).toEqual(['code', 'description']);
}

describe('checkout status and submission answers without credentials', () => {
  let gw: TestGateway;
  let m: TestMerchant;
  const clock = fakeClock();

  beforeAll(async () => {
    gw = await testGateway({ clock, notifier: { autoStart: false } });
    m = await gw.addMerchant({ channels: 1 });
  });
  afterAll(() => gw.cleanup());

  const create = async (params: Record<string, string>): Promise<string> => {
    const res = await gw.post(
      '/v1/checkouts',
      {
        entityId: m.entityId,
        merchantTransactionId: 'order-private-1',
        'customParameters[orderRef]': 'R-1',
        ...PERSONAL,
        ...params,
      },
      { token: m.token },
    );
    expect(res.status, res.text).toBe(200);
    return res.body.id;
  };
  const asMerchant = (path: string) => gw.get(path, { entityId: m.entityId }, { token: m.token });

  it('GET /payment answers only the result, ids, amount, currency, type, brand, merchantTransactionId, bin and last4Digits', async () => {
    const id = await create({ amount: '92.00', currency: 'EUR', paymentType: 'DB' });
    const paid = await gw.post(`/v1/checkouts/${id}/payment`, {
      ...CARD,
      'customParameters[SHOPPER_note]': 'for Jeanette',
    });
    expect(paid.status).toBe(200);

    const anonymous = await gw.get(`/v1/checkouts/${id}/payment`);
    expect(anonymous.status).toBe(200);
    expect(Object.keys(anonymous.body).sort()).toEqual(PAYMENT_KEYS);
    expect(anonymous.body).toMatchObject({
      id: paid.body.id,
      paymentType: 'DB',
      paymentBrand: 'VISA',
      amount: '92.00',
      currency: 'EUR',
      merchantTransactionId: 'order-private-1',
      card: { bin: '420000', last4Digits: '0000' },
      result: { code: '000.100.110' },
      shortId: paid.body.shortId,
      ndc: paid.body.ndc,
    });
    expectNothingPersonal(anonymous);

    // With credentials the answer is complete, as GET /v1/payments/{id}.
    const full = await asMerchant(`/v1/checkouts/${id}/payment`);
    expect(full.status).toBe(200);
    expect(full.body).toMatchObject({
      customer: { givenName: 'Jeanette', email: 'jeanette.private@example.com', ip: '203.0.113.77' },
      billing: { street1: 'Geheimweg 7' },
      shipping: { street1: 'Lieferstrasse 9' },
      card: { holder: HOLDER, expiryMonth: '07', expiryYear: '2031' },
      customParameters: { orderRef: 'R-1', SHOPPER_note: 'for Jeanette' },
    });
    const direct = await asMerchant(`/v1/payments/${paid.body.id}`);
    expect(full.text).toBe(direct.text);
  });

  it('the answer of a submission without credentials shows no personal data either, a decline included', async () => {
    const id = await create({ amount: '92.00', currency: 'EUR', paymentType: 'DB' });
    // An expired card: declined, the checkout stays open, and the decline is a payment answer.
    const declined = await gw.post(`/v1/checkouts/${id}/payment`, { ...CARD, 'card.expiryYear': '2020' });
    expect(declined.status).toBe(400);
    expect(declined.body.id).toMatch(/^[0-9a-f]{32}$/);
    expectNothingPersonal(declined);
    const anonymous = await gw.get(`/v1/checkouts/${id}/payment`);
    expect(anonymous.body.id).toBe(declined.body.id);
    expectNothingPersonal(anonymous);

    const paid = await gw.post(`/v1/checkouts/${id}/payment`, CARD);
    expect(paid.status).toBe(200);
    expect(Object.keys(paid.body).sort()).toEqual(PAYMENT_KEYS);
    expectNothingPersonal(paid);
    // The merchant's own submission (credentials sent) is answered in full.
    const other = await create({ amount: '92.00', currency: 'EUR', paymentType: 'DB' });
    const own = await gw.post(`/v1/checkouts/${other}/payment`, CARD, { token: m.token });
    expect(own.status).toBe(200);
    expect(own.body.customer.email).toBe('jeanette.private@example.com');
  });

  it('GET /registration answers the registration id, brand, bin and last4Digits only', async () => {
    const id = await create({ createRegistration: 'true' });
    const registered = await gw.post(`/v1/checkouts/${id}/registration`, CARD);
    expect(registered.status).toBe(200);
    expectNothingPersonal(registered);

    const anonymous = await gw.get(`/v1/checkouts/${id}/registration`);
    expect(anonymous.status).toBe(200);
    expect(Object.keys(anonymous.body).sort()).toEqual([
      'buildNumber',
      'card',
      'id',
      'ndc',
      'paymentBrand',
      'result',
      'timestamp',
    ]);
    expect(anonymous.body).toMatchObject({
      id: registered.body.id,
      paymentBrand: 'VISA',
      card: { bin: '420000', last4Digits: '0000' },
      result: { code: '000.100.110' },
    });
    expectNothingPersonal(anonymous);

    const full = await asMerchant(`/v1/checkouts/${id}/registration`);
    expect(full.status).toBe(200);
    expect(full.body.card).toMatchObject({ holder: HOLDER, expiryMonth: '07', expiryYear: '2031' });
    expect(full.body.customer.email).toBe('jeanette.private@example.com');
  });

  it('the widget session shows no personal data of the checkout', async () => {
    const id = await create({ amount: '92.00', currency: 'EUR', paymentType: 'DB' });
    const session = await gw.get(`/v1/checkouts/${id}/session`);
    expect(session.status).toBe(200);
    for (const secret of SECRETS) expect(session.text, secret).not.toContain(secret);
  });
});
