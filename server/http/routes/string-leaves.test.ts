/**
 * Every leaf of every JSON answer of the family API is a string, as in the family (decisions,
 * Fidelity): `card.regulatedFlag` is "Y" or "N", risk scores, counts, amounts and flags are text.
 * One walk over every answer shape: payments (DB, PA, CP, RF, RV, a pending 3-D Secure challenge
 * and a pending redirect with their parameters, a decline), registrations, checkouts (creation,
 * status before and after payment, the submission), stand-alone 3-D Secure, the Query API, a
 * schedule, the reconciliation aggregations, the result codes, refusals with parameterErrors, and
 * the notifications' payloads. Arrays and objects are walked; empty ones are fine.
 *
 * Two exceptions, both the family's own: `parameterErrors[].value` is null for a parameter that
 * was not sent (the family's captured refusals: `{name:"amount", value:null, …}`), and the
 * checkout's session (GET /v1/checkouts/{id}/session) is the widget's own document, not an answer
 * of the family API, and keeps its JSON types for the widget (its booleans and numbers).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settleDay } from '../../reporting/settlement-run';
import { type FakeClock, fakeClock } from '../../test-kit/clock';
import { SEPA_DIRECT_DEBIT } from '../../test-kit/fixtures/bank-accounts';
import { CARD_FIELDS, VISA_CARD, VISA_CARD_WITHOUT_CVV } from '../../test-kit/fixtures/cards';
import { BROWSER, CHALLENGE_CARD, FRICTIONLESS_CARD } from '../../test-kit/fixtures/three-d-secure';
import { type TestGateway, type TestMerchant, type TestResponse, testGateway } from '../../test-kit/gateway';
import { storedWebhook } from '../../test-kit/webhooks';

/** The paths of the leaves that are not strings (`parameterErrors[n].value` may be null). */
function nonStringLeaves(value: unknown, path = ''): string[] {
  if (typeof value === 'string') return [];
  if (value === null && /\.parameterErrors\[\d+\]\.value$/.test(path)) return [];
  if (Array.isArray(value)) return value.flatMap((item, i) => nonStringLeaves(item, `${path}[${i}]`));
  if (value !== null && typeof value === 'object')
    return Object.entries(value).flatMap(([k, v]) => nonStringLeaves(v, path === '' ? k : `${path}.${k}`));
  return [`${path}: ${JSON.stringify(value)}`];
}

