/**
 * /v1/payments at the HTTP level, through Hono's in-process `app.request` on a gateway started
 * with `startGateway` (SQLite in a temporary folder; one block repeats the core on PostgreSQL).
 * Tests marked "Regression" pin bugs this suite found and that are fixed.
 */
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { SQLITE_FILE } from '../../storage/open';
import { PAN, VISA_CARD } from '../../test-kit/fixtures/cards';
import {
  TEST_COMMIT,
  type TestGateway,
  type TestMerchant,
  type TestResponse,
  testGateway,
} from '../../test-kit/gateway';
import { type PostgresCluster, postgresUnavailableReason, startPostgres } from '../../test-kit/postgres';

const CVV = '987';
const CARD = { ...VISA_CARD, 'card.cvv': CVV } as const;

const BUILD_NUMBER = `${TEST_COMMIT}@2026-11-21 10:00:00 +0000`;
const TIMESTAMP = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\+0000$/;
const HEX32 = /^[0-9a-f]{32}$/;

/** The envelope every JSON response carries (decisions, Wire format). */
function expectEnvelope(res: TestResponse): void {
  expect(res.headers.get('content-type')).toBe('application/json;charset=UTF-8');
  expect(res.headers.get('cache-control')).toBe('private, no-cache, no-store');
  expect(res.body.result.code).toMatch(/^\d{3}\.\d{3}\.\d{3}$/);
  expect(typeof res.body.result.description).toBe('string');
  expect(res.body.buildNumber).toBe(BUILD_NUMBER);
  expect(res.body.timestamp).toMatch(TIMESTAMP);
  // The timestamp is UTC and current.
  const at = Date.parse(res.body.timestamp.replace(' ', 'T').replace('+0000', 'Z'));
  expect(Math.abs(at - Date.now())).toBeLessThan(60_000);
  expect(typeof res.body.ndc).toBe('string');
}

function expectParameterError(res: TestResponse, name: string): void {
  expect(res.status).toBe(400);
  expectEnvelope(res);
  expect(res.body.result.code).toBe('200.300.404');
  expect(res.body.result.parameterErrors).toEqual(
    expect.arrayContaining([expect.objectContaining({ name, message: expect.any(String) })]),
  );
}

