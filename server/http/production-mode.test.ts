/**
 * Production versus a developer's machine, in process (decisions, "Production and the
 * developer's machine"; server/mode.ts): behind a trusted proxy, plain HTTP is refused and HTTPS
 * answers carry HSTS; every answer carries nosniff; the simulator endpoints that change data need
 * the merchant's credentials in production while the shopper's pages stay open; absolute URLs
 * never come from the Host header; failed logins are throttled per address (API,
 * reporting, admin API); a short admin token refuses to start.
 */
import { writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startGateway } from '../gateway';
import { createLogger } from '../security/logger';
import { CARD_FIELDS } from '../test-kit/fixtures/cards';
import {
  TEST_COMMIT,
  TEST_DATA_KEY,
  type TestGateway,
  type TestMerchant,
  testGateway,
} from '../test-kit/gateway';
import { HTTPS, PRODUCTION_BEHIND_PROXY } from '../test-kit/production';

// random-looking: production refuses a low-entropy admin token (server/mode.ts)
const ADMIN = '5f0c7e2a91d84b36a7e1c9f02d6b8a4e3c71f9d05e2b6a8c4d3f1e7a9b0c2d6e';
const from = (address: string) => ({ ...HTTPS, 'X-Forwarded-For': address });

/** A token that decodes but matches nothing: `<userId>|<secret>` in base64. */
const wrongToken = (userId: string, n: number) =>
  Buffer.from(`${userId}|wrong-secret-${n}`).toString('base64');

