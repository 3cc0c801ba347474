/**
 * The Query API over HTTP: GET /v1/query (merchantTransactionId or a time frame, limit,
 * paymentTypes, paymentMethods, includeLinkedTransactions, shortId) and GET /v1/query/{id}.
 * Payments are made through the API under a fake clock (one minute apart, so time frames and
 * the order are exact); the 501 used for the limits are written to the store directly. The data
 * tests run on SQLite and on PostgreSQL; parameter validation, which never reaches storage, on
 * SQLite only.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId, newShortId } from '../../../shared/engine/core/ids';
import type { Payment } from '../../../shared/engine/core/model';
import { SEARCH_SCAN_LIMIT } from '../../../shared/engine/operations/query';
import { asMinor } from '../../../shared/money';
import { type FakeClock, fakeClock } from '../../test-kit/clock';
import { SEPA_DIRECT_DEBIT } from '../../test-kit/fixtures/bank-accounts';
import { VISA_CARD } from '../../test-kit/fixtures/cards';
import {
  TEST_COMMIT,
  type TestGateway,
  type TestMerchant,
  type TestResponse,
  testGateway,
} from '../../test-kit/gateway';
import { type PostgresCluster, postgresUnavailableReason, startPostgres } from '../../test-kit/postgres';

const GIFT_CARD = {
  paymentBrand: 'GIFTCARD',
  'giftCard.number': 'GIFT-6006491234567890',
  'giftCard.pin': 'PIN-7',
};
const VIRTUAL_ACCOUNT = { paymentBrand: 'VIRTUAL_ACCOUNT', 'virtualAccount.accountId': 'jane@example.com' };

const START = '2026-11-21T12:00:00.000Z';
/** The whole first day's payments (the bulk ones are on the next day). */
const DAY = { 'date.from': '2026-11-21 00:00:00', 'date.to': '2026-11-21 23:59:59' };

/** What the seed made: ids by name, in the order they were made. */
interface Seed {
  readonly m: TestMerchant;
  /**
   * m's token naming the merchant's id as entityId (channel dispatching on): merchant-wide, every
   * channel of m; a channel's entityId scopes a query to that channel (entity-scope.test.ts).
   */
  readonly wide: TestMerchant;
  /** A token of m restricted to m's second channel. */
  readonly restricted: TestMerchant;
  readonly other: TestMerchant;
  readonly p: Readonly<Record<string, { id: string; shortId: string }>>;
  readonly bulk: readonly string[];
}

/** A third day holding one payment more than a search with linked transactions reads. */
const WIDE_DAY = { 'date.from': '2026-11-23 00:00:00', 'date.to': '2026-11-23 23:59:59' };

function expectEnvelope(res: TestResponse, clock: FakeClock): void {
  expect(res.headers.get('content-type')).toBe('application/json;charset=UTF-8');
  expect(res.body.buildNumber).toBe(`${TEST_COMMIT}@2026-11-21 10:00:00 +0000`);
  expect(res.body.timestamp).toBe(`${clock.now().toISOString().slice(0, 19).replace('T', ' ')}+0000`);
  expect(typeof res.body.ndc).toBe('string');
}

/**
 * A search by merchantTransactionId that finds nothing: the family's recorded 400 700.400.580
 * (PayUnity's testQueryMerchantUnknown), no list.
 */
function expectNoneFound(res: TestResponse): void {
  expect(res.status).toBe(400);
  expect(res.body.result).toEqual({ code: '700.400.580', description: 'cannot find transaction' });
  expect(res.body.payments).toBeUndefined();
}

function expectList(res: TestResponse, clock: FakeClock): string[] {
  expect(res.status).toBe(200);
  expectEnvelope(res, clock);
  expect(res.body.result).toEqual({ code: '000.000.100', description: 'successful request' });
  expect(Array.isArray(res.body.payments)).toBe(true);
  return res.body.payments.map((p: { id: string }) => p.id);
}

