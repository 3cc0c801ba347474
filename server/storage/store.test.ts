import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  AccessToken,
  Channel,
  Checkout,
  IdempotentResponse,
  Merchant,
  Payment,
  Registration,
  StoredCard,
} from '../../shared/engine/core/model';
import { IDEMPOTENCY_CLAIMED } from '../../shared/engine/core/model';
import type { IdempotencyClaim, PaymentQuery, Store } from '../../shared/engine/core/ports';
import { asMinor } from '../../shared/money';
import { memoryStore } from '../test-kit/engine/memory-store';
import { type PostgresCluster, startPostgres } from '../test-kit/postgres';
import { describeDialects } from '../test-kit/store-dialects';
import { testVault } from '../test-kit/vault';
import { openStore } from './index';
import { SQLITE_FILE } from './open';

const hex = (): string => randomBytes(16).toString('hex');
const TEST_PAN = '4200000000000000';

function payment(overrides: Partial<Payment> = {}): Payment {
  return {
    id: hex(),
    merchantId: 'm'.repeat(32),
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
    ...overrides,
  };
}

const card: StoredCard = {
  bin: '420000',
  last4Digits: '0000',
  holder: 'Jane Jones',
  expiryMonth: '05',
  expiryYear: '2034',
  encryptedNumber: 'v1.gcm.b3BhcXVlLWNpcGhlcnRleHQ',
};

const MINUTE = 60_000;
const T0 = new Date('2026-03-04T05:06:07.089Z');
const at = (minutes: number): Date => new Date(T0.getTime() + minutes * MINUTE);

function checkout(overrides: Partial<Checkout> = {}): Checkout {
  return {
    id: `${randomBytes(16).toString('hex').toUpperCase()}.local01`,
    merchantId: 'm'.repeat(32),
    channelId: 'c'.repeat(32),
    kind: 'payment',
    parameters: { amount: '92.00', currency: 'EUR', paymentType: 'DB', customParameters: { x: 'ü' } },
    amount: asMinor(9200),
    currency: 'EUR',
    shopperResultUrl: 'https://shop.example/return?order=42',
    createdAt: T0,
    expiresAt: at(30),
    submittedAt: null,
    completedAt: null,
    statusFetchedAt: null,
    notifyDueAt: null,
    notifyAttempts: 0,
    notifiedAt: null,
    ...overrides,
  };
}

/**
 * The checkout part of the Store contract, run on every adapter (SQLite, PostgreSQL, memory).
 * `other` opens a second store on the same data (another process), or undefined when there is none.
 */