describe('production behind a trusted proxy (NODE_ENV=production, GATEWAY_TRUST_PROXY=1)', () => {
  let gw: TestGateway;
  let m: TestMerchant;
  let other: TestMerchant;
  beforeAll(async () => {
    gw = await testGateway({
      env: { ...PRODUCTION_BEHIND_PROXY, GATEWAY_ADMIN_TOKEN: ADMIN },
    });
    m = await gw.addMerchant({ channels: 1 });
    other = await gw.addMerchant({ channels: 1 });
  });
  afterAll(() => gw?.cleanup());

  it('creates no demo merchant', async () => {
    expect(gw.production).toBe(true);
    expect(gw.demo).toBeUndefined();
    expect((await gw.dataFiles()).map((f) => f.path).filter((p) => p.endsWith('demo-merchant.json'))).toEqual(
      [],
    );
  });

  it('refuses a request the proxy does not say came over HTTPS (403), and sets HSTS when it did', async () => {
    const plain = await gw.get('/v1/resultcodes');
    expect(plain.status).toBe(403);
    expect(plain.body.result.description).toContain('HTTPS required');
    expect(plain.headers.get('x-content-type-options')).toBe('nosniff');
    expect(plain.headers.get('strict-transport-security')).toBeNull();
    const viaHttp = await gw.get('/v1/resultcodes', {}, { headers: { 'X-Forwarded-Proto': 'http' } });
    expect(viaHttp.status).toBe(403);
    const secure = await gw.get('/v1/resultcodes', {}, { headers: HTTPS });
    expect(secure.status).toBe(200);
    expect(secure.headers.get('strict-transport-security')).toBe('max-age=31536000; includeSubDomains');
    expect(secure.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('sets nosniff and HSTS on every kind of answer: JSON, 404, widget files, simulator pages', async () => {
    for (const path of [
      '/v1/payments/nope',
      '/no/such/path',
      '/v1/paymentWidgets.js',
      '/simulators/simulator.css',
    ]) {
      const res = await gw.get(path, {}, { headers: HTTPS });
      expect([path, res.headers.get('x-content-type-options')]).toEqual([path, 'nosniff']);
      expect([path, res.headers.get('strict-transport-security')]).toEqual([
        path,
        expect.stringContaining('max-age'),
      ]);
    }
  });

  it('builds redirect.url on GATEWAY_PUBLIC_URL whatever the Host header says', async () => {
    const res = await gw.send(
      'POST',
      'http://evil.example/v1/payments',
      new URLSearchParams({
        entityId: m.entityId,
        amount: '25.50',
        currency: 'EUR',
        paymentType: 'DB',
        paymentBrand: 'PAYPAL',
        shopperResultUrl: 'https://shop.example/return',
      }).toString(),
      { token: m.token, headers: { ...HTTPS, Host: 'evil.example' } },
    );
    expect(res.status).toBe(200);
    expect(res.body.redirect.url).toBe('https://pay.example.com/simulators/redirect');
  });

  it('the simulated acquirer books a chargeback only with the merchant credentials', async () => {
    const db = await gw.post(
      '/v1/payments',
      {
        entityId: m.entityId,
        amount: '10.00',
        currency: 'EUR',
        paymentType: 'DB',
        paymentBrand: 'VISA',
        ...CARD_FIELDS,
      },
      { token: m.token, headers: HTTPS },
    );
    expect(db.body.result.code).toBe('000.100.110');
    const raise = { entityId: m.entityId, id: db.body.id };
    const anonymous = await gw.post('/simulators/acquirer/chargebacks', raise, { headers: HTTPS });
    expect(anonymous.status).toBe(401);
    const foreign = await gw.post('/simulators/acquirer/chargebacks', raise, {
      token: other.token,
      headers: from('198.51.100.70'),
    });
    expect(foreign.status).toBe(403);
    const owner = await gw.post('/simulators/acquirer/chargebacks', raise, {
      token: m.token,
      headers: HTTPS,
    });
    expect([401, 403, 429]).not.toContain(owner.status);
    expect(owner.body.paymentType).toBe('CB');
  });

  it('the simulated wallets issue a token for an entityId only with credentials; a checkout id stays enough', async () => {
    const ask = { wallet: 'walletA', card: 'visa' };
    const anonymous = await gw.post(
      '/simulators/wallets/token',
      { ...ask, entityId: m.entityId },
      { headers: HTTPS },
    );
    expect(anonymous.status).toBe(401);
    const owner = await gw.post(
      '/simulators/wallets/token',
      { ...ask, entityId: m.entityId },
      { token: m.token, headers: HTTPS },
    );
    expect([401, 403, 429]).not.toContain(owner.status);
    expect(owner.body.paymentToken).toEqual(expect.any(String));
    const foreign = await gw.post(
      '/simulators/wallets/token',
      { ...ask, entityId: m.entityId },
      { token: other.token, headers: from('198.51.100.71') },
    );
    expect(foreign.status).toBe(403);
    const checkout = await gw.post(
      '/v1/checkouts',
      { entityId: m.entityId, amount: '10.00', currency: 'EUR', paymentType: 'DB' },
      { token: m.token, headers: HTTPS },
    );
    const viaCheckout = await gw.post(
      '/simulators/wallets/token',
      { ...ask, checkoutId: checkout.body.id },
      { headers: HTTPS },
    );
    expect(viaCheckout.status).toBe(200);
  });

  it("the shopper's redirect page answers without credentials (bound to its session id)", async () => {
    const pending = await gw.post(
      '/v1/payments',
      {
        entityId: m.entityId,
        amount: '25.50',
        currency: 'EUR',
        paymentType: 'DB',
        paymentBrand: 'PAYPAL',
        shopperResultUrl: 'https://shop.example/return',
      },
      { token: m.token, headers: HTTPS },
    );
    const session = pending.body.redirect.parameters[0].value as string;
    const answer = await gw.post(
      '/simulators/redirect/answer',
      { session, action: 'approve' },
      { headers: HTTPS },
    );
    expect(answer.status).toBe(303);
    const status = await gw.get(
      `/v1/payments/${pending.body.id}`,
      { entityId: m.entityId },
      { token: m.token, headers: HTTPS },
    );
    expect(status.body.result.code).toBe('000.100.110');
  });

  it('throttles wrong bearer tokens per client address: 429 with Retry-After; another address still gets in', async () => {
    const statuses: number[] = [];
    let retryAfter: string | null = null;
    for (let i = 0; i < 50; i++) {
      const res = await gw.get(
        `/v1/payments/${'0'.repeat(32)}`,
        { entityId: m.entityId },
        {
          token: wrongToken(`${i}`.padStart(32, 'f'), i),
          headers: from('203.0.113.7'),
        },
      );
      statuses.push(res.status);
      if (res.status === 429) retryAfter = res.headers.get('retry-after');
    }
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(403));
    expect(statuses.slice(10)).toEqual(Array(40).fill(429));
    expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
    // Blocked before checking: even the right token from that address waits.
    const blocked = await gw.get(
      '/v1/query',
      { entityId: m.entityId, merchantTransactionId: 'x' },
      {
        token: m.token,
        headers: from('203.0.113.7'),
      },
    );
    expect(blocked.status).toBe(429);
    const elsewhere = await gw.get(
      '/v1/query',
      { entityId: m.entityId, merchantTransactionId: 'x' },
      {
        token: m.token,
        headers: from('203.0.113.8'),
      },
    );
    // past the credentials: the Query API's answer (no order 'x': 400 700.400.580, as the family answers)
    expect(elsewhere.body.result.code).toBe('700.400.580');
  });

  // Not per user id (anyone knows a merchant's): guesses from many addresses lock no one out
  // (issue 30; the attack itself: server/http/middleware/credentials/lockout.test.ts).
  it('does not throttle per user id: guesses at one user id from many addresses (legacy authentication.userId)', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 15; i++) {
      const res = await gw.post(
        '/v1/payments',
        {
          entityId: m.entityId,
          'authentication.userId': other.userId,
          'authentication.password': `guess-${i}`,
          amount: '1.00',
          currency: 'EUR',
          paymentType: 'DB',
        },
        { headers: from(`192.0.2.${i + 1}`) },
      );
      statuses.push(res.status);
    }
    expect(statuses).toEqual(Array(15).fill(403));
    const owner = await gw.get(
      '/v1/query',
      { entityId: other.entityId, merchantTransactionId: 'x' },
      { token: other.token, headers: from('192.0.2.200') },
    );
    // past the credentials: the Query API's answer (no order 'x': 400 700.400.580, as the family answers)
    expect(owner.body.result.code).toBe('700.400.580');
  });

  it('the reporting API shares the throttle', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) {
      const res = await gw.get(
        `/reports/v1/reconciliations/aggregations/${'0'.repeat(32)}`,
        { entityId: m.entityId },
        {
          token: wrongToken(`${i}`.padStart(32, 'e'), i),
          headers: from('203.0.113.20'),
        },
      );
      statuses.push(res.status);
    }
    expect(statuses.slice(10)).toEqual([429, 429]);
  });

  it('throttles wrong admin tokens per client address; the right token from elsewhere still works', async () => {
    const statuses: number[] = [];
    let retryAfter: string | null = null;
    for (let i = 0; i < 30; i++) {
      const res = await gw.get(
        `/admin/v1/merchants/${m.merchantId}/webhooks`,
        {},
        {
          token: `guess-${i}`.padEnd(40, 'x'),
          headers: from('203.0.113.9'),
        },
      );
      statuses.push(res.status);
      if (res.status === 429) retryAfter = res.headers.get('retry-after');
    }
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(401));
    expect(statuses.slice(10)).toEqual(Array(20).fill(429));
    expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
    const ok = await gw.get(
      `/admin/v1/merchants/${m.merchantId}/webhooks`,
      {},
      {
        token: ADMIN,
        headers: from('203.0.113.10'),
      },
    );
    expect(ok.status).toBe(200);
  });
});