function expectParameterErrors(res: TestResponse, names: readonly string[]): void {
  expect(res.status).toBe(400);
  expect(res.body.result.code).toBe('200.300.404');
  expect(res.body.payments).toBeUndefined();
  expect(res.body.result.parameterErrors.map((e: { name: string }) => e.name).sort()).toEqual(
    [...names].sort(),
  );
}

/** Payments through the API, one minute apart; the tie is three payments in the same minute. */
async function seed(gw: TestGateway, clock: FakeClock): Promise<Seed> {
  const m = await gw.addMerchant({ channels: 2 });
  await gw.store.setMerchantDispatching(m.merchantId, true);
  const merchantWide = { ...m, entityId: m.merchantId };
  const restricted = {
    ...m,
    entityId: m.entityIds[1]!,
    ...(await gw.addToken(m.merchantId, [m.entityIds[1]!])),
  };
  const other = await gw.addMerchant({ channels: 1 });
  const p: Record<string, { id: string; shortId: string }> = {};
  const tick = () => clock.advance(60_000);
  const pay = async (
    name: string,
    params: Record<string, string>,
    who: TestMerchant = m,
    path = '/v1/payments',
  ) => {
    const res = await gw.post(
      path,
      { entityId: who.entityId, amount: '92.00', currency: 'EUR', ...params },
      { token: who.token },
    );
    expect(`${name}: ${res.body.id}`, res.text).toMatch(/^[a-zA-Z0-9]+: [0-9a-f]{32}$/);
    p[name] = { id: res.body.id, shortId: res.body.shortId };
  };

  tick(); // 12:01
  await pay('pa', { paymentType: 'PA', merchantTransactionId: 'order-0001', ...VISA_CARD });
  tick(); // 12:02
  await pay(
    'cp',
    { paymentType: 'CP', merchantTransactionId: 'order-0001-cp' },
    m,
    `/v1/payments/${p.pa!.id}`,
  );
  tick(); // 12:03
  await pay(
    'rf',
    { paymentType: 'RF', merchantTransactionId: 'order-0001-rf' },
    m,
    `/v1/payments/${p.cp!.id}`,
  );
  tick(); // 12:04
  await pay('sepa', { paymentType: 'DB', merchantTransactionId: 'order-0002', ...SEPA_DIRECT_DEBIT });
  tick(); // 12:05
  await pay('gift', { paymentType: 'DB', merchantTransactionId: 'order-0002', ...GIFT_CARD });
  tick(); // 12:06
  await pay('va', { paymentType: 'DB', merchantTransactionId: 'order-0002', ...VIRTUAL_ACCOUNT });
  tick(); // 12:07
  await pay('declined', {
    paymentType: 'DB',
    merchantTransactionId: 'order-0003',
    'customParameters[forceResultCode]': '800.100.151',
    ...VISA_CARD,
  });
  tick(); // 12:08: three at once, ordered by id
  await pay('ch1', { paymentType: 'DB', merchantTransactionId: 'order-0001', ...VISA_CARD }, restricted);
  await pay('tieA', { paymentType: 'DB', merchantTransactionId: 'order-tie', ...VISA_CARD });
  await pay('tieB', { paymentType: 'DB', merchantTransactionId: 'order-tie', ...VISA_CARD });
  tick(); // 12:09
  await pay('foreign', { paymentType: 'DB', merchantTransactionId: 'order-0001', ...VISA_CARD }, other);

  // 501 on the next day, one second apart, straight into the store.
  const bulkStart = new Date('2026-11-22T00:00:00.000Z').getTime();
  const bulk: Payment[] = Array.from({ length: 501 }, (_, i) => ({
    id: newId(),
    merchantId: m.merchantId,
    channelId: m.entityId,
    // One credit deep in the list: a filter that only a later page of matches satisfies.
    paymentType: i === 450 ? 'CD' : 'DB',
    paymentBrand: 'VISA',
    amount: asMinor(100 + i),
    currency: 'EUR',
    resultCode: '000.100.110',
    resultDescription: 'Request successfully processed',
    merchantTransactionId: 'order-bulk',
    shortId: newShortId(),
    ndc: `${m.entityId}-${newId()}`,
    testMode: 'INTERNAL',
    details: {},
    createdAt: new Date(bulkStart + i * 1000),
  }));
  await Promise.all(bulk.map((b) => gw.store.insertPayment(b)));
  // SEARCH_SCAN_LIMIT + 1 on the third day, one second apart: debits only, no refund among them
  const wideStart = new Date('2026-11-23T00:00:00.000Z').getTime();
  const wide = bulk.slice(0, 1).flatMap((template) =>
    Array.from({ length: SEARCH_SCAN_LIMIT + 1 }, (_, i) => ({
      ...template,
      id: newId(),
      merchantTransactionId: 'order-wide',
      shortId: newShortId(),
      ndc: `${m.entityId}-${newId()}`,
      paymentType: 'DB',
      createdAt: new Date(wideStart + i * 1000),
    })),
  );
  await Promise.all(wide.map((b) => gw.store.insertPayment(b)));
  return { m, wide: merchantWide, restricted, other, p, bulk: bulk.map((b) => b.id) };
}