function checkoutContract(store: () => Store, other: () => Promise<Store | undefined>): void {
  it('round-trips a checkout with every field, and one with none of the optional ones', async () => {
    const full = checkout({
      kind: 'registration',
      paymentId: hex(),
      registrationId: hex(),
      resultCode: '000.100.110',
      submittedAt: at(1),
      completedAt: at(2),
      statusFetchedAt: at(3),
      notifyDueAt: at(30),
      notifyAttempts: 2,
      notifiedAt: at(31),
    });
    const { shopperResultUrl: _url, ...bare } = checkout();
    await store().insertCheckout(full);
    await store().insertCheckout(bare);
    expect(await store().getCheckout(full.id)).toEqual(full);
    const got = await store().getCheckout(bare.id);
    expect(got).toEqual(bare);
    expect(Object.keys(got ?? {}).sort()).toEqual(Object.keys(bare).sort());
    expect(got?.expiresAt.getTime()).toBe(at(30).getTime());
    expect(await store().getCheckout(`${hex().toUpperCase()}.local01`)).toBeUndefined();
    await expect(store().insertCheckout(full)).rejects.toThrow();
  });

  it('records submissions: the first due time stands, a status GET cancels it, the next submission re-arms it', async () => {
    const c = checkout();
    await store().insertCheckout(c);
    await store().recordCheckoutSubmission(c.id, at(1), at(30));
    expect(await store().getCheckout(c.id)).toMatchObject({ submittedAt: at(1), notifyDueAt: at(30) });
    // A retry after a decline keeps the pending notification's due time.
    await store().recordCheckoutSubmission(c.id, at(5), at(34));
    expect(await store().getCheckout(c.id)).toMatchObject({ submittedAt: at(5), notifyDueAt: at(30) });
    await store().recordCheckoutStatusFetched(c.id, at(6));
    expect(await store().getCheckout(c.id)).toMatchObject({ statusFetchedAt: at(6), notifyDueAt: null });
    await store().recordCheckoutSubmission(c.id, at(7), at(36));
    expect(await store().getCheckout(c.id)).toMatchObject({ submittedAt: at(7), notifyDueAt: at(36) });
  });

  it('completes a checkout once', async () => {
    const c = checkout();
    await store().insertCheckout(c);
    const paymentId = hex();
    expect(await store().completeCheckout(c.id, { at: at(3), resultCode: '000.100.110', paymentId })).toBe(
      true,
    );
    expect(
      await store().completeCheckout(c.id, { at: at(4), resultCode: '000.100.110', paymentId: hex() }),
    ).toBe(false);
    expect(
      await store().completeCheckout(`${hex().toUpperCase()}.x`, {
        at: at(4),
        resultCode: '000.100.110',
        paymentId,
      }),
    ).toBe(false);
    expect(await store().getCheckout(c.id)).toEqual({
      ...c,
      completedAt: at(3),
      resultCode: '000.100.110',
      paymentId,
    });

    const r = checkout({ kind: 'registration' });
    await store().insertCheckout(r);
    const registrationId = hex();
    expect(
      await store().completeCheckout(r.id, { at: at(2), resultCode: '000.100.110', registrationId }),
    ).toBe(true);
    const got = await store().getCheckout(r.id);
    expect(got?.registrationId).toBe(registrationId);
    expect(got?.paymentId).toBeUndefined();
  });

  it('claims due notifications once per lease, oldest first, and never after they are delivered or cancelled', async () => {
    // A clock of its own, far from the other tests' checkouts (they share the database).
    const base = new Date('2031-01-01T00:00:00.000Z').getTime();
    const t = (minutes: number) => new Date(base + minutes * MINUTE);
    const early = checkout({ createdAt: t(0), expiresAt: t(30) });
    const late = checkout({ createdAt: t(0), expiresAt: t(30) });
    const fetched = checkout({ createdAt: t(0), expiresAt: t(30) });
    const never = checkout({ createdAt: t(0), expiresAt: t(30) });
    for (const c of [early, late, fetched, never]) await store().insertCheckout(c);
    await store().recordCheckoutSubmission(late.id, t(2), t(31));
    await store().recordCheckoutSubmission(early.id, t(1), t(30));
    await store().recordCheckoutSubmission(fetched.id, t(1), t(30));
    await store().recordCheckoutStatusFetched(fetched.id, t(10));

    // Due at or after its due time, not before (and other tests' checkouts are long due: ignore them).
    const ours = (list: Checkout[]) =>
      list.filter((c) => [early.id, late.id, fetched.id, never.id].includes(c.id));
    expect(ours(await store().claimCheckoutNotifications(t(29.99), t(31), 1000))).toEqual([]);
    const first = ours(await store().claimCheckoutNotifications(t(31), t(32), 1000));
    expect(first.map((c) => c.id)).toEqual([early.id, late.id]);
    expect(first[0]).toMatchObject({ notifyDueAt: t(32), notifyAttempts: 1, submittedAt: t(1) });
    expect(await store().getCheckout(early.id)).toMatchObject({ notifyDueAt: t(32), notifyAttempts: 1 });
    // Within the lease nobody else gets them.
    expect(ours(await store().claimCheckoutNotifications(t(31.5), t(33), 1000))).toEqual([]);
    // The lease ran out (the claimer died, or the GET failed): due again.
    await store().markCheckoutNotified(late.id, t(31.6));
    const again = ours(await store().claimCheckoutNotifications(t(32), t(33), 1000));
    expect(again.map((c) => [c.id, c.notifyAttempts])).toEqual([[early.id, 2]]);
    await store().cancelCheckoutNotification(early.id);
    expect(ours(await store().claimCheckoutNotifications(t(60), t(61), 1000))).toEqual([]);
    expect(await store().getCheckout(late.id)).toMatchObject({ notifiedAt: t(31.6), notifyDueAt: null });
    expect(await store().getCheckout(early.id)).toMatchObject({ notifiedAt: null, notifyDueAt: null });

    // A submission after the notification arms a new one, its attempts counted afresh.
    await store().recordCheckoutSubmission(late.id, t(40), t(69));
    expect(await store().getCheckout(late.id)).toMatchObject({
      notifiedAt: null,
      notifyDueAt: t(69),
      notifyAttempts: 0,
    });
    const limited = await store().claimCheckoutNotifications(t(100), t(101), 1);
    expect(limited).toHaveLength(1);
  });

  it('hands each due notification to one claimer only, however many race for it', async () => {
    const second = await other();
    const base = new Date('2032-01-01T00:00:00.000Z').getTime();
    const t = (minutes: number) => new Date(base + minutes * MINUTE);
    const due = Array.from({ length: 20 }, () => checkout({ createdAt: t(0), expiresAt: t(30) }));
    for (const c of due) {
      await store().insertCheckout(c);
      await store().recordCheckoutSubmission(c.id, t(1), t(30));
    }
    try {
      const claimers = [store(), second ?? store(), store(), second ?? store()];
      const results = await Promise.all(
        claimers.map((s) => s.claimCheckoutNotifications(t(31), t(32), 1000)),
      );
      const ids = results
        .flat()
        .map((c) => c.id)
        .filter((id) => due.some((c) => c.id === id));
      expect(ids.sort()).toEqual(due.map((c) => c.id).sort());
    } finally {
      await second?.close();
    }
  });
}

