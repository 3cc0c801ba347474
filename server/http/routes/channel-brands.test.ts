/**
 * What a channel accepts, through the public interfaces: channels configured with the admin API
 * (brands, currencies, the merchant's bank account; field-by-field validation), then payments,
 * registrations, registration payments, schedules and checkouts on them. A brand the channel does
 * not accept is refused with 600.200.201 (after the unknown brand's 600.200.100, before missing
 * account data), a currency with 600.200.500; a checkout's submission refused so stays open; the
 * widget's session names the accepted brands; a PREPAYMENT answer carries merchant.bankAccount,
 * whose IBAN is sealed at rest; testMode=EXTERNAL without a connector is refused when the checkout
 * is created (600.200.700), nothing stored.
 */
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SQLITE_FILE } from '../../storage/open';
import { IBAN } from '../../test-kit/fixtures/bank-accounts';
import { CARD_FIELDS } from '../../test-kit/fixtures/cards';
import { ADMIN_TOKEN } from '../../test-kit/fixtures/tokens';
import { type TestGateway, type TestMerchant, type TestResponse, testGateway } from '../../test-kit/gateway';

const SHOP = 'https://shop.example/return';
/** The card fields a checkout submits (no brand: the number's). */
const VISA = CARD_FIELDS;
const AMEX = { ...VISA, 'card.number': '377777777777770', 'card.cvv': '1234' } as const;
const ACCOUNT = {
  holder: 'Shop One GmbH',
  iban: IBAN,
  bic: 'COBADEFFXXX',
  bankName: 'Commerzbank',
  country: 'DE',
};

const NOT_ACCEPTED = {
  code: '600.200.201',
  description: 'Channel/Merchant not configured for this payment method',
};
const CURRENCY_NOT_ACCEPTED = {
  code: '600.200.500',
  description:
    'Invalid payment data. You are not configured for this currency or sub type (country or brand)',
};

// biome-ignore lint/suspicious/noExplicitAny: admin answers are read field by field
type Json = any;