describe('developer mode (no NODE_ENV=production)', () => {
  let gw: TestGateway;
  let m: TestMerchant;
  beforeAll(async () => {
    gw = await testGateway();
    m = await gw.addMerchant({ channels: 1 });
  });
  afterAll(() => gw?.cleanup());

  it('creates the demo merchant, serves plain HTTP with nosniff and without HSTS', async () => {
    expect(gw.demo?.entityId).toMatch(/^[0-9a-f]{32}$/);
    const res = await gw.get('/v1/resultcodes');
    expect(res.status).toBe(200);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('strict-transport-security')).toBeNull();
  });

  it("builds redirect.url on the listening address, not on the request's Host", async () => {
    const res = await gw.send(
      'POST',
      'http://evil.example/v1/payments',
      new URLSearchParams({
        entityId: m.entityId,
        amount: '25.50',
        currency: 'EUR',
        paymentType: 'DB',
        paymentBrand: 'PAYPAL',
        shopperResultUrl: 'https://shop.example/return',
      }).toString(),
      { token: m.token, headers: { Host: 'evil.example' } },
    );
    expect(res.body.redirect.url).toBe('http://localhost/simulators/redirect');
  });

  it('believes no X-Forwarded-Proto without GATEWAY_TRUST_PROXY', async () => {
    const res = await gw.get('/v1/resultcodes', {}, { headers: HTTPS });
    expect(res.headers.get('strict-transport-security')).toBeNull();
  });
});

describe('refusing to start', () => {
  const started: TestGateway[] = [];
  afterEach(async () => {
    await Promise.all(started.splice(0).map((g) => g.cleanup()));
  });

  it('with an admin token shorter than 32 characters, saying how to generate one', async () => {
    await expect(testGateway({ env: { GATEWAY_ADMIN_TOKEN: 'short-admin-token' } })).rejects.toThrow(
      /at least 32.*openssl rand -hex 32/s,
    );
    started.push(await testGateway({ env: { GATEWAY_ADMIN_TOKEN: 'x'.repeat(32) } }));
  });

  it('in production with neither TLS nor a trusted proxy', async () => {
    await expect(testGateway({ env: { NODE_ENV: 'production' } })).rejects.toThrow(/GATEWAY_TLS_CERT/);
    await expect(
      testGateway({ env: { NODE_ENV: 'production', GATEWAY_TRUST_PROXY: 'maybe' } }),
    ).rejects.toThrow(/GATEWAY_TRUST_PROXY must be/);
    await expect(
      testGateway({
        env: {
          NODE_ENV: 'production',
          GATEWAY_TRUST_PROXY: '1',
          GATEWAY_PUBLIC_URL: 'http://pay.example.com',
        },
      }),
    ).rejects.toThrow(/https/);
  });

  it('warns when a production gateway opens a data folder that has a demo merchant', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'gateway-was-dev-'));
    writeFileSync(join(dataDir, 'demo-merchant.json'), '{}', { mode: 0o600 });
    const lines: string[] = [];
    const gateway = await startGateway({
      dataDir,
      commit: TEST_COMMIT,
      env: { NODE_ENV: 'production', GATEWAY_TRUST_PROXY: '1', GATEWAY_DATA_KEY: TEST_DATA_KEY },
      logger: createLogger({ level: 'warn', stream: { write: (line: string) => lines.push(line) } }),
      webhooks: { autoStart: false },
      notifier: { autoStart: false },
      pending: { autoStart: false },
      scheduler: { autoStart: false },
      settlement: { autoStart: false },
    });
    try {
      expect(lines.join('')).toContain('its demo merchant has a printed token');
      expect(gateway.demo).toBeUndefined();
    } finally {
      await gateway.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