describe('every leaf of a JSON answer is a string', () => {
  let clock: FakeClock;
  let gw: TestGateway;
  let m: TestMerchant;
  /** A channel that authenticates shoppers (3-D Secure on). */
  let secure: TestMerchant;
  /** Each answer by what it is, checked together at the end of each test. */
  const answers = new Map<string, unknown>();
  const keep = (name: string, res: TestResponse) => {
    expect(res.body, `${name}: ${res.text.slice(0, 300)}`).toBeTypeOf('object');
    answers.set(name, res.body);
    return res;
  };

  beforeAll(async () => {
    clock = fakeClock('2026-03-10T09:00:00.000Z');
    gw = await testGateway({ clock, settlement: { autoStart: false }, webhooks: { autoStart: false } });
    m = await gw.addMerchant({ channels: 1 });
    secure = await gw.addMerchant({ channels: 1, settings: { threeDSecure: true } });
    for (const who of [m, secure])
      await gw.store.insertWebhook(
        storedWebhook(who.merchantId, { types: ['PAYMENT', 'REGISTRATION', 'SCHEDULE', 'RISK'] }),
      );
  });
  afterAll(() => gw.cleanup());

  const post = (path: string, params: Record<string, string>, who = m) =>
    gw.post(path, { entityId: who.entityId, ...params }, { token: who.token });
  const get = (path: string, params: Record<string, string> = {}, who = m) =>
    gw.get(path, { entityId: who.entityId, ...params }, { token: who.token });
  const money = { amount: '92.00', currency: 'EUR' };

  it('payments: DB, PA, CP, RF, RV, pending, declined, and their reads', async () => {
    const db = keep('DB', await post('/v1/payments', { ...money, paymentType: 'DB', ...VISA_CARD }));
    const pa = keep('PA', await post('/v1/payments', { ...money, paymentType: 'PA', ...VISA_CARD }));
    keep('CP', await post(`/v1/payments/${pa.body.id}`, { ...money, paymentType: 'CP' }));
    keep(
      'RF',
      await post(`/v1/payments/${db.body.id}`, { amount: '1.00', currency: 'EUR', paymentType: 'RF' }),
    );
    const pa2 = await post('/v1/payments', { ...money, paymentType: 'PA', ...VISA_CARD });
    keep('RV', await post(`/v1/payments/${pa2.body.id}`, { paymentType: 'RV' }));
    keep(
      'declined',
      await post('/v1/payments', {
        ...money,
        paymentType: 'DB',
        ...VISA_CARD,
        'customParameters[forceResultCode]': '800.100.151',
      }),
    );
    keep('SEPA DB', await post('/v1/payments', { ...money, paymentType: 'DB', ...SEPA_DIRECT_DEBIT }));
    keep(
      'pending redirect',
      await post('/v1/payments', {
        ...money,
        paymentType: 'DB',
        paymentBrand: 'SOFORTUEBERWEISUNG',
        shopperResultUrl: 'https://shop.example/return',
      }),
    );
    const challenged = keep(
      'pending 3-D Secure challenge',
      await post(
        '/v1/payments',
        {
          ...money,
          paymentType: 'DB',
          ...VISA_CARD,
          'card.number': CHALLENGE_CARD,
          shopperResultUrl: 'https://shop.example/return',
          ...BROWSER,
        },
        secure,
      ),
    );
    expect(challenged.body.redirect?.parameters?.length).toBeGreaterThan(0);
    keep('GET payment', await get(`/v1/payments/${db.body.id}`));
    keep('GET pending payment', await get(`/v1/payments/${challenged.body.id}`, {}, secure));
    // the issuer's data of the simulator's BIN table: regulatedFlag as the family writes it
    expect(db.body.card.regulatedFlag).toMatch(/^[YN]$/);
  });

  it('registrations, checkouts, stand-alone 3-D Secure, the Query API and schedules', async () => {
    const reg = keep('registration', await post('/v1/registrations', VISA_CARD_WITHOUT_CVV));
    keep('GET registration', await get(`/v1/registrations/${reg.body.id}`));
    keep(
      'registration payment',
      await post(`/v1/registrations/${reg.body.id}/payments`, { ...money, paymentType: 'DB' }),
    );
    const checkout = keep('checkout', await post('/v1/checkouts', { ...money, paymentType: 'DB' }));
    const id = checkout.body.id as string;
    keep('checkout status (open)', await get(`/v1/checkouts/${id}/payment`));
    keep(
      'checkout submission',
      await gw.post(`/v1/checkouts/${id}/payment`, { paymentBrand: 'VISA', ...CARD_FIELDS }),
    );
    keep('checkout status (paid)', await get(`/v1/checkouts/${id}/payment`));
    keep('checkout status (public)', await gw.get(`/v1/checkouts/${id}/payment`));
    const threeDs = keep(
      'threeDSecure',
      await post('/v1/threeDSecure', {
        ...money,
        ...VISA_CARD_WITHOUT_CVV,
        'card.number': FRICTIONLESS_CARD,
        shopperResultUrl: 'https://shop.example/return',
        ...BROWSER,
      }),
    );
    keep('GET threeDSecure', await get(`/v1/threeDSecure/${threeDs.body.id}`));
    keep(
      'query list',
      await get('/v1/query', { 'date.from': '2026-03-10 00:00:00', 'date.to': '2026-03-10 23:59:59' }),
    );
    const db = await post('/v1/payments', { ...money, paymentType: 'DB', ...VISA_CARD });
    keep('query one', await get(`/v1/query/${db.body.id}`));
    keep('query linked', await get(`/v1/query/${db.body.id}`, { includeLinkedTransactions: 'true' }));
    const schedule = keep(
      'schedule',
      await post('/scheduling/v1/schedules', { registrationId: reg.body.id, ...money, paymentType: 'DB' }),
    );
    keep('GET schedule', await get(`/scheduling/v1/schedules/${schedule.body.id}`));
  });

  it('reconciliation aggregations, result codes and refusals', async () => {
    clock.advance(86_400_000);
    await settleDay({ store: gw.store, clock, dataDir: gw.dataDir }, '2026-03-10');
    const range = { 'date.from': '2026-03-10', 'date.to': '2026-03-10' };
    const list = keep('aggregations', await get('/reports/v1/reconciliations/aggregations', range));
    expect(list.body.aggregations.length).toBeGreaterThan(0);
    const first = list.body.aggregations[0].id as string;
    keep('aggregation', await get(`/reports/v1/reconciliations/aggregations/${first}`));
    keep('resultcodes', await gw.get('/v1/resultcodes'));
    keep('parameterErrors', await post('/v1/payments', { amount: '-1', paymentType: 'XX' }));
    keep('unknown path', await gw.get('/v1/nothing-here', {}, { token: m.token }));
  });

  it('notifications: every payload', async () => {
    for (const who of [m, secure]) {
      const deliveries = await gw.store.listDeliveries(who.merchantId, { limit: 1000 });
      expect(deliveries.length).toBeGreaterThan(0);
      for (const d of deliveries)
        answers.set(`${d.notification.type} ${d.notification.action} #${d.seq}`, d.notification.payload);
    }
    // the payload is the API's answer (its envelope aside), the card's issuer fields with it
    const { buildNumber: _b, timestamp: _t, ...debit } = answers.get('DB') as Record<string, unknown>;
    const deliveries = await gw.store.listDeliveries(m.merchantId, { limit: 1000 });
    const created = deliveries.find(
      (d) => d.notification.payload.id === debit.id && d.notification.action === 'CREATED',
    );
    expect(created?.notification.payload).toMatchObject(debit);
  });

  it('none of them has a leaf that is not a string', () => {
    expect(answers.size).toBeGreaterThan(30);
    const bad = [...answers].flatMap(([name, body]) =>
      nonStringLeaves(body).map((leaf) => `${name}: ${leaf}`),
    );
    expect(bad).toEqual([]);
  });
});