/** queryPayments and listLinked: the query API's two reads, the same on every store. */
function paymentQueryContract(store: () => Store): void {
  const t = (seconds: number): Date => new Date(T0.getTime() + seconds * 1000);

  it('queries by every filter, oldest first (created_at, then id), at most limit', async () => {
    const merchantId = hex();
    const [c1, c2] = [hex(), hex()];
    const mk = (o: Partial<Payment>) => payment({ merchantId, channelId: c1, paymentBrand: 'VISA', ...o });
    const tie = [hex(), hex()].sort();
    const a = mk({
      paymentType: 'PA',
      merchantTransactionId: 'order-1',
      createdAt: t(0),
      shortId: '1111.1111.1111',
    });
    const b = mk({ id: tie[1]!, paymentType: 'CP', merchantTransactionId: 'order-1', createdAt: t(10) });
    const c = mk({ id: tie[0]!, paymentType: 'DB', paymentBrand: 'DIRECTDEBIT_SEPA', createdAt: t(10) });
    const d = mk({ paymentType: 'DB', channelId: c2, merchantTransactionId: 'order-1', createdAt: t(20) });
    const foreign = payment({ merchantTransactionId: 'order-1', createdAt: t(5) });
    await Promise.all([d, c, b, a, foreign].map((p) => store().insertPayment(p)));
    const q = (o: Partial<PaymentQuery>) => store().queryPayments({ merchantId, limit: 100, ...o });

    expect(await q({})).toEqual([a, c, b, d]);
    expect(await q({ limit: 2 })).toEqual([a, c]);
    expect(await q({ merchantTransactionId: 'order-1' })).toEqual([a, b, d]);
    expect(await q({ from: t(10), until: t(20) })).toEqual([c, b]);
    expect(await q({ shortId: '1111.1111.1111' })).toEqual([a]);
    expect(await q({ paymentTypes: ['DB', 'RF'] })).toEqual([c, d]);
    expect(await q({ paymentBrands: ['DIRECTDEBIT_SEPA'] })).toEqual([c]);
    expect(await q({ channelIds: [c2] })).toEqual([d]);
    expect(await q({ channelIds: [] })).toEqual([]);
    expect(await q({ paymentBrands: [] })).toEqual([]);
    expect(await q({ after: { createdAt: c.createdAt, id: c.id } })).toEqual([b, d]);
    expect(await q({ merchantTransactionId: 'order-2' })).toEqual([]);
  });

  it('lists the neighbours of payments in both directions, of that merchant only', async () => {
    const merchantId = hex();
    const mk = (o: Partial<Payment>) => payment({ merchantId, ...o });
    const pa = mk({ paymentType: 'PA', createdAt: t(0) });
    const cp = mk({ paymentType: 'CP', referencedId: pa.id, createdAt: t(1) });
    const rv = mk({ paymentType: 'RV', referencedId: pa.id, createdAt: t(2) });
    const rf = mk({ paymentType: 'RF', referencedId: cp.id, createdAt: t(3) });
    const foreign = payment({ referencedId: pa.id, createdAt: t(4) });
    await Promise.all([pa, cp, rv, rf, foreign].map((p) => store().insertPayment(p)));

    expect(await store().listLinked(merchantId, [pa.id])).toEqual([cp, rv]);
    expect(await store().listLinked(merchantId, [cp.id])).toEqual([pa, rf]);
    expect(await store().listLinked(merchantId, [rf.id, rv.id])).toEqual([pa, cp]);
    expect(await store().listLinked(merchantId, [])).toEqual([]);
    expect(await store().listLinked(hex(), [pa.id])).toEqual([]);
  });
}