describe('/v1/payments over HTTP (SQLite)', () => {
  let gw: TestGateway;
  let m: TestMerchant;

  beforeAll(async () => {
    gw = await testGateway();
    m = await gw.addMerchant({ channels: 1 });
  });
  afterAll(async () => {
    await gw?.cleanup();
  });

  /** An initial card payment on the merchant's first channel. */
  const pay = (extra: Record<string, string> = {}, merchant: TestMerchant = m) =>
    gw.post(
      '/v1/payments',
      { entityId: merchant.entityId, amount: '92.00', currency: 'EUR', paymentType: 'DB', ...CARD, ...extra },
      { token: merchant.token },
    );
  /** A referencing request (CP, RF, RV …) against a payment. */
  const reference = (id: string, params: Record<string, string>, merchant: TestMerchant = m) =>
    gw.post(
      `/v1/payments/${id}`,
      { entityId: merchant.entityId, currency: 'EUR', ...params },
      { token: merchant.token },
    );
  const status = (id: string, merchant: TestMerchant = m) =>
    gw.get(`/v1/payments/${id}`, { entityId: merchant.entityId }, { token: merchant.token });

  describe('initial payments', () => {
    it('debits the standard test card with exactly 000.100.110 and the full envelope', async () => {
      const res = await pay({ merchantTransactionId: 'order-4711' });
      expect(res.status).toBe(200);
      expectEnvelope(res);
      expect(res.body.result.code).toBe('000.100.110');
      expect(res.body.id).toMatch(HEX32);
      expect(res.body.paymentType).toBe('DB');
      expect(res.body.paymentBrand).toBe('VISA');
      expect(res.body.amount).toBe('92.00');
      expect(res.body.currency).toBe('EUR');
      expect(res.body.merchantTransactionId).toBe('order-4711');
      expect(res.body.card).toMatchObject({
        bin: '420000',
        last4Digits: '0000',
        holder: 'Jane Jones',
        expiryMonth: '05',
        expiryYear: '2034',
      });
      expect(res.body.card.number).toBeUndefined();
      expect(res.body.card.cvv).toBeUndefined();
      expect(res.text).not.toContain(PAN);
      expect(res.text).not.toContain(`"${CVV}"`);
      expect(res.text).not.toContain('"cvv"');
      expect(res.body.ndc).toMatch(new RegExp(`^${m.entityId}-[0-9a-f]{32}$`));
      expect(res.body.buildNumber).toMatch(/^[0-9a-f]{40}@\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} \+0000$/);
    });

    it('declines a forced result code with HTTP 400 and that code', async () => {
      const res = await pay({ 'customParameters[forceResultCode]': '800.100.151' });
      expect(res.status).toBe(400);
      expectEnvelope(res);
      expect(res.body.result.code).toBe('800.100.151');
      expect(res.body.id).toMatch(HEX32);
      expect(res.text).not.toContain(PAN);
    });

    it('declines 4444444444444444 (fails Luhn) with HTTP 400 and 100.100.101', async () => {
      const res = await pay({ 'card.number': '4444444444444444' });
      expect(res.status).toBe(400);
      expectEnvelope(res);
      expect(res.body.result.code).toBe('100.100.101');
      expect(res.text).not.toContain('4444444444444444');
    });

    it('refuses testMode=EXTERNAL on a channel without a connector with 600.200.201, never simulating', async () => {
      const res = await pay({ testMode: 'EXTERNAL' });
      expect(res.status).toBe(400);
      expectEnvelope(res);
      expect(res.body.result.code).toBe('600.200.201');
      expect(res.body.result.code.startsWith('000.')).toBe(false);
    });

    // The response amount is DEC2 (spec: "amount | DEC2 | Amount approved"): what was sent as DEC2
    // comes back as sent; shorter forms come back with their two decimals.
    it.each([
      ['12.50', '12.50'],
      ['100', '100.00'],
      ['00.01', '0.01'],
    ])('answers amount %s as the DEC2 %s', async (sent, answered) => {
      const res = await pay({ amount: sent });
      expect(res.status).toBe(200);
      expect(res.body.amount).toBe(answered);
    });
  });

  describe('referencing: captures, refunds, reversals', () => {
    it('PA, two partial CPs and an RF, each readable by GET; the limits refuse with 700.400.x', async () => {
      const pa = await pay({ paymentType: 'PA', amount: '100.00' });
      expect(pa.status).toBe(200);
      expect(pa.body.result.code).toBe('000.100.110');

      const cp1 = await reference(pa.body.id, { paymentType: 'CP', amount: '30.00' });
      expect(cp1.status).toBe(200);
      expectEnvelope(cp1);
      expect(cp1.body).toMatchObject({
        paymentType: 'CP',
        amount: '30.00',
        currency: 'EUR',
        referencedId: pa.body.id,
        result: { code: '000.100.110' },
      });
      expect(cp1.body.ndc).toMatch(new RegExp(`^${m.entityId}-[0-9a-f]{32}$`));

      const cp2 = await reference(pa.body.id, { paymentType: 'CP', amount: '50.00' });
      expect(cp2.status).toBe(200);
      expect(cp2.body).toMatchObject({ paymentType: 'CP', amount: '50.00', result: { code: '000.100.110' } });

      // 80.00 of 100.00 captured: 30.00 more is over the authorization.
      const cp3 = await reference(pa.body.id, { paymentType: 'CP', amount: '30.00' });
      expect(cp3.status).toBe(400);
      expect(cp3.body.result.code).toBe('700.400.100');

      const rf = await reference(cp1.body.id, { paymentType: 'RF', amount: '20.00' });
      expect(rf.status).toBe(200);
      expect(rf.body).toMatchObject({
        paymentType: 'RF',
        amount: '20.00',
        referencedId: cp1.body.id,
        result: { code: '000.100.110' },
      });

      // 10.00 of the 30.00 capture is left to refund.
      const rfOver = await reference(cp1.body.id, { paymentType: 'RF', amount: '20.00' });
      expect(rfOver.status).toBe(400);
      expect(rfOver.body.result.code).toBe('700.400.200');

      // A full reversal: no amount, no currency.
      const rv = await gw.post(
        `/v1/payments/${pa.body.id}`,
        { entityId: m.entityId, paymentType: 'RV' },
        { token: m.token },
      );
      expect(rv.status).toBe(400);
      expect(rv.body.result.code).toBe('700.400.300');

      for (const [res, type, amount, code] of [
        [pa, 'PA', '100.00', '000.100.110'],
        [cp1, 'CP', '30.00', '000.100.110'],
        [cp2, 'CP', '50.00', '000.100.110'],
        [cp3, 'CP', '30.00', '700.400.100'],
        [rf, 'RF', '20.00', '000.100.110'],
        [rfOver, 'RF', '20.00', '700.400.200'],
      ] as const) {
        const got = await status(res.body.id);
        expect(got.status).toBe(code === '000.100.110' ? 200 : 400);
        expectEnvelope(got);
        expect(got.body).toMatchObject({ id: res.body.id, paymentType: type, amount, result: { code } });
        expect(got.body.ndc).toBe(res.body.ndc);
        if (type !== 'PA') expect(got.body.referencedId).toBeDefined();
        expect(got.text).not.toContain(PAN);
      }
    });

    it('refuses a CP against a DB with 700.400.510', async () => {
      const db = await pay();
      const cp = await reference(db.body.id, { paymentType: 'CP', amount: '10.00' });
      expect(cp.status).toBe(400);
      expectEnvelope(cp);
      expect(cp.body.result.code).toBe('700.400.510');
    });

    it('closes the authorization with sequence=FINAL', async () => {
      const pa = await pay({ paymentType: 'PA', amount: '100.00' });
      const last = await reference(pa.body.id, { paymentType: 'CP', amount: '40.00', sequence: 'FINAL' });
      expect(last.status).toBe(200);
      expect(last.body.result.code).toBe('000.100.110');
      const after = await reference(pa.body.id, { paymentType: 'CP', amount: '10.00' });
      expect(after.status).toBe(400);
      expect(after.body.result.code).toBe('700.400.100');
    });

    it('limits the captures to numberOfCaptures', async () => {
      const pa = await pay({ paymentType: 'PA', amount: '100.00', numberOfCaptures: '1' });
      expect(pa.status).toBe(200);
      const first = await reference(pa.body.id, { paymentType: 'CP', amount: '10.00' });
      expect(first.status).toBe(200);
      const second = await reference(pa.body.id, { paymentType: 'CP', amount: '10.00' });
      expect(second.status).toBe(400);
      expect(second.body.result.code).toBe('700.400.100');
    });

    // Regression (race, money): POST /v1/payments/{PA of 100.00} twice at once, each
    // `paymentType=CP&amount=60.00&currency=EUR`: both answer 200 with 000.100.110, so 120.00
    // is captured on a 100.00 authorization. referencePayment reads the referenced payment and
    // its children, then inserts, with nothing serialising requests on the same payment. Expected:
    // one 000.100.110, the other 700.400.100. The same holds for parallel RFs.
    it('never captures more than authorized when captures arrive together', async () => {
      const pa = await pay({ paymentType: 'PA', amount: '100.00' });
      const results = await Promise.all([
        reference(pa.body.id, { paymentType: 'CP', amount: '60.00' }),
        reference(pa.body.id, { paymentType: 'CP', amount: '60.00' }),
      ]);
      expect(results.map((r) => r.body.result.code).sort()).toEqual(['000.100.110', '700.400.100']);
    });
  });

  describe('400: parameter errors', () => {
    it('names a badly formatted amount (12.5)', async () => {
      const res = await pay({ amount: '12.5' });
      expectParameterError(res, 'amount');
      expect(res.body.result.parameterErrors).toContainEqual(expect.objectContaining({ value: '12.5' }));
      expect(res.text).not.toContain(PAN);
    });

    it('names a missing required parameter (paymentType)', async () => {
      const res = await gw.post(
        '/v1/payments',
        { entityId: m.entityId, amount: '92.00', currency: 'EUR', ...CARD },
        { token: m.token },
      );
      expectParameterError(res, 'paymentType');
      expect(res.body.result.parameterErrors).toContainEqual({
        name: 'paymentType',
        value: null,
        message: expect.any(String),
      });
    });

    it('names an unknown parameter (card.numbr) and masks the number it holds', async () => {
      const res = await gw.post(
        '/v1/payments',
        {
          entityId: m.entityId,
          amount: '92.00',
          currency: 'EUR',
          paymentType: 'DB',
          ...CARD,
          'card.numbr': PAN,
        },
        { token: m.token },
      );
      expectParameterError(res, 'card.numbr');
      expect(res.text).not.toContain(PAN);
    });

    it('refuses a referencing type (RF without referenceUuid) on /v1/payments, naming paymentType', async () => {
      const res = await gw.post(
        '/v1/payments',
        { entityId: m.entityId, amount: '12.50', currency: 'EUR', paymentType: 'RF' },
        { token: m.token },
      );
      expectParameterError(res, 'paymentType');
      expect(res.body.result.parameterErrors).toContainEqual(
        expect.objectContaining({ name: 'paymentType', value: 'RF' }),
      );
    });

    // Regression: a form body holding the character U+FFFD as raw UTF-8 (bytes EF BF BD, valid UTF-8) is
    // taken for invalid UTF-8. POST /v1/payments with a valid DB body plus
    // `&customer.givenName=Jo\uFFFDn` (raw) → HTTP 400, result.code 200.300.404 with
    // "parameterErrors":[] (no parameter named). The same body percent-encoded (%EF%BF%BD) → 200.
    // The check also runs before authentication: with no Authorization header the answer is the
    // same 400, not 401. Expected: the payment (200), as for the percent-encoded form.
    it('accepts a raw U+FFFD character in a text field', async () => {
      const body = new URLSearchParams({
        entityId: m.entityId,
        amount: '10.00',
        currency: 'EUR',
        paymentType: 'DB',
        ...CARD,
      }).toString();
      const res = await gw.post(
        '/v1/payments',
        `${body}&customer.givenName=Jo\uFFFDn&customer.surname=Jones`,
        { token: m.token },
      );
      expect(res.status).toBe(200);
    });
  });

  describe('401 and 403: credentials', () => {
    it('401 without any credentials', async () => {
      const res = await gw.post('/v1/payments', { entityId: m.entityId, amount: '1.00', currency: 'EUR' });
      expect(res.status).toBe(401);
      expectEnvelope(res);
    });

    it('401 for Authorization: Basic', async () => {
      const basic = `Basic ${Buffer.from(`${m.userId}:${m.secret}`).toString('base64')}`;
      const res = await gw.get(`/v1/payments/${'0'.repeat(32)}`, {}, { headers: { Authorization: basic } });
      expect(res.status).toBe(401);
      expectEnvelope(res);
    });

    it('401 for a malformed Authorization header', async () => {
      for (const value of ['Bearer', `Bearer ${m.token} extra`, `Basic ${m.token}`]) {
        const res = await gw.get(`/v1/payments/${'0'.repeat(32)}`, {}, { headers: { Authorization: value } });
        expect(res.status, value).toBe(401);
        expectEnvelope(res);
      }
    });

    it('403 for a well-formed Bearer whose token names no one (Bearer nope), as the family answers', async () => {
      for (const value of ['Bearer nope', 'Bearer !!!not-base64', 'Bearer bm9iYXI=']) {
        const res = await gw.get(`/v1/payments/${'0'.repeat(32)}`, {}, { headers: { Authorization: value } });
        expect(res.status, value).toBe(403);
        expect(res.body.result.code).toBe('800.900.300');
        expectEnvelope(res);
      }
    });

    it('403 with 800.900.300 for an unknown token', async () => {
      const unknown = Buffer.from(`${'a'.repeat(32)}|${'b'.repeat(43)}`).toString('base64');
      const res = await pay({}, { ...m, token: unknown });
      expect(res.status).toBe(403);
      expectEnvelope(res);
      expect(res.body.result.code).toBe('800.900.300');
    });

    it('403 for a known userId with the wrong secret', async () => {
      const wrong = Buffer.from(`${m.userId}|${'x'.repeat(43)}`).toString('base64');
      const res = await pay({}, { ...m, token: wrong });
      expect(res.status).toBe(403);
      expect(res.body.result.code).toBe('800.900.300');
    });

    it('403 for a token revoked before its first use', async () => {
      const other = await gw.addMerchant({ channels: 1 });
      await gw.store.revokeToken(other.tokenId, new Date());
      const res = await pay({}, other);
      expect(res.status).toBe(403);
      expect(res.body.result.code).toBe('800.900.300');
    });

    it('403 for a token revoked after use, once the 5 s auth cache entry has expired', async () => {
      // tokenChecker caches tokens for 5 s (ttlMs = 5_000, on Date.now captured when the app is
      // built): a token revoked after use keeps working for up to 5 s. Fake only Date, and start
      // a gateway after faking it, so the cache reads the fake clock.
      vi.useFakeTimers({ toFake: ['Date'] });
      const own = await testGateway();
      try {
        const merchant = await own.addMerchant({ channels: 1 });
        const body = {
          entityId: merchant.entityId,
          amount: '5.00',
          currency: 'EUR',
          paymentType: 'DB',
          ...CARD,
        };
        expect((await own.post('/v1/payments', body, { token: merchant.token })).status).toBe(200);
        await own.store.revokeToken(merchant.tokenId, new Date());
        vi.setSystemTime(Date.now() + 5_001);
        const res = await own.post('/v1/payments', body, { token: merchant.token });
        expect(res.status).toBe(403);
        expect(res.body.result.code).toBe('800.900.300');
      } finally {
        vi.useRealTimers();
        await own.cleanup();
      }
    });

    it("403 for an entityId of another merchant's channel", async () => {
      const other = await gw.addMerchant({ channels: 1 });
      const res = await pay({ entityId: other.entityId });
      expect(res.status).toBe(403);
      expectEnvelope(res);
      expect(res.body.result.code).toBe('800.900.300');
    });

    it('403 when entityId is left out and the token has two channels; works with one', async () => {
      const two = await gw.addMerchant({ channels: 2 });
      const body = { amount: '10.00', currency: 'EUR', paymentType: 'DB', ...CARD };
      const refused = await gw.post('/v1/payments', body, { token: two.token });
      expect(refused.status).toBe(403);
      expect(refused.body.result.code).toBe('800.900.300');

      const single = await gw.post('/v1/payments', body, { token: m.token });
      expect(single.status).toBe(200);
      expect(single.body.result.code).toBe('000.100.110');
      expect(single.body.ndc).toMatch(new RegExp(`^${m.entityId}-[0-9a-f]{32}$`));

      // A token restricted to one of two channels may leave it out as well.
      const restricted = await gw.addToken(two.merchantId, [two.entityIds[1]!]);
      const res = await gw.post('/v1/payments', body, { token: restricted.token });
      expect(res.status).toBe(200);
      expect(res.body.ndc.startsWith(`${two.entityIds[1]}-`)).toBe(true);
    });

    it('403 when a channel-restricted token names another channel of its merchant', async () => {
      const two = await gw.addMerchant({ channels: 2, tokenChannels: [0] });
      const res = await pay({ entityId: two.entityIds[1]! }, two);
      expect(res.status).toBe(403);
    });

    // Regression (isolation between channels): a token restricted to channel A (`channelIds: [A]`) reads
    // payments made on channel B of the same merchant. GET /v1/payments/{payment on B}?entityId=A
    // with that token → 200 and the full payment (card bin/last4, holder, amounts). Expected 404
    // as for an unknown id: the route looks the payment up by merchant only (store.getPayment),
    // never checking it against the token's channels (or the entityId sent).
    it('404 for a payment on a channel the token may not use', async () => {
      const two = await gw.addMerchant({ channels: 2 });
      const onB = await pay({ entityId: two.entityIds[1]! }, two);
      expect(onB.status).toBe(200);
      const restricted = await gw.addToken(two.merchantId, [two.entityIds[0]!]);
      const res = await gw.get(
        `/v1/payments/${onB.body.id}`,
        { entityId: two.entityIds[0]! },
        { token: restricted.token },
      );
      expect(res.status).toBe(404);
    });
  });

  describe('legacy credentials in parameters', () => {
    it('authentication.userId/password/entityId in the body work like the Bearer token', async () => {
      const res = await gw.post('/v1/payments', {
        'authentication.userId': m.userId,
        'authentication.password': m.secret,
        'authentication.entityId': m.entityId,
        amount: '92.00',
        currency: 'EUR',
        paymentType: 'DB',
        ...CARD,
      });
      expect(res.status).toBe(200);
      expect(res.body.result.code).toBe('000.100.110');
      expect(res.body.ndc.startsWith(`${m.entityId}-`)).toBe(true);
      // The credentials are not echoed.
      expect(res.text).not.toContain(m.secret);
      expect(res.body.authentication).toBeUndefined();

      const got = await gw.get(`/v1/payments/${res.body.id}`, {
        'authentication.userId': m.userId,
        'authentication.password': m.secret,
        'authentication.entityId': m.entityId,
      });
      expect(got.status).toBe(200);
      expect(got.body.id).toBe(res.body.id);
      expect(got.text).not.toContain(m.secret);
    });

    it('a wrong legacy password is 403; a userId without a password is 401', async () => {
      const base = {
        'authentication.entityId': m.entityId,
        amount: '1.00',
        currency: 'EUR',
        paymentType: 'DB',
      };
      const wrong = await gw.post('/v1/payments', {
        ...base,
        ...CARD,
        'authentication.userId': m.userId,
        'authentication.password': 'wrong',
      });
      expect(wrong.status).toBe(403);
      expect(wrong.body.result.code).toBe('800.900.300');
      const half = await gw.post('/v1/payments', { ...base, ...CARD, 'authentication.userId': m.userId });
      expect(half.status).toBe(401);
    });
  });

  describe('404', () => {
    it('answers an unknown path with a JSON 404', async () => {
      const res = await gw.get('/v1/paymentz', {}, { token: m.token });
      expect(res.status).toBe(404);
      expectEnvelope(res);
      expect(res.body.result.code).toBe('200.300.406');
    });

    it('answers an unknown payment id with 404 (GET), a reference to it with 400 (the family)', async () => {
      const id = '0'.repeat(32);
      const got = await status(id);
      expect(got.status).toBe(404);
      expectEnvelope(got);
      // the catalogue's code and its own text (decisions)
      expect(got.body.result).toEqual({ code: '700.400.580', description: 'cannot find transaction' });
      // a refund of an id that names nothing: the family's 600.200.500 (decisions, Wire format)
      const ref = await reference(id, { paymentType: 'RF', amount: '1.00' });
      expect(ref.status).toBe(400);
      expectEnvelope(ref);
      expect(ref.body.result.code).toBe('600.200.500');
    });

    it("isolates merchants: another merchant's payment id is unknown and nothing is recorded", async () => {
      const db = await pay();
      expect(db.status).toBe(200);
      const other = await gw.addMerchant({ channels: 1 });
      const got = await status(db.body.id, other);
      expect(got.status).toBe(404);
      expect(got.text).not.toContain('420000');
      const ref = await reference(db.body.id, { paymentType: 'RF', amount: '1.00' }, other);
      expect(ref.status).toBe(400);
      expect(ref.body.result.code).toBe('600.200.500');
      expect(await gw.paymentIds(other.merchantId)).toEqual([]);
      // And the owner still sees it unrefunded: a full refund goes through.
      const own = await reference(db.body.id, { paymentType: 'RF', amount: '92.00' });
      expect(own.status).toBe(200);
    });
  });

  describe('413: body limit', () => {
    it('refuses a body over the 4 MiB default (startGateway cannot set maxBodyBytes)', async () => {
      const res = await gw.post('/v1/payments', 'a'.repeat(4 * 1024 * 1024 + 1), { token: m.token });
      expect(res.status).toBe(413);
      expectEnvelope(res);
      expect(res.body.result.code).toBe('200.300.404');
      expect(res.body.result.parameterErrors[0].name).toBe('(body)');
    });

    it('refuses a declared Content-Length over the limit before reading the body', async () => {
      const res = await gw.post('/v1/payments', 'amount=1.00', {
        token: m.token,
        headers: { 'Content-Length': String(5 * 1024 * 1024) },
      });
      expect(res.status).toBe(413);
    });

    it('applies a small maxBodyBytes given to the app', async () => {
      const small = await testGateway({ maxBodyBytes: 1024 });
      try {
        const merchant = await small.addMerchant({ channels: 1 });
        const params = {
          entityId: merchant.entityId,
          amount: '1.00',
          currency: 'EUR',
          paymentType: 'DB',
          ...CARD,
        };
        const ok = await small.post('/v1/payments', params, { token: merchant.token });
        expect(ok.status).toBe(200);
        const big = await small.post(
          '/v1/payments',
          { ...params, merchantMemo: 'x'.repeat(1100) },
          { token: merchant.token },
        );
        expect(big.status).toBe(413);
        expectEnvelope(big);
        expect(big.body.result.parameterErrors[0].message).toContain('1024');
      } finally {
        await small.cleanup();
      }
    });
  });

  describe('429: throttling', () => {
    it('answers the third request in a minute with 429, Retry-After and 800.120.100', async () => {
      const slow = await gw.addMerchant({ channels: 1, throttlePerMinute: 2 });
      expect((await pay({}, slow)).status).toBe(200);
      expect((await pay({}, slow)).status).toBe(200);
      const res = await pay({}, slow);
      expect(res.status).toBe(429);
      expectEnvelope(res);
      expect(res.body.result.code).toBe('800.120.100');
      const retryAfter = Number(res.headers.get('retry-after'));
      expect(Number.isInteger(retryAfter)).toBe(true);
      expect(retryAfter).toBeGreaterThan(0);
      expect(retryAfter).toBeLessThanOrEqual(60);
      expect(res.body.ndc).toMatch(/^[0-9a-f-]+$/);
      // Nothing was recorded for the refused request.
      expect(await gw.paymentIds(slow.merchantId)).toHaveLength(2);
    });

    it('counts each operation separately and names the payment in a throttled status request', async () => {
      const slow = await gw.addMerchant({ channels: 1, throttlePerMinute: 2 });
      const db = await pay({}, slow);
      expect((await status(db.body.id, slow)).status).toBe(200);
      expect((await status(db.body.id, slow)).status).toBe(200);
      const res = await status(db.body.id, slow);
      expect(res.status).toBe(429);
      expect(res.headers.get('retry-after')).toMatch(/^\d+$/);
      expect(res.body).toMatchObject({ id: db.body.id, result: { code: '800.120.100' } });
      expectEnvelope(res);
    });

    // Regression (spec 001, Errors: "A throttled request is rejected with a body holding buildNumber,
    // id, ndc, result … and timestamp"): the third POST /v1/payments within a minute on a
    // channel with throttlePerMinute=2 answers 429 with
    // {"result":{"code":"800.120.100",…},"buildNumber":…,"timestamp":…,"ndc":…} and no `id`
    // (the route passes c.req.param('id'), undefined on /v1/payments). Expected an id.
    it('has an id in the throttled body of POST /v1/payments', async () => {
      const slow = await gw.addMerchant({ channels: 1, throttlePerMinute: 2 });
      await pay({}, slow);
      await pay({}, slow);
      const res = await pay({}, slow);
      expect(res.status).toBe(429);
      expect(res.body.id).toEqual(expect.any(String));
    });

    // Regression (spec 001, Limits: throttling counts "separately for the live and the test system"): the
    // mode of the throttle bucket is taken from the token (LIVE when any channel it may use is
    // LIVE), not from the channel of the request. A merchant with a TEST and a LIVE channel, both
    // throttlePerMinute=2: two DBs on the TEST channel, then POST /v1/payments with the LIVE
    // entityId → 429 800.120.100. Expected the LIVE request to pass the throttle (it then answers
    // 400 600.200.201, as a live channel without an acquirer).
    it('throttles the live and the test system separately', async () => {
      const mixed = await gw.addMerchant({ channels: 1, throttlePerMinute: 2 });
      const liveId = '1'.repeat(32);
      await gw.store.insertChannel({
        id: liveId,
        merchantId: mixed.merchantId,
        name: 'Live_Channel',
        mode: 'LIVE',
        settings: { throttlePerMinute: 2 },
        createdAt: new Date(),
      });
      expect((await pay({}, mixed)).status).toBe(200);
      expect((await pay({}, mixed)).status).toBe(200);
      // A token belongs to one environment now: the live channel takes a live token, on the live address.
      const liveToken = await gw.addToken(mixed.merchantId, [], 'live');
      const live = await gw.live.post(
        '/v1/payments',
        { entityId: liveId, amount: '92.00', currency: 'EUR', paymentType: 'DB', ...CARD },
        { token: liveToken.token },
      );
      expect(live.status).not.toBe(429);
      expect(live.body.result.code).toBe('600.200.201');
    });
  });

  describe('Idempotency-Key', () => {
    it('replays the identical body for the same POST and creates one payment', async () => {
      const merchant = await gw.addMerchant({ channels: 1 });
      const headers = { 'Idempotency-Key': 'order-1-attempt' };
      const first = await pay({}, merchant);
      expect(first.status).toBe(200);
      const a = await gw.post(
        '/v1/payments',
        { entityId: merchant.entityId, amount: '10.00', currency: 'EUR', paymentType: 'DB', ...CARD },
        { token: merchant.token, headers },
      );
      const b = await gw.post(
        '/v1/payments',
        { entityId: merchant.entityId, amount: '10.00', currency: 'EUR', paymentType: 'DB', ...CARD },
        { token: merchant.token, headers },
      );
      expect(a.status).toBe(200);
      expect(b.status).toBe(200);
      expect(b.text).toBe(a.text);
      expect(b.headers.get('idempotent-replayed')).toBe('true');
      expect(b.headers.get('content-type')).toBe('application/json;charset=UTF-8');
      expect(b.headers.get('cache-control')).toBe('private, no-cache, no-store');
      expect(b.body.id).toBe(a.body.id);
      expect((await gw.paymentIds(merchant.merchantId)).sort()).toEqual([first.body.id, a.body.id].sort());
    });

    it('acts again once the first response is older than 24 hours', async () => {
      let now = new Date('2026-11-21T10:00:00Z');
      const clocked = await testGateway({ clock: { now: () => now } });
      try {
        const merchant = await clocked.addMerchant({ channels: 1 });
        const send = () =>
          clocked.post(
            '/v1/payments',
            { entityId: merchant.entityId, amount: '10.00', currency: 'EUR', paymentType: 'DB', ...CARD },
            { token: merchant.token, headers: { 'Idempotency-Key': 'daily-order' } },
          );
        const first = await send();
        now = new Date(now.getTime() + 24 * 3600_000 - 1000);
        expect((await send()).body.id).toBe(first.body.id);
        now = new Date(now.getTime() + 2000);
        const afterADay = await send();
        expect(afterADay.status).toBe(200);
        expect(afterADay.headers.get('idempotent-replayed')).toBeNull();
        expect(afterADay.body.id).not.toBe(first.body.id);
        // …and the new response is the one replayed from then on.
        expect((await send()).body.id).toBe(afterADay.body.id);
      } finally {
        await clocked.cleanup();
      }
    });

    it('replays a referencing request too (a retried capture captures once)', async () => {
      const pa = await pay({ paymentType: 'PA', amount: '50.00' });
      const headers = { 'Idempotency-Key': `cp-${pa.body.id}` };
      const send = () =>
        gw.post(
          `/v1/payments/${pa.body.id}`,
          { entityId: m.entityId, paymentType: 'CP', amount: '50.00', currency: 'EUR' },
          { token: m.token, headers },
        );
      const a = await send();
      const b = await send();
      expect(a.status).toBe(200);
      expect(b.text).toBe(a.text);
    });

    it('refuses the same key with a different body', async () => {
      const merchant = await gw.addMerchant({ channels: 1 });
      const headers = { 'Idempotency-Key': 'same-key' };
      const base = { entityId: merchant.entityId, currency: 'EUR', paymentType: 'DB', ...CARD };
      const a = await gw.post(
        '/v1/payments',
        { ...base, amount: '10.00' },
        { token: merchant.token, headers },
      );
      expect(a.status).toBe(200);
      const b = await gw.post(
        '/v1/payments',
        { ...base, amount: '11.00' },
        { token: merchant.token, headers },
      );
      expect(b.status).toBe(400);
      expect(b.body.result.parameterErrors[0].name).toBe('Idempotency-Key');
      expect(b.text).not.toBe(a.text);
      expect(await gw.paymentIds(merchant.merchantId)).toHaveLength(1);
    });

    // Regression (decisions, Wire format: "Every JSON response carries result: {code, description},
    // buildNumber, timestamp and ndc"): reusing an Idempotency-Key for another body answers
    // HTTP 422 with {"error":"Idempotency-Key was already used for a different request"}, and an
    // invalid key (e.g. `Idempotency-Key: ké`) HTTP 400 with {"error":"Idempotency-Key must be 1
    // to 255 visible ASCII characters"}: no result, buildNumber, timestamp or ndc, which clients
    // that read result.code cannot handle.
    it('answers a reused key in the JSON envelope', async () => {
      const merchant = await gw.addMerchant({ channels: 1 });
      const headers = { 'Idempotency-Key': 'envelope-key' };
      const base = { entityId: merchant.entityId, currency: 'EUR', paymentType: 'DB', ...CARD };
      await gw.post('/v1/payments', { ...base, amount: '10.00' }, { token: merchant.token, headers });
      const res = await gw.post(
        '/v1/payments',
        { ...base, amount: '11.00' },
        { token: merchant.token, headers },
      );
      expect(res.status).not.toBe(200);
      expect(res.body).toHaveProperty('result.code');
      expectEnvelope(res);
    });

    // Regression (double charge): two POST /v1/payments with the same Idempotency-Key and body sent
    // together (a client retrying after a timeout while the first is still running) both run the
    // engine: both answer the same body (the replay of the first stored), but TWO payments are
    // recorded, the second orphaned. idempotency() checks getResponse, then run(), then
    // rememberResponse, with nothing reserving the key in between. Expected: one payment.
    it('creates one payment for concurrent requests with the same key', async () => {
      const merchant = await gw.addMerchant({ channels: 1 });
      const headers = { 'Idempotency-Key': 'concurrent' };
      const params = {
        entityId: merchant.entityId,
        amount: '10.00',
        currency: 'EUR',
        paymentType: 'DB',
        ...CARD,
      };
      const [a, b] = await Promise.all([
        gw.post('/v1/payments', params, { token: merchant.token, headers }),
        gw.post('/v1/payments', params, { token: merchant.token, headers }),
      ]);
      expect(b.text).toBe(a.text);
      expect(await gw.paymentIds(merchant.merchantId)).toHaveLength(1);
    });

    /** The merchant's stored idempotent responses, straight from the database. */
    const storedResponses = (merchantId: string) => {
      const db = new BetterSqlite3(join(gw.dataDir, SQLITE_FILE), { readonly: true });
      try {
        return db
          .prepare('SELECT key, status, body, payment_id FROM idempotent_responses WHERE merchant_id = ?')
          .all(merchantId) as { key: string; status: number; body: string; payment_id: string | null }[];
      } finally {
        db.close();
      }
    };

    it('stores the response sealed by the vault, naming the payment that took the key', async () => {
      const merchant = await gw.addMerchant({ channels: 1 });
      const a = await gw.post(
        '/v1/payments',
        { entityId: merchant.entityId, amount: '10.00', currency: 'EUR', paymentType: 'DB', ...CARD },
        { token: merchant.token, headers: { 'Idempotency-Key': 'sealed-key' } },
      );
      expect(a.status).toBe(200);
      const [row, ...others] = storedResponses(merchant.merchantId);
      expect(others).toEqual([]);
      expect(row).toMatchObject({ key: 'sealed-key', status: 200, payment_id: a.body.id });
      expect(row!.body).toMatch(/^v1:[0-9a-f]{8}:/);
      expect(row!.body).not.toContain(a.body.id);
      expect(gw.vault.decrypt(row!.body)).toBe(a.text);
    });

    // Regression (double charge after a crash): the payment committed, then the process died before
    // the response was stored; the key was lost with it and the merchant's retry charged again.
    // The key is now taken in the payment's transaction: a retry finds it and answers that payment.
    it('answers the payment that took the key when its response was never stored (a crash in between)', async () => {
      const merchant = await gw.addMerchant({ channels: 1 });
      const params = {
        entityId: merchant.entityId,
        amount: '10.00',
        currency: 'EUR',
        paymentType: 'DB',
        ...CARD,
      };
      const headers = { 'Idempotency-Key': 'crashed-key' };
      const a = await gw.post('/v1/payments', params, { token: merchant.token, headers });
      expect(a.status).toBe(200);
      // What the crash leaves: the claim the payment's transaction wrote, no response.
      const db = new BetterSqlite3(join(gw.dataDir, SQLITE_FILE));
      try {
        db.prepare("UPDATE idempotent_responses SET status = 0, body = '' WHERE merchant_id = ?").run(
          merchant.merchantId,
        );
      } finally {
        db.close();
      }
      const b = await gw.post('/v1/payments', params, { token: merchant.token, headers });
      expect(b.status).toBe(200);
      expect(b.headers.get('idempotent-replayed')).toBe('true');
      expect(b.body.id).toBe(a.body.id);
      expect(b.body.result).toEqual(a.body.result);
      expect(await gw.paymentIds(merchant.merchantId)).toEqual([a.body.id]);
      // A different request under the key is still refused.
      const other = await gw.post(
        '/v1/payments',
        { ...params, amount: '11.00' },
        { token: merchant.token, headers },
      );
      expect(other.status).toBe(400);
      expect(other.body.result.parameterErrors[0].name).toBe('Idempotency-Key');
      expect(await gw.paymentIds(merchant.merchantId)).toEqual([a.body.id]);
    });
  });

  describe('transport compatibility', () => {
    it('routes repeated slashes: //v1/payments/{id} and //v1//payments', async () => {
      const created = await gw.post(
        '//v1//payments',
        { entityId: m.entityId, amount: '92.00', currency: 'EUR', paymentType: 'DB', ...CARD },
        { token: m.token },
      );
      expect(created.status).toBe(200);
      const got = await gw.get(
        `//v1/payments/${created.body.id}`,
        { entityId: m.entityId },
        { token: m.token },
      );
      expect(got.status).toBe(200);
      expect(got.body.id).toBe(created.body.id);
    });

    it('accepts a GET with Content-Type: application/x-www-form-urlencoded and no body', async () => {
      const db = await pay();
      const res = await gw.send('GET', `/v1/payments/${db.body.id}?entityId=${m.entityId}`, undefined, {
        token: m.token,
        headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json' },
      });
      expect(res.status).toBe(200);
      expect(res.body.id).toBe(db.body.id);
    });

    it('accepts a POST body with "; charset=UTF-8" and %20 or + for spaces', async () => {
      const body = `${new URLSearchParams({
        entityId: m.entityId,
        amount: '12.50',
        currency: 'EUR',
        paymentType: 'DB',
        ...CARD,
      }).toString()}&customer.givenName=Mary%20Ann&customer.surname=Van+Dyke`;
      const res = await gw.post('/v1/payments', body, {
        token: m.token,
        headers: { 'Content-Type': 'application/x-www-form-urlencoded; charset=UTF-8' },
      });
      expect(res.status).toBe(200);
      expect(res.body.amount).toBe('12.50');
      expect(res.body.customer).toMatchObject({ givenName: 'Mary Ann', surname: 'Van Dyke' });
    });

    it('parses the Authorization: Bearer variants clients send', async () => {
      const unpadded = m.token.replace(/=+$/, '');
      const urlSafe = m.token.replace(/\+/g, '-').replace(/\//g, '_');
      const variants = [
        `Bearer ${m.token}`,
        // "Authorization:Bearer x" (no space after the colon) arrives as this same value.
        `Bearer ${m.token}`,
        `bearer ${m.token}`,
        `BEARER ${m.token}`,
        `Bearer   ${m.token}`,
        `Bearer\t${m.token}`,
        ` Bearer ${m.token} `,
        `Bearer ${unpadded}`,
        `Bearer ${urlSafe}`,
      ];
      const db = await pay();
      for (const value of variants) {
        const res = await gw.get(
          `/v1/payments/${db.body.id}`,
          { entityId: m.entityId },
          { headers: { Authorization: value } },
        );
        expect(res.status, JSON.stringify(value)).toBe(200);
      }
    });
  });
});