describe('channels accept brands and currencies', () => {
  let gw: TestGateway;
  /** channel 0: every brand (as before); `restricted`: VISA MASTER MADA in EUR SAR (admin API). */
  let m: TestMerchant;
  let restricted: string;

  const admin = (method: string, path: string, body?: object) =>
    gw.send(method, path, body === undefined ? undefined : JSON.stringify(body), {
      headers: { Authorization: `Bearer ${ADMIN_TOKEN}`, 'Content-Type': 'application/json' },
    });
  const pay = (params: Record<string, string>, entityId = restricted) =>
    gw.post(
      '/v1/payments',
      { entityId, amount: '10.00', currency: 'EUR', paymentType: 'DB', ...params },
      { token: m.token },
    );
  const createCheckout = (params: Record<string, string> = {}, entityId = restricted) =>
    gw.post(
      '/v1/checkouts',
      { entityId, amount: '92.00', currency: 'EUR', paymentType: 'DB', shopperResultUrl: SHOP, ...params },
      { token: m.token },
    );
  const result = (res: TestResponse) => ({
    code: res.body.result.code,
    description: res.body.result.description,
  });

  beforeAll(async () => {
    gw = await testGateway({
      env: { GATEWAY_ADMIN_TOKEN: ADMIN_TOKEN },
      scheduler: { autoStart: false },
      pending: { autoStart: false },
      notifier: { autoStart: false },
      webhooks: { autoStart: false },
    });
    m = await gw.addMerchant({ channels: 1 });
    // Created before any request, so the gateway's short channel cache has not seen the merchant yet.
    const created = await admin('POST', `/admin/v1/merchants/${m.merchantId}/channels`, {
      name: 'Riyadh web shop',
      brands: ['VISA', 'MASTER', 'MADA'],
      currencies: 'EUR SAR',
    });
    expect(created.status, created.text).toBe(201);
    restricted = created.body.entityId;
  });
  afterAll(() => gw?.cleanup());

  describe('server-to-server', () => {
    it('pays with an accepted brand', async () => {
      const res = await pay({ paymentBrand: 'VISA', ...VISA });
      expect(res.status, res.text).toBe(200);
      expect(res.body.result.code).toBe('000.100.110');
    });

    it('refuses a known brand the channel does not accept with 600.200.201, recorded like any refusal', async () => {
      const res = await pay({ paymentBrand: 'AMEX', ...AMEX });
      expect(res.status, res.text).toBe(400);
      expect(result(res)).toEqual(NOT_ACCEPTED);
      expect(res.body.id).toMatch(/^[0-9a-f]{32}$/);
      expect(res.text).not.toContain(AMEX['card.number']);
      // every brand on the channel that does not restrict them
      const elsewhere = await pay({ paymentBrand: 'AMEX', ...AMEX }, m.entityId);
      expect(elsewhere.status, elsewhere.text).toBe(200);
    });

    it('an unknown brand stays 600.200.100; an accepted one without its account data 400', async () => {
      // (the engine's order, unknown → not accepted → account data, is in shared/engine/channel-acceptance.test.ts;
      // over HTTP the parameter model names missing account data before any channel is consulted)
      expect((await pay({ paymentBrand: 'NOPE_PAY' })).body.result.code).toBe('600.200.100');
      const missing = await pay({ paymentBrand: 'MASTER' });
      expect(missing.status).toBe(400);
      expect(missing.body.result.code).toBe('200.300.404');
    });

    it('refuses a currency the channel does not accept with 600.200.500', async () => {
      const res = await pay({ paymentBrand: 'VISA', ...VISA, currency: 'USD' });
      expect(res.status, res.text).toBe(400);
      expect(result(res)).toEqual(CURRENCY_NOT_ACCEPTED);
      const sar = await pay({ paymentBrand: 'VISA', ...VISA, currency: 'SAR' });
      expect(sar.body.result.code).toBe('000.100.110');
    });

    it('refuses registrations, registration payments and schedules of a brand or currency not accepted', async () => {
      const registration = await gw.post(
        '/v1/registrations',
        { entityId: restricted, paymentBrand: 'AMEX', ...AMEX },
        { token: m.token },
      );
      expect(registration.status, registration.text).toBe(400);
      expect(result(registration)).toEqual(NOT_ACCEPTED);

      // an AMEX registration of the same merchant, made on the channel that takes every brand
      const amex = await gw.post(
        '/v1/registrations',
        { entityId: m.entityId, paymentBrand: 'AMEX', ...AMEX },
        { token: m.token },
      );
      expect(amex.status, amex.text).toBe(200);
      const payWith = (id: string, currency = 'EUR') =>
        gw.post(
          `/v1/registrations/${id}/payments`,
          { entityId: restricted, amount: '5.00', currency, paymentType: 'DB' },
          { token: m.token },
        );
      const amexPayment = await payWith(amex.body.id);
      expect(amexPayment.status, amexPayment.text).toBe(400);
      expect(result(amexPayment)).toEqual(NOT_ACCEPTED);

      const visa = await gw.post(
        '/v1/registrations',
        { entityId: restricted, paymentBrand: 'VISA', ...VISA },
        { token: m.token },
      );
      expect(visa.status, visa.text).toBe(200);
      expect((await payWith(visa.body.id)).body.result.code).toBe('000.100.110');
      expect(result(await payWith(visa.body.id, 'USD'))).toEqual(CURRENCY_NOT_ACCEPTED);

      const schedule = (registrationId: string, currency = 'EUR') =>
        gw.post(
          '/scheduling/v1/schedules',
          {
            entityId: restricted,
            amount: '9.99',
            currency,
            paymentType: 'DB',
            registrationId,
            'job.expression': '0 0 6 1 * ?',
          },
          { token: m.token },
        );
      const amexSchedule = await schedule(amex.body.id);
      expect(amexSchedule.status, amexSchedule.text).toBe(400);
      expect(result(amexSchedule)).toEqual(NOT_ACCEPTED);
      expect(result(await schedule(visa.body.id, 'USD'))).toEqual(CURRENCY_NOT_ACCEPTED);
      const visaSchedule = await schedule(visa.body.id);
      expect(visaSchedule.status, visaSchedule.text).toBe(200);
    });
  });

  describe('checkouts', () => {
    it('names the accepted brands in the session; a channel that does not restrict them names all it can take', async () => {
      const id = (await createCheckout()).body.id;
      const session = await gw.get(`/v1/checkouts/${id}/session`);
      expect(session.status, session.text).toBe(200);
      expect(session.body.brands).toEqual(['VISA', 'MASTER', 'MADA']);

      // a stored AMEX registration is not offered for one-click where AMEX is not accepted
      const amex = await gw.post(
        '/v1/registrations',
        { entityId: m.entityId, paymentBrand: 'AMEX', ...AMEX },
        { token: m.token },
      );
      expect(amex.status, amex.text).toBe(200);
      const oneClick = (await createCheckout({ 'registrations[0].id': amex.body.id })).body.id;
      expect((await gw.get(`/v1/checkouts/${oneClick}/session`)).body.registrations).toEqual([]);

      const open = (await createCheckout({ 'registrations[0].id': amex.body.id }, m.entityId)).body.id;
      const all = await gw.get(`/v1/checkouts/${open}/session`);
      expect(all.status).toBe(200);
      // every brand but those paid to the merchant's account, which this channel has none of
      // (merchant-account-brands.test.ts)
      expect(all.body.brands).toContain('AMEX');
      expect(all.body.brands).not.toContain('PREPAYMENT');
      expect(all.body.registrations.map((r: Json) => r.id)).toEqual([amex.body.id]);
    });

    it('refuses a submission of a brand not accepted (600.200.201); the checkout stays open, then VISA pays it', async () => {
      const id = (await createCheckout()).body.id;
      const refused = await gw.post(`/v1/checkouts/${id}/payment`, { paymentBrand: 'AMEX', ...AMEX });
      expect(refused.status, refused.text).toBe(400);
      expect(result(refused)).toEqual(NOT_ACCEPTED);
      const status = await gw.get(
        `/v1/checkouts/${id}/payment`,
        { entityId: restricted },
        { token: m.token },
      );
      expect(status.body.result.code).toBe('600.200.201'); // the latest attempt, still open
      const session = await gw.get(`/v1/checkouts/${id}/session`);
      expect(session.body.state).toBe('open');

      // as the widget submits a card: no paymentBrand, the gateway detects AMEX from the number
      const detected = await gw.post(`/v1/checkouts/${id}/payment`, { ...AMEX });
      expect(result(detected)).toEqual(NOT_ACCEPTED);

      const paid = await gw.post(`/v1/checkouts/${id}/payment`, { paymentBrand: 'VISA', ...VISA });
      expect(paid.status, paid.text).toBe(200);
      expect(paid.body.result.code).toBe('000.100.110');
    });

    it('refuses at creation a paymentBrand or a currency the channel does not accept, nothing stored', async () => {
      const before = checkoutCount(gw);
      const brand = await createCheckout({ paymentBrand: 'AMEX' });
      expect(brand.status, brand.text).toBe(400);
      expect(result(brand)).toEqual(NOT_ACCEPTED);
      expect(brand.body.id).toBeUndefined();
      const currency = await createCheckout({ currency: 'USD' });
      expect(currency.status, currency.text).toBe(400);
      expect(result(currency)).toEqual(CURRENCY_NOT_ACCEPTED);
      expect(checkoutCount(gw)).toBe(before);
      expect((await createCheckout({ paymentBrand: 'MADA', currency: 'SAR' })).status).toBe(200);
    });

    it('refuses testMode=EXTERNAL on a channel without a connector when the checkout is created (600.200.700)', async () => {
      const before = checkoutCount(gw);
      const res = await createCheckout({ testMode: 'EXTERNAL' }, m.entityId);
      expect(res.status, res.text).toBe(400);
      expect(result(res)).toEqual({
        code: '600.200.700',
        description: 'invalid payment mode (you are not configured for the requested transaction mode)',
      });
      expect(res.body.id).toBeUndefined();
      expect(checkoutCount(gw)).toBe(before);
      // INTERNAL, the default, as before
      expect((await createCheckout({ testMode: 'INTERNAL' }, m.entityId)).status).toBe(200);
    });
  });

  describe('the admin API', () => {
    const channels = (merchantId = m.merchantId) => `/admin/v1/merchants/${merchantId}/channels`;

    it('lists, reads and updates a channel; only the fields given change', async () => {
      const list = await admin('GET', channels());
      expect(list.status, list.text).toBe(200);
      const listed = list.body.channels as Json[];
      expect(listed.map((c) => c.entityId)).toEqual([m.entityId, restricted]);
      expect(listed[0]).toMatchObject({ brands: null, currencies: null, bankAccount: null });
      expect(listed[1]).toMatchObject({
        entityId: restricted,
        merchantId: m.merchantId,
        name: 'Riyadh web shop',
        mode: 'TEST',
        brands: ['VISA', 'MASTER', 'MADA'],
        currencies: ['EUR', 'SAR'],
        bankAccount: null,
      });

      const created = await admin('POST', channels(), { name: 'Second', threeDSecure: true, brands: 'VISA' });
      expect(created.status, created.text).toBe(201);
      const id = created.body.entityId;
      expect(created.body.result.code).toBe('000.000.100');

      const updated = await admin('PATCH', `/admin/v1/channels/${id}`, {
        currencies: ['EUR'],
        bankAccount: ACCOUNT,
      });
      expect(updated.status, updated.text).toBe(200);
      expect(updated.body).toMatchObject({
        entityId: id,
        threeDSecure: true,
        brands: ['VISA'],
        currencies: ['EUR'],
        bankAccount: { holder: 'Shop One GmbH', bic: 'COBADEFFXXX', bankName: 'Commerzbank', country: 'DE' },
      });
      // the IBAN is shown masked, never in full
      expect(updated.body.bankAccount.iban).toBe('DE89**************3000');
      expect(updated.text).not.toContain(IBAN);

      const all = await admin('PATCH', `/admin/v1/channels/${id}`, { brands: 'all', bankAccount: null });
      expect(all.status, all.text).toBe(200);
      const read = await admin('GET', `/admin/v1/channels/${id}`);
      expect(read.status).toBe(200);
      expect(read.body).toMatchObject({
        brands: null,
        currencies: ['EUR'],
        bankAccount: null,
        threeDSecure: true,
      });
    });

    it('validates field by field: 400 naming each field, the IBAN never echoed in full', async () => {
      const res = await admin('POST', channels(), {
        brands: ['VISA', 'NOPE_PAY'],
        currencies: ['EUR', 'EURO'],
        bankAccount: { holder: 'Shop', iban: 'DE89370400440532013001', bic: 'nope' },
        connector: { baseUrl: 'https://other.example' },
      });
      expect(res.status, res.text).toBe(400);
      expect(res.body.result.code).toBe('200.300.404');
      const errors = res.body.result.parameterErrors as Json[];
      expect(errors.map((e) => e.name).sort()).toEqual(
        // the admin API takes a connector now (issue 33): an opp one without its entity and token names both
        [
          'bankAccount.bic',
          'bankAccount.iban',
          'brands',
          'connector.accessToken',
          'connector.entityId',
          'currencies',
          'name',
        ].sort(),
      );
      expect(errors.find((e) => e.name === 'brands').message).toContain('NOPE_PAY');
      expect(errors.find((e) => e.name === 'currencies').message).toContain('EURO');
      expect(res.text).not.toContain('DE89370400440532013001');

      const empty = await admin('PATCH', `/admin/v1/channels/${restricted}`, { brands: [] });
      expect(empty.status).toBe(400);
      expect(empty.body.result.parameterErrors[0].name).toBe('brands');
      const renamed = await admin('PATCH', `/admin/v1/channels/${restricted}`, { name: 'x' });
      expect(renamed.status).toBe(400);
      expect(renamed.body.result.parameterErrors[0].name).toBe('name');
    });

    it('answers 404 for unknown merchants and channels, 401 without the admin token', async () => {
      expect((await admin('GET', channels('0'.repeat(32)))).status).toBe(404);
      expect((await admin('GET', '/admin/v1/channels/0123456789abcdef0123456789abcdef')).status).toBe(404);
      expect((await admin('PATCH', '/admin/v1/channels/nope', { brands: 'VISA' })).status).toBe(404);
      expect((await gw.get(channels())).status).toBe(401);
      expect((await gw.get(channels(), {}, { token: m.token })).status).toBe(401);
    });
  });
});