describeDialects('%s store', (dialect) => {
  let dataDir = '';
  let cluster: PostgresCluster | undefined;
  let store: Store;
  /** Another store on the same database (a fresh connection). */
  const open = (): Promise<Store> =>
    openStore({
      ...(cluster ? { databaseUrl: cluster.url } : { dataDir }),
      vault: testVault(),
      // beside `store`, which holds the SQLite folder
      lockFolder: false,
    });

  beforeAll(async () => {
    if (dialect === 'postgres') cluster = await startPostgres();
    else dataDir = join(await mkdtemp(join(tmpdir(), 'gateway-store-')), 'nested', 'data');
    store = await open();
  }, 60_000);

  afterAll(async () => {
    await store?.close();
    await cluster?.stop();
    if (dataDir) await rm(join(dataDir, '..', '..'), { recursive: true, force: true });
  }, 60_000);

  it('stores merchants', async () => {
    const a: Merchant = { id: hex(), name: 'Alpha', createdAt: new Date('2024-01-02T03:04:05.678Z') };
    const b: Merchant = { id: hex(), name: 'Beta', createdAt: new Date('2024-01-01T00:00:00.001Z') };
    await store.insertMerchant(a);
    await store.insertMerchant(b);
    expect(await store.getMerchant(a.id)).toEqual(a);
    expect((await store.getMerchant(a.id))?.createdAt.getTime()).toBe(a.createdAt.getTime());
    expect(await store.getMerchant(hex())).toBeUndefined();
    const all = await store.listMerchants();
    expect(all.filter((m) => m.id === a.id || m.id === b.id)).toEqual([b, a]);
    await expect(store.insertMerchant(a)).rejects.toThrow();
  });

  it('stores channels with their settings as JSON and updates the settings', async () => {
    const merchantId = hex();
    const live: Channel = {
      id: hex(),
      merchantId,
      name: 'Live',
      mode: 'LIVE',
      settings: {
        throttlePerMinute: 120,
        threeDSecure: true,
        connector: { baseUrl: 'https://eu-test.example/v1', entityId: hex(), accessToken: 'T0k€n==' },
      },
      createdAt: new Date('2024-03-04T05:06:07.089Z'),
    };
    const test: Channel = {
      id: hex(),
      merchantId,
      name: 'Test',
      mode: 'TEST',
      settings: {},
      createdAt: new Date('2024-03-04T05:06:07.090Z'),
    };
    await store.insertChannel(test);
    await store.insertChannel(live);
    await store.insertChannel({ ...test, id: hex(), merchantId: hex() });
    expect(await store.getChannel(live.id)).toEqual(live);
    expect(await store.getChannel(hex())).toBeUndefined();
    expect(await store.listChannels(merchantId)).toEqual([live, test]);

    await store.updateChannelSettings(test.id, { throttlePerMinute: 5 });
    expect((await store.getChannel(test.id))?.settings).toEqual({ throttlePerMinute: 5 });
    expect((await store.getChannel(live.id))?.settings).toEqual(live.settings);
  });

  it('stores access tokens, finds them by userId and revokes them once', async () => {
    const merchantId = hex();
    const token: AccessToken = {
      id: hex(),
      merchantId,
      userId: hex(),
      secretHash: 'scrypt$abc$def',
      channelIds: [hex(), hex()],
      environment: 'live',
      revokedAt: null,
      createdAt: new Date('2024-05-06T07:08:09.123Z'),
    };
    const other: AccessToken = {
      ...token,
      id: hex(),
      userId: hex(),
      channelIds: [],
      environment: 'test',
      createdAt: new Date('2024-05-06T07:08:09.124Z'),
    };
    await store.insertToken(token);
    await store.insertToken(other);
    expect(await store.getTokenByUserId(token.userId)).toEqual(token);
    expect(await store.getTokenByUserId(hex())).toBeUndefined();
    expect(await store.listTokens(merchantId)).toEqual([token, other]);
    expect(await store.listTokens(hex())).toEqual([]);
    await expect(store.insertToken({ ...token, id: hex() })).rejects.toThrow(); // userId is unique

    const at = new Date('2024-06-01T00:00:00.999Z');
    expect(await store.revokeToken(token.id, at)).toBe(true);
    expect(await store.revokeToken(token.id, new Date())).toBe(false);
    expect(await store.revokeToken(hex(), at)).toBe(false);
    expect(await store.getTokenByUserId(token.userId)).toEqual({ ...token, revokedAt: at });
    expect((await store.getTokenByUserId(other.userId))?.revokedAt).toBeNull();
  });

  it('round-trips a payment with every field', async () => {
    const full = payment({
      paymentType: 'PA',
      paymentBrand: 'VISA',
      amount: asMinor(Number.MAX_SAFE_INTEGER),
      currency: 'JPY',
      referencedId: hex(),
      registrationId: hex(),
      merchantTransactionId: 'order-42 ü',
      descriptor: '1234.5678.9012 OPP_Channel',
      testMode: 'EXTERNAL',
      card,
      details: {
        customer: { givenName: 'Jane', surname: "O'Brien", email: 'jane@example.com' },
        customParameters: { SHOPPER_x: '1' },
        resultDetails: { ExtendedDescription: 'ok', nested: [1, 'two', null, { three: true }] },
        risk: { score: 0 },
      },
      createdAt: new Date('2024-07-08T09:10:11.012Z'),
    });
    await store.insertPayment(full);
    const got = await store.getPayment(full.merchantId, full.id);
    expect(got).toEqual(full);
    expect(got?.createdAt.getTime()).toBe(full.createdAt.getTime());
    expect(typeof got?.amount).toBe('number');
    expect(await store.getPayment(hex(), full.id)).toBeUndefined();
    expect(await store.getPayment(full.merchantId, hex())).toBeUndefined();
  });

  it('round-trips a payment without amount and optional fields (absent, not null)', async () => {
    const { currency: _currency, ...minimal } = payment({ paymentType: 'RV', amount: null });
    await store.insertPayment(minimal);
    const got = await store.getPayment(minimal.merchantId, minimal.id);
    expect(got).toEqual(minimal);
    expect(got?.amount).toBeNull();
    expect(Object.keys(got ?? {}).sort()).toEqual(Object.keys(minimal).sort());

    const negative = payment({ amount: asMinor(-5) });
    await store.insertPayment(negative);
    expect((await store.getPayment(negative.merchantId, negative.id))?.amount).toBe(-5);
  });

  it('lists the payments referencing one, oldest first, of that merchant only', async () => {
    const original = payment({ paymentType: 'PA' });
    const t = original.createdAt.getTime();
    const refund = payment({ paymentType: 'RF', referencedId: original.id, createdAt: new Date(t + 3000) });
    const capture = payment({ paymentType: 'CP', referencedId: original.id, createdAt: new Date(t + 1000) });
    const reversal = payment({ paymentType: 'RV', referencedId: original.id, createdAt: new Date(t + 2001) });
    const foreign = payment({ merchantId: hex(), referencedId: original.id, createdAt: new Date(t + 1500) });
    await Promise.all([original, refund, capture, reversal, foreign].map((p) => store.insertPayment(p)));
    expect(await store.listReferencing(original.merchantId, original.id)).toEqual([
      capture,
      reversal,
      refund,
    ]);
    expect(await store.listReferencing(original.merchantId, hex())).toEqual([]);
  });

  it('stores registrations and deletes them once', async () => {
    const registration: Registration = {
      id: hex(),
      merchantId: hex(),
      channelId: hex(),
      paymentBrand: 'VISA',
      card,
      details: { bankAccount: { holder: 'Jane', ibanEncrypted: 'v1.gcm.xyz' } },
      initialTransactionId: 'SI-123',
      agreementId: 'AG-9',
      deletedAt: null,
      createdAt: new Date('2024-08-09T10:11:12.345Z'),
    };
    const bare: Registration = {
      id: hex(),
      merchantId: registration.merchantId,
      channelId: registration.channelId,
      paymentBrand: 'SEPA',
      details: {},
      deletedAt: null,
      createdAt: new Date('2024-08-09T10:11:12.346Z'),
    };
    await store.insertRegistration(registration);
    await store.insertRegistration(bare);
    expect(await store.getRegistration(registration.merchantId, registration.id)).toEqual(registration);
    expect(await store.getRegistration(bare.merchantId, bare.id)).toEqual(bare);
    expect(await store.getRegistration(hex(), registration.id)).toBeUndefined();

    const at = new Date('2024-09-01T01:02:03.004Z');
    expect(await store.deleteRegistration(hex(), registration.id, at)).toBe(false);
    expect(await store.deleteRegistration(registration.merchantId, registration.id, at)).toBe(true);
    expect(await store.deleteRegistration(registration.merchantId, registration.id, new Date())).toBe(false);
    expect(await store.getRegistration(registration.merchantId, registration.id)).toEqual({
      ...registration,
      deletedAt: at,
    });
    expect((await store.getRegistration(bare.merchantId, bare.id))?.deletedAt).toBeNull();
  });

  it('remembers the first response under an idempotency key', async () => {
    const first: IdempotentResponse = {
      merchantId: hex(),
      key: 'key-1',
      requestHash: 'h1',
      status: 200,
      body: '{"id":"a"}',
      createdAt: new Date('2024-10-11T12:13:14.156Z'),
    };
    const second: IdempotentResponse = {
      ...first,
      requestHash: 'h2',
      status: 400,
      body: '{}',
      createdAt: new Date(),
    };
    const longAgo = new Date('2024-01-01T00:00:00Z');
    expect(await store.rememberResponse(first, longAgo)).toEqual(first);
    expect(await store.rememberResponse(second, longAgo)).toEqual(first);
    const otherMerchant = { ...second, merchantId: hex() };
    expect(await store.rememberResponse(otherMerchant, longAgo)).toEqual(otherMerchant);

    expect(await store.getResponse(first.merchantId, first.key, new Date('2024-10-10T00:00:00Z'))).toEqual(
      first,
    );
    expect(await store.getResponse(first.merchantId, first.key, first.createdAt)).toEqual(first);
    expect(
      await store.getResponse(first.merchantId, first.key, new Date(first.createdAt.getTime() + 1)),
    ).toBe(undefined);
    expect(await store.getResponse(first.merchantId, 'key-2', new Date(0))).toBeUndefined();

    // Racing first requests: exactly one wins, everyone gets the winner.
    const racers = Array.from({ length: 20 }, (_, i) => ({ ...first, key: 'race', body: String(i) }));
    const answers = await Promise.all(racers.map((r) => store.rememberResponse(r, longAgo)));
    expect(new Set(answers.map((a) => a.body)).size).toBe(1);

    // An expired response is replaced by the next one stored under its key; a live one is kept.
    const later: IdempotentResponse = { ...first, body: '{"later":true}', createdAt: new Date() };
    expect(await store.rememberResponse(later, new Date(first.createdAt.getTime()))).toEqual(first);
    expect(await store.rememberResponse(later, new Date(first.createdAt.getTime() + 1))).toEqual(later);
    expect(await store.getResponse(first.merchantId, first.key, longAgo)).toEqual(later);
  });

  it("writes an Idempotency-Key's claim in its payment's batch, and never the payment without it", async () => {
    const merchantId = hex();
    const now = new Date();
    const claim = (key: string, replaceBefore = new Date(now.getTime() - 1000)): IdempotencyClaim => ({
      merchantId,
      key,
      requestHash: `hash-${key}`,
      createdAt: now,
      replaceBefore,
    });
    // Keyed and unkeyed payments in one batch: each claim names its own payment.
    const keyed = Array.from({ length: 3 }, () => payment({ merchantId }));
    const plain = payment({ merchantId });
    const taken = keyed.map((_, i) => claim(`k${i}`));
    await Promise.all([
      ...keyed.map((p, i) => store.insertPayment(p, [], taken[i])),
      store.insertPayment(plain),
    ]);
    for (const [i, p] of keyed.entries()) {
      expect(await store.getResponse(merchantId, `k${i}`, new Date(0))).toEqual({
        merchantId,
        key: `k${i}`,
        requestHash: `hash-k${i}`,
        status: IDEMPOTENCY_CLAIMED,
        body: '',
        createdAt: now,
        paymentId: p.id,
      });
    }
    // The answer follows the claim, and keeps naming the payment.
    const answered = { ...claim('k0'), status: 200, body: 'v1:sealed', paymentId: keyed[0]!.id };
    expect(await store.rememberResponse(answered, new Date(0))).toMatchObject({
      status: 200,
      body: 'v1:sealed',
    });

    // A live response holds the key: the payment claiming it is refused, alone, and not written.
    const refused = payment({ merchantId });
    const alongside = payment({ merchantId });
    const results = await Promise.allSettled([
      store.insertPayment(refused, [], claim('k0')),
      store.insertPayment(alongside),
    ]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'fulfilled']);
    expect(await store.getPayment(merchantId, refused.id)).toBeUndefined();
    expect(await store.getPayment(merchantId, alongside.id)).toBeDefined();
    expect((await store.getResponse(merchantId, 'k0', new Date(0)))?.body).toBe('v1:sealed');

    // An expired one is replaced by the new claim.
    const renewed = payment({ merchantId });
    await store.insertPayment(renewed, [], claim('k0', new Date(now.getTime() + 1)));
    expect(await store.getResponse(merchantId, 'k0', new Date(0))).toMatchObject({
      status: IDEMPOTENCY_CLAIMED,
      paymentId: renewed.id,
    });
  });

  it('writes 500 concurrent payments, all readable once resolved', async () => {
    const merchantId = hex();
    const payments = Array.from({ length: 500 }, (_, i) =>
      payment({ merchantId, amount: asMinor(i), details: { i } }),
    );
    await Promise.all(payments.map((p) => store.insertPayment(p)));
    const read = await Promise.all(payments.map((p) => store.getPayment(merchantId, p.id)));
    expect(read).toEqual(payments);
  });

  it('refuses only the row that fails: its batch-mates are retried alone; later batches succeed', async () => {
    const existing = payment();
    await store.insertPayment(existing);

    const duplicate = payment({ id: existing.id, merchantId: existing.merchantId, amount: asMinor(1) });
    const sameBatch = [payment(), payment()];
    const failing = Promise.allSettled([
      store.insertPayment(sameBatch[0]!),
      store.insertPayment(duplicate),
      store.insertPayment(sameBatch[1]!),
    ]);
    await new Promise((resolve) => setImmediate(resolve)); // the first batch is being written
    const later = payment();
    const laterWrite = Promise.allSettled([store.insertPayment(later)]);
    const results = [...(await failing), ...(await laterWrite)];
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled', 'fulfilled']);

    expect(await store.getPayment(existing.merchantId, existing.id)).toEqual(existing);
    for (const p of sameBatch) expect(await store.getPayment(p.merchantId, p.id)).toEqual(p);
    expect(await store.getPayment(later.merchantId, later.id)).toEqual(later);
    const afterwards = payment();
    await store.insertPayment(afterwards);
    expect(await store.getPayment(afterwards.merchantId, afterwards.id)).toEqual(afterwards);
  });

  it('a fresh connection sees a payment as soon as insertPayment resolved', async () => {
    const p = payment({ card });
    await store.insertPayment(p);
    const fresh = await open();
    try {
      expect(await fresh.getPayment(p.merchantId, p.id)).toEqual(p);
    } finally {
      await fresh.close();
    }
  });

  it('close() writes pending payments first and refuses new ones after', async () => {
    const other = await open();
    const pending = Array.from({ length: 50 }, () => payment());
    const writes = pending.map((p) => other.insertPayment(p));
    await other.close();
    await Promise.all(writes);
    await expect(other.insertPayment(payment())).rejects.toThrow(/closed/);
    await other.close(); // idempotent
    const read = await Promise.all(pending.map((p) => store.getPayment(p.merchantId, p.id)));
    expect(read).toEqual(pending);
  });

  it('50 clients writing one payment after another: every resolved payment is readable', async () => {
    // Batches of every size form here (a turn of the event loop between a client's writes).
    const written: Payment[] = [];
    await Promise.all(
      Array.from({ length: 50 }, async () => {
        for (let i = 0; i < 20; i++) {
          await new Promise((resolve) => setImmediate(resolve));
          const p = payment({ card, details: { customer: { email: 'a@b.c' } } });
          await store.insertPayment(p);
          written.push(p);
        }
      }),
    );
    expect(written).toHaveLength(1000);
    for (const p of written) expect(await store.getPayment(p.merchantId, p.id)).toEqual(p);
  });

  describe('checkouts', () =>
    checkoutContract(
      () => store,
      () => open(),
    ));

  describe('payment queries', () => paymentQueryContract(() => store));

  if (dialect === 'sqlite') {
    it('creates the data folder with mode 0700 and the database in it', () => {
      expect(statSync(dataDir).mode & 0o777).toBe(0o700);
      expect(existsSync(join(dataDir, SQLITE_FILE))).toBe(true);
      expect(existsSync(join(dataDir, `${SQLITE_FILE}-wal`))).toBe(true); // WAL mode
    });

    it('never writes a card number to the data files when the record carries only the ciphertext', async () => {
      const marker = `v1.gcm.${hex()}`;
      // Even a stray field on the card object must not reach the disk.
      const leaky = { ...card, encryptedNumber: marker, number: TEST_PAN } as StoredCard;
      const p = payment({ card: leaky, details: { customer: { givenName: 'Jane' } } });
      await store.insertPayment(p);
      await store.insertRegistration({
        id: hex(),
        merchantId: p.merchantId,
        channelId: p.channelId,
        paymentBrand: 'VISA',
        card: leaky,
        details: {},
        deletedAt: null,
        createdAt: new Date(),
      });
      expect(await store.getPayment(p.merchantId, p.id)).toEqual({
        ...p,
        card: { ...card, encryptedNumber: marker },
      });

      const files = [SQLITE_FILE, `${SQLITE_FILE}-wal`]
        .map((f) => join(dataDir, f))
        .filter((f) => existsSync(f))
        .map((f) => readFileSync(f));
      const all = Buffer.concat(files);
      expect(all.includes(marker)).toBe(true); // the files searched do hold the payment
      expect(all.includes(TEST_PAN)).toBe(false);
    });
  }
});

describe('memory store', () => {
  const store = memoryStore();
  describe('payment queries', () => paymentQueryContract(() => store));
  describe('checkouts', () =>
    checkoutContract(
      () => store,
      async () => undefined,
    ));
});