describe('card numbers at rest', () => {
  it('never writes the PAN (or CVV field) to the SQLite data files', async () => {
    const gw = await testGateway();
    try {
      const m = await gw.addMerchant({ channels: 1 });
      const master = '5454545454545454';
      const sent = [
        { ...CARD },
        { ...CARD, 'customParameters[forceResultCode]': '800.100.151' },
        { ...CARD, paymentBrand: 'MASTER', 'card.number': master },
      ];
      for (const [i, card] of sent.entries()) {
        await gw.post(
          '/v1/payments',
          { entityId: m.entityId, amount: '92.00', currency: 'EUR', paymentType: 'PA', ...card },
          {
            token: m.token,
            // The stored idempotent responses are searched too (the key itself is the merchant's).
            headers: { 'Idempotency-Key': `pan-test-${i}` },
          },
        );
      }
      // A refused request with the number under an unknown name, and a capture copying the card.
      await gw.post(
        '/v1/payments',
        {
          entityId: m.entityId,
          amount: '92.00',
          currency: 'EUR',
          paymentType: 'DB',
          ...CARD,
          'card.numbr': PAN,
        },
        { token: m.token },
      );
      const [first] = await gw.paymentIds(m.merchantId);
      await gw.post(
        `/v1/payments/${first}`,
        { entityId: m.entityId, paymentType: 'CP', amount: '92.00', currency: 'EUR' },
        { token: m.token },
      );

      const check = async () => {
        const files = await gw.dataFiles();
        expect(files.some((f) => f.path.endsWith('gateway.db'))).toBe(true);
        for (const f of files) {
          for (const pan of [PAN, master]) {
            expect(f.bytes.includes(Buffer.from(pan)), `${pan} in ${f.path}`).toBe(false);
            expect(f.bytes.includes(Buffer.from(pan, 'utf16le')), `${pan} (UTF-16) in ${f.path}`).toBe(false);
          }
          expect(f.bytes.includes(Buffer.from('"cvv"')), `cvv in ${f.path}`).toBe(false);
        }
      };
      await check(); // with the WAL file present
      await gw.close();
      await check(); // after the checkpoint on close
    } finally {
      await gw.cleanup();
    }
  });
});