/** The data tests, the same on SQLite and PostgreSQL. */
function dataTests(ctx: () => { gw: TestGateway; clock: FakeClock; s: Seed }): void {
  const query = (params: Record<string, string>, who?: TestMerchant) => {
    const { gw, s } = ctx();
    const caller = who ?? s.wide;
    return gw.get('/v1/query', { entityId: caller.entityId, ...params }, { token: caller.token });
  };
  const queryOne = (id: string, params: Record<string, string> = {}, who?: TestMerchant) => {
    const { gw, s } = ctx();
    const caller = who ?? s.wide;
    return gw.get(`/v1/query/${id}`, { entityId: caller.entityId, ...params }, { token: caller.token });
  };
  const ids = (...names: string[]) => names.map((n) => ctx().s.p[n]!.id);
  const list = async (params: Record<string, string>, who?: TestMerchant) =>
    expectList(await query(params, who), ctx().clock);
  /** The three payments made in the same minute, in the order of their ids. */
  const tie = () => ids('ch1', 'tieA', 'tieB').sort();

  it('finds by merchantTransactionId, oldest first, wrapped as payments, scoped to the merchant', async () => {
    const res = await query({ merchantTransactionId: 'order-0001' });
    expect(expectList(res, ctx().clock)).toEqual(ids('pa', 'ch1'));
    const [pa] = res.body.payments;
    expect(pa).toMatchObject({
      id: ctx().s.p.pa!.id,
      paymentType: 'PA',
      paymentBrand: 'VISA',
      amount: '92.00',
      currency: 'EUR',
      merchantTransactionId: 'order-0001',
      shortId: ctx().s.p.pa!.shortId,
      result: { code: '000.100.110' },
      card: { bin: '420000', last4Digits: '0000' },
      timestamp: '2026-11-21 12:01:00+0000',
      ndc: expect.stringMatching(new RegExp(`^${ctx().s.m.entityId}-[0-9a-f]{32}$`)),
    });
    expect(res.text).not.toContain('4200000000000000');
    expect(res.text).not.toContain(ctx().s.p.foreign!.id);
  });

  it('answers no match with HTTP 200, 000.000.100 and an empty list; by merchantTransactionId 400 700.400.580', async () => {
    expect(await list({ 'date.from': '2026-11-20 00:00:00', 'date.to': '2026-11-20 23:59:59' })).toEqual([]);
    expectNoneFound(await query({ merchantTransactionId: 'no-such-order' }));
  });

  it('finds by a time frame, date.to counting its whole second, in creation order then id', async () => {
    expect(await list(DAY)).toEqual([...ids('pa', 'cp', 'rf', 'sepa', 'gift', 'va', 'declined'), ...tie()]);
    expect(await list({ 'date.from': '2026-11-21 12:02:00', 'date.to': '2026-11-21 12:04:00' })).toEqual(
      ids('cp', 'rf', 'sepa'),
    );
    expect(await list({ 'date.from': '2026-11-21 12:02:01', 'date.to': '2026-11-21 12:03:59' })).toEqual(
      ids('rf'),
    );
    expect(await list({ 'date.from': '2026-11-21 12:08:00', 'date.to': '2026-11-21 12:08:00' })).toEqual(
      tie(),
    );
    expect(await list({ 'date.from': '2026-11-20 00:00:00', 'date.to': '2026-11-20 23:59:59' })).toEqual([]);
  });

  it('caps the list at limit (default 100, up to 500), the oldest first', async () => {
    const { bulk } = ctx().s;
    expect(await list({ merchantTransactionId: 'order-bulk' })).toEqual(bulk.slice(0, 100));
    expect(await list({ merchantTransactionId: 'order-bulk', limit: '100' })).toEqual(bulk.slice(0, 100));
    expect(await list({ merchantTransactionId: 'order-bulk', limit: '500' })).toEqual(bulk.slice(0, 500));
    expect(await list({ merchantTransactionId: 'order-bulk', limit: '250' })).toHaveLength(250);
    // The next page of a time frame starts at the last answer's timestamp.
    const page = await query({
      'date.from': '2026-11-22 00:00:00',
      'date.to': '2026-11-22 23:59:59',
      limit: '500',
    });
    expect(page.body.payments.at(-1).timestamp).toBe('2026-11-22 00:08:19+0000');
    expect(
      await list({ 'date.from': '2026-11-22 00:08:20', 'date.to': '2026-11-22 23:59:59', limit: '500' }),
    ).toEqual(bulk.slice(500));
  });

  it('filters by paymentTypes', async () => {
    expect(await list({ ...DAY, paymentTypes: 'PA' })).toEqual(ids('pa'));
    expect(await list({ ...DAY, paymentTypes: 'CP,RF' })).toEqual(ids('cp', 'rf'));
    expect(await list({ ...DAY, paymentTypes: 'RV, CB' })).toEqual([]);
    expect(await list({ merchantTransactionId: 'order-0001', paymentTypes: 'DB' })).toEqual(ids('ch1'));
  });

  it('filters by paymentMethods derived from the brand (CC card, DD direct debit, VA virtual account and gift card)', async () => {
    expect(await list({ ...DAY, paymentMethods: 'DD' })).toEqual(ids('sepa'));
    expect(await list({ ...DAY, paymentMethods: 'VA' })).toEqual(ids('gift', 'va'));
    expect(await list({ ...DAY, paymentMethods: 'CC' })).toEqual([
      ...ids('pa', 'cp', 'rf', 'declined'),
      ...tie(),
    ]);
    expect(await list({ merchantTransactionId: 'order-0002', paymentMethods: 'CC,DD' })).toEqual(ids('sepa'));
    expect(await list({ ...DAY, paymentMethods: 'WA,OT,PP,DC' })).toEqual([]);
    expect(await list({ ...DAY, paymentMethods: 'CC', paymentTypes: 'PA,DB' })).toEqual([
      ...ids('pa', 'declined'),
      ...tie(),
    ]);
  });

  it('filters by shortId beside merchantTransactionId or a time frame', async () => {
    const { p } = ctx().s;
    expect(await list({ merchantTransactionId: 'order-0001', shortId: p.pa!.shortId })).toEqual(ids('pa'));
    expect(await list({ ...DAY, shortId: p.rf!.shortId })).toEqual(ids('rf'));
    // The refund has its own merchantTransactionId.
    expectNoneFound(await query({ merchantTransactionId: 'order-0001', shortId: p.rf!.shortId }));
  });

  it('adds the linked transactions of a PA + CP + RF chain with includeLinkedTransactions=true', async () => {
    expect(await list({ merchantTransactionId: 'order-0001-rf' })).toEqual(ids('rf'));
    expect(
      await list({ merchantTransactionId: 'order-0001-rf', includeLinkedTransactions: 'false' }),
    ).toEqual(ids('rf'));
    expect(await list({ merchantTransactionId: 'order-0001-rf', includeLinkedTransactions: 'true' })).toEqual(
      ids('pa', 'cp', 'rf'),
    );
    expect(await list({ merchantTransactionId: 'order-0001', includeLinkedTransactions: 'true' })).toEqual(
      ids('pa', 'cp', 'rf', 'ch1'),
    );
    expect(
      await list({
        'date.from': '2026-11-21 12:02:00',
        'date.to': '2026-11-21 12:02:00',
        includeLinkedTransactions: 'true',
      }),
    ).toEqual(ids('pa', 'cp', 'rf'));
    // The filters apply to the answer, linked transactions included.
    expect(
      await list({
        merchantTransactionId: 'order-0001',
        includeLinkedTransactions: 'true',
        paymentTypes: 'RF,CP',
      }),
    ).toEqual(ids('cp', 'rf'));
    // A payment without links comes alone.
    expect(await list({ merchantTransactionId: 'order-0003', includeLinkedTransactions: 'true' })).toEqual(
      ids('declined'),
    );
  });

  it('limits an answer with linked transactions too, reading matches page by page', async () => {
    const { bulk } = ctx().s;
    expect(await list({ merchantTransactionId: 'order-bulk', includeLinkedTransactions: 'true' })).toEqual(
      bulk.slice(0, 100),
    );
    expect(
      await list({ merchantTransactionId: 'order-bulk', includeLinkedTransactions: 'true', limit: '500' }),
    ).toEqual(bulk.slice(0, 500));
    // Matches are read on until the filters found enough or none are left.
    for (const includeLinkedTransactions of ['true', 'false']) {
      expect(
        await list({ merchantTransactionId: 'order-bulk', includeLinkedTransactions, paymentTypes: 'CD' }),
      ).toEqual([bulk[450]]);
    }
  });

  it('refuses a search with linked transactions that would read more than SEARCH_SCAN_LIMIT, naming what to narrow', async () => {
    const { clock } = ctx();
    const refusals = [
      [{ ...WIDE_DAY }, ['date.from', 'date.to']],
      [{ merchantTransactionId: 'order-wide' }, ['merchantTransactionId']],
    ] as const;
    for (const [search, names] of refusals) {
      const res = await query({ ...search, paymentTypes: 'RF', includeLinkedTransactions: 'true' });
      expect(res.status, res.text).toBe(400);
      expectEnvelope(res, clock);
      expect(res.body.result.code).toBe('200.300.407');
      expect(res.body.result.description).toBe('Entity not specific enough');
      expect(res.body.payments).toBeUndefined();
      expect(res.body.result.parameterErrors.map((e: { name: string }) => e.name)).toEqual(names);
    }
    // A frame holding exactly the bound is read whole; an answer filled early needs no more.
    expect(
      await list({
        ...WIDE_DAY,
        'date.to': '2026-11-23 01:23:19',
        paymentTypes: 'RF',
        includeLinkedTransactions: 'true',
      }),
    ).toEqual([]);
    expect(await list({ ...WIDE_DAY, includeLinkedTransactions: 'true', limit: '500' })).toHaveLength(500);
    // Without linked transactions the database filters: no bound is needed.
    expect(await list({ ...WIDE_DAY, paymentTypes: 'RF' })).toEqual([]);
  });

  it('shows a token restricted to one channel only that channel, and another merchant nothing of ours', async () => {
    const { restricted, other } = ctx().s;
    expect(await list({ merchantTransactionId: 'order-0001' }, restricted)).toEqual(ids('ch1'));
    expect(await list({ ...DAY }, restricted)).toEqual(ids('ch1'));
    expect(
      await list({ merchantTransactionId: 'order-0001', includeLinkedTransactions: 'true' }, restricted),
    ).toEqual(ids('ch1'));
    expect(await list({ merchantTransactionId: 'order-0001' }, other)).toEqual(ids('foreign'));
    expectNoneFound(await query({ merchantTransactionId: 'order-bulk' }, other));
    // Unrestricted, the merchant's id sees all its channels; a channel's entityId that channel only.
    expect(await list({ merchantTransactionId: 'order-0001' }, ctx().s.wide)).toEqual(ids('pa', 'ch1'));
    expect(
      await list(
        { merchantTransactionId: 'order-0001' },
        { ...ctx().s.m, entityId: ctx().s.m.entityIds[1]! },
      ),
    ).toEqual(ids('ch1'));
    expect(await list({ merchantTransactionId: 'order-0001' }, ctx().s.m)).toEqual(ids('pa'));
  });

  it('GET /v1/query/{id} answers like GET /v1/payments/{id}', async () => {
    const { gw, s } = ctx();
    for (const name of ['pa', 'rf', 'sepa', 'declined']) {
      const id = s.p[name]!.id;
      const viaQuery = await queryOne(id);
      const viaPayments = await gw.get(
        `/v1/payments/${id}`,
        { entityId: s.m.entityId },
        { token: s.m.token },
      );
      expect(viaQuery.status).toBe(name === 'declined' ? 400 : 200);
      expect(viaQuery.text).toBe(viaPayments.text);
    }
    const declined = await queryOne(s.p.declined!.id);
    expect(declined.body.result.code).toBe('800.100.151');
  });

  it('GET /v1/query/{id} is 400 700.400.580 for another merchant’s id, another channel’s, an unknown one', async () => {
    const { s } = ctx();
    // the family's captured answer (decisions, Wire format)
    const notFound = (res: TestResponse) => {
      expect(res.status).toBe(400);
      expect(res.body.result).toEqual({ code: '700.400.580', description: 'cannot find transaction' });
      expect(res.body.id).toBeUndefined();
    };
    notFound(await queryOne(s.p.foreign!.id));
    notFound(await queryOne(s.p.pa!.id, {}, s.other));
    notFound(await queryOne(s.p.pa!.id, {}, s.restricted));
    notFound(await queryOne(newId()));
    expect((await queryOne(s.p.ch1!.id, {}, s.restricted)).status).toBe(200);
  });

  it('GET /v1/query/{id} filters by paymentTypes and paymentMethods and lists the linked transactions', async () => {
    const { s, clock } = ctx();
    expect((await queryOne(s.p.pa!.id, { paymentTypes: 'PA,DB' })).status).toBe(200);
    expect((await queryOne(s.p.pa!.id, { paymentTypes: 'DB' })).status).toBe(400);
    expect((await queryOne(s.p.sepa!.id, { paymentMethods: 'DD' })).status).toBe(200);
    expect((await queryOne(s.p.sepa!.id, { paymentMethods: 'CC' })).status).toBe(400);
    expect(expectList(await queryOne(s.p.cp!.id, { includeLinkedTransactions: 'true' }), clock)).toEqual(
      ids('pa', 'cp', 'rf'),
    );
    expect(
      expectList(
        await queryOne(s.p.cp!.id, { includeLinkedTransactions: 'true', paymentTypes: 'PA,RF' }),
        clock,
      ),
    ).toEqual(ids('pa', 'rf'));
    expect(expectList(await queryOne(s.p.va!.id, { includeLinkedTransactions: 'true' }), clock)).toEqual(
      ids('va'),
    );
  });
}