describe("a PREPAYMENT channel answers the merchant's bank account", () => {
  let gw: TestGateway;

  beforeAll(async () => {
    gw = await testGateway({ env: { GATEWAY_ADMIN_TOKEN: ADMIN_TOKEN } });
  });
  afterAll(() => gw?.cleanup());

  it('as merchant.bankAccount in the answer and the read; the IBAN sealed in every data file', async () => {
    const m = await gw.addMerchant({ channels: 1 });
    const created = await gw.send(
      'POST',
      `/admin/v1/merchants/${m.merchantId}/channels`,
      JSON.stringify({ name: 'Prepayment', brands: ['PREPAYMENT', 'VISA'], bankAccount: ACCOUNT }),
      { headers: { Authorization: `Bearer ${ADMIN_TOKEN}`, 'Content-Type': 'application/json' } },
    );
    expect(created.status, created.text).toBe(201);
    const entityId = created.body.entityId;

    const paid = await gw.post(
      '/v1/payments',
      { entityId, amount: '120.00', currency: 'EUR', paymentType: 'DB', paymentBrand: 'PREPAYMENT' },
      { token: m.token },
    );
    expect(paid.status, paid.text).toBe(200);
    const expected = {
      holder: 'Shop One GmbH',
      number: IBAN,
      bic: 'COBADEFFXXX',
      bankName: 'Commerzbank',
      country: 'DE',
    };
    expect(paid.body.merchant).toEqual({ bankAccount: expected });
    const read = await gw.get(`/v1/payments/${paid.body.id}`, { entityId }, { token: m.token });
    expect(read.status, read.text).toBe(200);
    expect(read.body.merchant.bankAccount).toEqual(expected);

    // a card payment on the same channel does not carry it
    const card = await gw.post(
      '/v1/payments',
      { entityId, amount: '1.00', currency: 'EUR', paymentType: 'DB', paymentBrand: 'VISA', ...VISA },
      { token: m.token },
    );
    expect(card.status, card.text).toBe(200);
    expect(card.body.merchant).toBeUndefined();

    const spellings = [IBAN, IBAN.toLowerCase(), IBAN.replace(/(.{4})(?!$)/g, '$1 '), IBAN.slice(4)];
    const findings = async () => {
      const found: string[] = [];
      for (const f of await gw.dataFiles())
        for (const s of spellings) if (f.bytes.includes(Buffer.from(s))) found.push(`${s} in ${f.path}`);
      return found;
    };
    expect(await findings()).toEqual([]); // with the WAL present
    await gw.close();
    expect(await findings()).toEqual([]); // after the checkpoint on close
  });
});

/** Checkouts stored, read straight from the SQLite file. */
function checkoutCount(gw: TestGateway): number {
  const db = new BetterSqlite3(join(gw.dataDir, SQLITE_FILE), { readonly: true });
  try {
    return (db.prepare('SELECT COUNT(*) AS n FROM checkouts').get() as { n: number }).n;
  } finally {
    db.close();
  }
}