const pgUnavailable = postgresUnavailableReason();

describe.skipIf(pgUnavailable !== undefined)('/v1/payments over HTTP (PostgreSQL)', () => {
  let cluster: PostgresCluster | undefined;
  let gw: TestGateway;

  beforeAll(async () => {
    cluster = await startPostgres();
    gw = await testGateway({ databaseUrl: cluster.url });
  }, 120_000);
  afterAll(async () => {
    await gw?.cleanup();
    await cluster?.stop();
  }, 60_000);

  it('pays, captures, reads back, isolates merchants and replays idempotent requests', async () => {
    const m = await gw.addMerchant({ channels: 1 });
    const pa = await gw.post(
      '/v1/payments',
      { entityId: m.entityId, amount: '92.00', currency: 'EUR', paymentType: 'PA', ...CARD },
      { token: m.token, headers: { 'Idempotency-Key': 'pg-pa' } },
    );
    expect(pa.status).toBe(200);
    expectEnvelope(pa);
    expect(pa.body.result.code).toBe('000.100.110');
    expect(pa.text).not.toContain(PAN);

    const replay = await gw.post(
      '/v1/payments',
      { entityId: m.entityId, amount: '92.00', currency: 'EUR', paymentType: 'PA', ...CARD },
      { token: m.token, headers: { 'Idempotency-Key': 'pg-pa' } },
    );
    expect(replay.text).toBe(pa.text);

    const cp = await gw.post(
      `/v1/payments/${pa.body.id}`,
      { entityId: m.entityId, paymentType: 'CP', amount: '92.00', currency: 'EUR' },
      { token: m.token },
    );
    expect(cp.status).toBe(200);
    const over = await gw.post(
      `/v1/payments/${pa.body.id}`,
      { entityId: m.entityId, paymentType: 'CP', amount: '1.00', currency: 'EUR' },
      { token: m.token },
    );
    expect(over.body.result.code).toBe('700.400.100');

    const got = await gw.get(`/v1/payments/${cp.body.id}`, { entityId: m.entityId }, { token: m.token });
    expect(got.status).toBe(200);
    expect(got.body).toMatchObject({ id: cp.body.id, referencedId: pa.body.id, amount: '92.00' });

    const other = await gw.addMerchant({ channels: 1 });
    const foreign = await gw.get(
      `/v1/payments/${pa.body.id}`,
      { entityId: other.entityId },
      { token: other.token },
    );
    expect(foreign.status).toBe(404);
    expect(await gw.paymentIds(m.merchantId)).toHaveLength(3);
  });
});