// ---- SQLite: the data tests, then validation and credentials -----------------------------------------

describe('/v1/query over HTTP (SQLite)', () => {
  const clock = fakeClock(START);
  let gw: TestGateway;
  let s: Seed;

  beforeAll(async () => {
    gw = await testGateway({ clock });
    s = await seed(gw, clock);
  });
  afterAll(async () => {
    await gw?.cleanup();
  });

  dataTests(() => ({ gw, clock, s }));

  const query = (params: Record<string, string> | string) =>
    gw.get('/v1/query', typeof params === 'string' ? params : { entityId: s.m.entityId, ...params }, {
      token: s.m.token,
    });

  it('needs merchantTransactionId or a time frame', async () => {
    expectParameterErrors(await query({}), ['merchantTransactionId']);
    expectParameterErrors(await query({ paymentTypes: 'DB' }), ['merchantTransactionId']);
    expectParameterErrors(await query({ includeLinkedTransactions: 'true' }), ['merchantTransactionId']);
  });

  it('refuses merchantTransactionId with a time frame, naming them', async () => {
    const res = await query({ merchantTransactionId: 'order-0001', ...DAY });
    expectParameterErrors(res, ['merchantTransactionId', 'date.from', 'date.to']);
    expect(res.body.result.parameterErrors[0]).toEqual({
      name: 'merchantTransactionId',
      value: 'order-0001',
      message: 'cannot be combined with date.from and date.to',
    });
    expectParameterErrors(
      await query({ merchantTransactionId: 'order-0001', 'date.from': DAY['date.from'] }),
      ['merchantTransactionId', 'date.from', 'date.to'],
    );
  });

  it('needs date.from and date.to together, in order, as timestamps', async () => {
    const res = await query({ 'date.from': DAY['date.from'] });
    expectParameterErrors(res, ['date.to']);
    expect(res.body.result.parameterErrors[0].message).toBe('is required together with date.from');
    expectParameterErrors(await query({ 'date.to': DAY['date.to'] }), ['date.from']);
    expectParameterErrors(await query({ 'date.from': DAY['date.to'], 'date.to': DAY['date.from'] }), [
      'date.to',
    ]);
    expectParameterErrors(await query({ 'date.from': '2026-11-21', 'date.to': '2026-11-22' }), [
      'date.from',
      'date.to',
    ]);
    expectParameterErrors(await query({ 'date.from': '2026-11-21 0:00:00', 'date.to': DAY['date.to'] }), [
      'date.from',
    ]);
    expectParameterErrors(await query({ 'date.from': '2026-02-30 00:00:00', 'date.to': DAY['date.to'] }), [
      'date.from',
    ]);
  });

  it('takes limit from 100 to 500 only', async () => {
    for (const limit of ['99', '501', '0', '-100', '100.0', 'abc', '1e2']) {
      const res = await query({ merchantTransactionId: 'order-bulk', limit });
      expectParameterErrors(res, ['limit']);
      if (limit === '99') {
        expect(res.body.result.parameterErrors[0]).toEqual({
          name: 'limit',
          value: '99',
          message: 'must be a whole number from 100 to 500',
        });
      }
    }
    for (const limit of ['100', '500'])
      expectList(await query({ merchantTransactionId: 'order-bulk', limit }), clock);
    // An empty value counts as not sent, as everywhere: the default.
    expect(expectList(await query({ merchantTransactionId: 'order-bulk', limit: '' }), clock)).toHaveLength(
      100,
    );
  });

  it('checks paymentTypes, paymentMethods, includeLinkedTransactions, shortId and merchantTransactionId', async () => {
    const mtid = { merchantTransactionId: 'order-0001' };
    expectParameterErrors(await query({ ...mtid, paymentTypes: 'XX' }), ['paymentTypes']);
    expectParameterErrors(await query({ ...mtid, paymentTypes: 'PA,' }), ['paymentTypes']);
    expectParameterErrors(await query({ ...mtid, paymentTypes: 'pa' }), ['paymentTypes']);
    expectParameterErrors(await query({ ...mtid, paymentMethods: 'ZZ' }), ['paymentMethods']);
    expectParameterErrors(await query({ ...mtid, includeLinkedTransactions: 'yes' }), [
      'includeLinkedTransactions',
    ]);
    expectParameterErrors(await query({ ...mtid, shortId: '1234.5678.90123' }), ['shortId']);
    expectParameterErrors(await query({ merchantTransactionId: 'x'.repeat(256) }), ['merchantTransactionId']);
    expectNoneFound(await query({ merchantTransactionId: 'x'.repeat(255) }));
    // shortId alone: the family needs merchantTransactionId or a time frame beside it.
    const alone = await query({ shortId: s.p.pa!.shortId });
    expectParameterErrors(alone, ['shortId']);
    expect(alone.body.result.parameterErrors[0].message).toBe(
      'requires merchantTransactionId or a date.from/date.to time frame',
    );
    // A typo is never a silent no-filter.
    expectParameterErrors(await query({ ...mtid, merchantTransactionID: 'order-0002' }), [
      'merchantTransactionID',
    ]);
    // Every fault at once.
    expectParameterErrors(await query({ ...mtid, limit: '99', paymentTypes: 'XX', paymentMethods: 'ZZ' }), [
      'limit',
      'paymentTypes',
      'paymentMethods',
    ]);
  });

  it('refuses search parameters with a transaction id', async () => {
    const one = (params: Record<string, string>) =>
      gw.get(`/v1/query/${s.p.pa!.id}`, { entityId: s.m.entityId, ...params }, { token: s.m.token });
    expectParameterErrors(await one({ merchantTransactionId: 'order-0001' }), ['merchantTransactionId']);
    expectParameterErrors(await one(DAY), ['date.from', 'date.to']);
    expectParameterErrors(await one({ merchantTransactionId: 'order-0001', shortId: s.p.pa!.shortId }), [
      'merchantTransactionId',
      'shortId',
    ]);
    expectParameterErrors(await one({ limit: '99' }), ['limit']);
  });

  it('authenticates and needs an entityId as payments do', async () => {
    const noToken = await gw.get('/v1/query', {
      entityId: s.m.entityId,
      merchantTransactionId: 'order-0001',
    });
    expect(noToken.status).toBe(401);
    expect((await gw.get(`/v1/query/${s.p.pa!.id}`, { entityId: s.m.entityId })).status).toBe(401);
    const bad = await gw.get(
      '/v1/query',
      { entityId: s.m.entityId, merchantTransactionId: 'order-0001' },
      { token: Buffer.from('nobody|secret').toString('base64') },
    );
    expect(bad.status).toBe(403);
    // Two channels: the entityId is required.
    const noEntity = await gw.get('/v1/query', { merchantTransactionId: 'order-0001' }, { token: s.m.token });
    expect(noEntity.status).toBe(403);
    expect(noEntity.body.result.code).toBe('800.900.300');
    // Another merchant's entityId, a channel outside the token's.
    expect((await query({ merchantTransactionId: 'order-0001', entityId: s.other.entityId })).status).toBe(
      403,
    );
    const outside = await gw.get(
      '/v1/query',
      { entityId: s.m.entityIds[0]!, merchantTransactionId: 'order-0001' },
      { token: s.restricted.token },
    );
    expect(outside.status).toBe(403);
    // One channel: the entityId may be left out.
    const single = await gw.get(
      '/v1/query',
      { merchantTransactionId: 'order-0001' },
      { token: s.restricted.token },
    );
    expect(expectList(single, clock)).toEqual([s.p.ch1!.id]);
  });
});

// ---- PostgreSQL ------------------------------------------------------------------------------------

const pgUnavailable = postgresUnavailableReason();

describe.skipIf(pgUnavailable !== undefined)('/v1/query over HTTP (PostgreSQL)', () => {
  const clock = fakeClock(START);
  let cluster: PostgresCluster | undefined;
  let gw: TestGateway;
  let s: Seed;

  beforeAll(async () => {
    cluster = await startPostgres();
    gw = await testGateway({ databaseUrl: cluster.url, clock });
    s = await seed(gw, clock);
  }, 120_000);
  afterAll(async () => {
    await gw?.cleanup();
    await cluster?.stop();
  }, 60_000);

  dataTests(() => ({ gw, clock, s }));
});
