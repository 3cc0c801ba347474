/**
 * Two environments, two base addresses (decisions, "Payment methods and environments"): the test
 * environment on PORT, the live one on GATEWAY_LIVE_PORT (in process: `gw.live`, the live app on
 * the same store). Credentials of the other environment get 403 800.900.300; nothing of one
 * environment shows on the other's address; throttles count per channel and environment; channel
 * dispatching picks the merchant's accepting channel of the request's environment.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { request as httpsRequest } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'basic-ftp';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../shared/engine/core/ids';
import { asMinor } from '../../shared/money';
import { createApp } from '../app';
import { createChannel, createMerchant, createToken, setMerchant } from '../cli/commands';
import { startReconciliationFtp } from '../reporting/delivery';
import { settleDay } from '../reporting/settlement-run';
import { VISA_CARD } from '../test-kit/fixtures/cards';
import { TEST_COMMIT, type TestGateway, type TestMerchant, testGateway } from '../test-kit/gateway';
import { freePort } from '../test-kit/postgres';
import { spawnGateway, stopAll } from '../test-kit/process';
import { selfSignedCertificate } from '../test-kit/tls';

const payment = (entityId: string, extra: Record<string, string> = {}) => ({
  entityId,
  amount: '12.00',
  currency: 'EUR',
  paymentType: 'DB',
  ...VISA_CARD,
  ...extra,
});

describe('test and live environments (in process)', () => {
  let gw: TestGateway;
  /** A merchant with one test channel (its token: test) … */
  let test: TestMerchant;
  /** … and one live channel (its token: live). */
  let live: TestMerchant;

  beforeAll(async () => {
    gw = await testGateway({ env: { GATEWAY_LIVE_PUBLIC_URL: 'https://pay.example.com' } });
    test = await gw.addMerchant({ channels: 1 });
    const liveId = newId();
    await gw.store.insertChannel({
      id: liveId,
      merchantId: test.merchantId,
      name: 'Live_Channel',
      mode: 'LIVE',
      settings: {},
      createdAt: new Date(),
    });
    live = {
      ...test,
      entityIds: [liveId],
      entityId: liveId,
      ...(await gw.addToken(test.merchantId, [], 'live')),
    };
  });
  afterAll(async () => {
    await gw.cleanup();
  });

  const refusedAuth = (res: { status: number; body: { result: { code: string } } }) => {
    expect(res.status).toBe(403);
    expect(res.body.result.code).toBe('800.900.300');
  };

  it('refuses test credentials on the live address and live ones on the test address (403 800.900.300)', async () => {
    refusedAuth(await gw.live.post('/v1/payments', payment(test.entityId), { token: test.token }));
    refusedAuth(await gw.live.post('/v1/payments', payment(live.entityId), { token: test.token }));
    refusedAuth(await gw.post('/v1/payments', payment(live.entityId), { token: live.token }));
    refusedAuth(await gw.post('/v1/payments', payment(test.entityId), { token: live.token }));
    // the legacy parameters are the same credentials: the same answer
    refusedAuth(
      await gw.live.post('/v1/payments', {
        ...payment(test.entityId),
        'authentication.userId': test.userId,
        'authentication.password': test.secret,
      }),
    );
    // a live token with a test channel's entityId on the live address: that entityId is not its
    refusedAuth(await gw.live.post('/v1/payments', payment(test.entityId), { token: live.token }));
    // and reads too
    refusedAuth(
      await gw.live.get(
        '/v1/query',
        { entityId: test.entityId, 'date.from': '2026-01-01 00:00:00', 'date.to': '2026-01-01 23:59:59' },
        { token: test.token },
      ),
    );
    // each on its own address works
    expect((await gw.post('/v1/payments', payment(test.entityId), { token: test.token })).status).toBe(200);
    const onLive = await gw.live.post('/v1/payments', payment(live.entityId), { token: live.token });
    expect(onLive.status).not.toBe(403);
  });

  it('never shows a live payment on the test address, nor a test one on the live address', async () => {
    const order = `order-${newId().slice(0, 8)}`;
    const t = await gw.post('/v1/payments', payment(test.entityId, { merchantTransactionId: order }), {
      token: test.token,
    });
    expect(t.status).toBe(200);
    // Live channels have no connector here: refused (600.200.201), but recorded.
    const l = await gw.live.post('/v1/payments', payment(live.entityId, { merchantTransactionId: order }), {
      token: live.token,
    });
    expect(l.body.result.code).toBe('600.200.201');
    const recorded = await gw.paymentIds(test.merchantId);
    expect(recorded).toContain(t.body.id);
    expect(recorded).toContain(l.body.id);

    const onTest = await gw.get(
      '/v1/query',
      { entityId: test.entityId, merchantTransactionId: order },
      { token: test.token },
    );
    expect(onTest.status).toBe(200);
    expect(onTest.body.payments.map((p: { id: string }) => p.id)).toEqual([t.body.id]);
    const onLive = await gw.live.get(
      '/v1/query',
      { entityId: live.entityId, merchantTransactionId: order },
      { token: live.token },
    );
    expect(onLive.status).toBe(200);
    expect(onLive.body.payments.map((p: { id: string }) => p.id)).toEqual([l.body.id]);

    // by id: the other environment's payment is unknown (the Query API's 400 700.400.580)
    expect(
      (await gw.get(`/v1/query/${l.body.id}`, { entityId: test.entityId }, { token: test.token })).status,
    ).toBe(400);
    expect(
      (await gw.live.get(`/v1/query/${t.body.id}`, { entityId: live.entityId }, { token: live.token }))
        .status,
    ).toBe(400);
    expect(
      (await gw.get(`/v1/payments/${l.body.id}`, { entityId: test.entityId }, { token: test.token })).status,
    ).toBe(404);
    expect(
      (await gw.live.get(`/v1/payments/${l.body.id}`, { entityId: live.entityId }, { token: live.token }))
        .status,
    ).not.toBe(404);
  });

  it('keeps a checkout at the address of its environment (the widget reads its session from there)', async () => {
    const created = await gw.post(
      '/v1/checkouts',
      { entityId: test.entityId, amount: '5.00', currency: 'EUR', paymentType: 'DB' },
      { token: test.token },
    );
    expect(created.status).toBe(200);
    expect((await gw.get(`/v1/checkouts/${created.body.id}/session`)).status).toBe(200);
    expect((await gw.live.get(`/v1/checkouts/${created.body.id}/session`)).status).toBe(404);
    // a status read of a checkout it cannot see: the family's 400 200.300.404
    expect((await gw.live.get(`/v1/checkouts/${created.body.id}/payment`)).status).toBe(400);
    expect((await gw.get(`/v1/checkouts/${created.body.id}/payment`)).status).toBe(200);
  });

  it('refuses plain HTTP on the live address, whatever the mode', async () => {
    const res = await gw.live.app.request('http://live.localhost/v1/resultcodes');
    // the in-process live app serves TLS itself (tls: true): every request is HTTPS there
    expect(res.status).toBe(200);
    expect(res.headers.get('strict-transport-security')).toContain('max-age');
  });

  it('settles live and test channels into separate files and aggregations, each on its own address', async () => {
    const day = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    const at = new Date(`${day}T10:00:00Z`);
    const stored = (channelId: string, resultCode: string) => ({
      id: newId(),
      merchantId: test.merchantId,
      channelId,
      paymentType: 'DB',
      paymentBrand: 'VISA',
      amount: asMinor(1000),
      currency: 'EUR',
      resultCode,
      resultDescription: 'Request successfully processed',
      shortId: '1234.5678.9012',
      ndc: newId(),
      details: {},
      createdAt: at,
    });
    await gw.store.insertPayment(stored(test.entityId, '000.100.110'));
    await gw.store.insertPayment(stored(live.entityId, '000.000.000'));
    const settled = await settleDay(
      { store: gw.store, clock: { now: () => new Date() }, dataDir: gw.dataDir },
      day,
      {
        merchantId: test.merchantId,
      },
    );
    const files = settled.map((s) => s.file?.split('/').at(-1)).sort();
    const compact = day.replaceAll('-', '');
    expect(files).toEqual(
      [
        `reconciliation_${live.entityId}_${compact}_LIVE.csv`,
        `reconciliation_${test.entityId}_${compact}.csv`,
      ].sort(),
    );
    // over FTP, each token sees its environment's files only
    const ftp = await startReconciliationFtp({
      store: gw.store,
      dataDir: gw.dataDir,
      host: '127.0.0.1',
      port: 0,
    });
    try {
      const namesFor = async (who: TestMerchant) => {
        const client = new Client(10_000);
        try {
          await client.access({ host: '127.0.0.1', port: ftp.port, user: who.userId, password: who.secret });
          return (await client.list()).map((f) => f.name);
        } finally {
          client.close();
        }
      };
      expect(await namesFor(test)).toEqual([`reconciliation_${test.entityId}_${compact}.csv`]);
      expect(await namesFor(live)).toEqual([`reconciliation_${live.entityId}_${compact}_LIVE.csv`]);
    } finally {
      await ftp.close();
    }
    const range = { 'date.from': day, 'date.to': day };
    const testList = await gw.get(
      '/reports/v1/reconciliations/aggregations',
      { ...range, entityId: test.entityId },
      { token: test.token },
    );
    expect(testList.body.aggregations.map((x: { entityId: string }) => x.entityId)).toEqual([test.entityId]);
    const liveList = await gw.live.get(
      '/reports/v1/reconciliations/aggregations',
      { ...range, entityId: live.entityId },
      { token: live.token },
    );
    expect(liveList.body.aggregations.map((x: { entityId: string }) => x.entityId)).toEqual([live.entityId]);
    // a live aggregation by id is unknown on the test address
    const liveId = liveList.body.aggregations[0].id;
    expect(
      (
        await gw.get(
          `/reports/v1/reconciliations/aggregations/${liveId}`,
          { entityId: test.entityId },
          { token: test.token },
        )
      ).status,
    ).toBe(404);
    expect(
      (
        await gw.live.get(
          `/reports/v1/reconciliations/aggregations/${liveId}`,
          { entityId: live.entityId },
          { token: live.token },
        )
      ).status,
    ).toBe(200);
  });

  it('behind a trusted proxy, the live address refuses requests the proxy does not vouch for as HTTPS', async () => {
    const app = createApp(
      { commit: TEST_COMMIT, builtAt: new Date() },
      {
        store: gw.store,
        clock: { now: () => new Date() },
        seal: (x) => x,
        environment: 'live',
        trustProxy: true,
      },
    );
    const plain = await app.request('http://live.example/v1/resultcodes');
    expect(plain.status).toBe(403);
    expect(((await plain.json()) as { result: { code: string } }).result.code).toBe('800.900.300');
    const vouched = await app.request('http://live.example/v1/resultcodes', {
      headers: { 'X-Forwarded-Proto': 'https' },
    });
    expect(vouched.status).toBe(200);
  });

  describe('throttles', () => {
    it('counts each channel apart: a limit on one test channel leaves another alone', async () => {
      const m = await gw.addMerchant({ channels: 2, throttlePerMinute: 1 });
      const first = await gw.post('/v1/payments', payment(m.entityIds[0]!), { token: m.token });
      expect(first.status).toBe(200);
      const again = await gw.post('/v1/payments', payment(m.entityIds[0]!), { token: m.token });
      expect(again.status).toBe(429);
      expect(again.body.result.code).toBe('800.120.100');
      const other = await gw.post('/v1/payments', payment(m.entityIds[1]!), { token: m.token });
      expect(other.status, other.text).toBe(200);
    });

    it('counts the live and the test environment apart', async () => {
      const m = await gw.addMerchant({ channels: 1, throttlePerMinute: 1 });
      const liveId = newId();
      await gw.store.insertChannel({
        id: liveId,
        merchantId: m.merchantId,
        name: 'Live',
        mode: 'LIVE',
        settings: { throttlePerMinute: 1 },
        createdAt: new Date(),
      });
      const liveToken = await gw.addToken(m.merchantId, [], 'live');
      expect((await gw.post('/v1/payments', payment(m.entityId), { token: m.token })).status).toBe(200);
      expect((await gw.post('/v1/payments', payment(m.entityId), { token: m.token })).status).toBe(429);
      const onLive = await gw.live.post('/v1/payments', payment(liveId), { token: liveToken.token });
      expect(onLive.status).not.toBe(429);
    });
  });

  describe('channel dispatching', () => {
    let d: TestMerchant;
    let usd: string;
    let eurVisa: string;
    beforeAll(async () => {
      d = await gw.addMerchant({ channels: 1, settings: { currencies: ['USD'] } });
      usd = d.entityId;
      eurVisa = newId();
      await gw.store.insertChannel({
        id: eurVisa,
        merchantId: d.merchantId,
        name: 'EUR_Visa',
        mode: 'TEST',
        settings: { currencies: ['EUR'], brands: ['VISA'] },
        createdAt: new Date(Date.now() + 1),
      });
    });

    it('is off by default: the merchant id as entityId is refused (403)', async () => {
      refusedAuth(await gw.post('/v1/payments', payment(d.merchantId), { token: d.token }));
    });

    it('on: the merchant id as entityId picks the channel that accepts the brand and currency', async () => {
      expect(await gw.store.setMerchantDispatching(d.merchantId, true)).toBe(true);
      // channels and merchants are cached a few seconds: a fresh gateway on the same data sees it at once
      const fresh = await testGateway({ dataDir: gw.dataDir, beside: true });
      try {
        const eur = await fresh.post('/v1/payments', payment(d.merchantId), { token: d.token });
        expect(eur.status, eur.text).toBe(200);
        expect((await fresh.store.getPayment(d.merchantId, eur.body.id))?.channelId).toBe(eurVisa);
        const dollars = await fresh.post('/v1/payments', payment(d.merchantId, { currency: 'USD' }), {
          token: d.token,
        });
        expect(dollars.status, dollars.text).toBe(200);
        expect((await fresh.store.getPayment(d.merchantId, dollars.body.id))?.channelId).toBe(usd);
        // no channel takes GBP: 600.200.201
        const none = await fresh.post('/v1/payments', payment(d.merchantId, { currency: 'GBP' }), {
          token: d.token,
        });
        expect(none.status).toBe(400);
        expect(none.body.result.code).toBe('600.200.201');
        // nor a Mastercard in EUR (the EUR channel takes VISA only)
        const master = await fresh.post(
          '/v1/payments',
          payment(d.merchantId, { paymentBrand: 'MASTER', 'card.number': '5454545454545454' }),
          { token: d.token },
        );
        expect(master.body.result.code).toBe('600.200.201');
        // a brand the gateway does not know is not the dispatcher's to judge: refused downstream
        const unknown = await fresh.post(
          '/v1/payments',
          payment(d.merchantId, { paymentBrand: 'NOSUCHBRAND' }),
          { token: d.token },
        );
        expect(unknown.status).toBe(400);
        expect(unknown.body.result.code, unknown.text).not.toBe('600.200.201');
        // the live address has no live channel of this merchant (and its test token is refused there)
        refusedAuth(await fresh.live.post('/v1/payments', payment(d.merchantId), { token: d.token }));
      } finally {
        await fresh.close();
      }
    });

    it('sends a reference through the merchant id to its payment’s channel', async () => {
      // an older channel that accepts everything: dispatching would pick it for a new payment
      await gw.store.insertChannel({
        id: newId(),
        merchantId: d.merchantId,
        name: 'Catch_All',
        mode: 'TEST',
        settings: {},
        createdAt: new Date(0),
      });
      const fresh = await testGateway({ dataDir: gw.dataDir, beside: true });
      try {
        const paid = await fresh.post('/v1/payments', payment(usd, { currency: 'USD' }), { token: d.token });
        expect(paid.status, paid.text).toBe(200);
        const refund = await fresh.post(
          `/v1/payments/${paid.body.id}`,
          { entityId: d.merchantId, paymentType: 'RF', amount: '12.00', currency: 'USD' },
          { token: d.token },
        );
        expect(refund.status, refund.text).toBe(200);
        expect((await fresh.store.getPayment(d.merchantId, refund.body.id))?.channelId).toBe(usd);
      } finally {
        await fresh.close();
      }
    });
  });
});

describe('the operator CLI: tokens of one environment, dispatching', () => {
  let gw: TestGateway;
  const ctx = () => ({ store: gw.store, output: { out: () => undefined, err: () => undefined } });
  beforeAll(async () => {
    gw = await testGateway();
  });
  afterAll(async () => {
    await gw.cleanup();
  });

  it('gateway token create: the environment from the channels or --environment; never both kinds', async () => {
    const merchant = await createMerchant(ctx(), { name: 'Shop' });
    const t = await createChannel(ctx(), { merchantId: merchant.id, name: 'T' });
    const l = await createChannel(ctx(), { merchantId: merchant.id, name: 'L', mode: 'LIVE' });
    expect(
      (await createToken(ctx(), { merchantId: merchant.id, channelIds: [l.id] })).token.environment,
    ).toBe('live');
    expect(
      (await createToken(ctx(), { merchantId: merchant.id, channelIds: [t.id] })).token.environment,
    ).toBe('test');
    expect((await createToken(ctx(), { merchantId: merchant.id })).token.environment).toBe('test');
    // a token without channels yet is still bound: stored with its environment
    const bare = await createToken(ctx(), { merchantId: merchant.id, environment: 'live' });
    expect((await gw.store.getTokenByUserId(bare.token.userId))?.environment).toBe('live');
    await expect(createToken(ctx(), { merchantId: merchant.id, channelIds: [t.id, l.id] })).rejects.toThrow(
      /may not mix test and live/,
    );
    await expect(
      createToken(ctx(), { merchantId: merchant.id, channelIds: [t.id], environment: 'live' }),
    ).rejects.toThrow(/does not match/);
    // the bare live token works on the live address with the live channel, not on the test one
    const onLive = await gw.live.post('/v1/payments', payment(l.id), { token: bare.accessToken });
    expect(onLive.body.result.code).toBe('600.200.201');
    expect((await gw.post('/v1/payments', payment(t.id), { token: bare.accessToken })).status).toBe(403);
  });

  it('gateway merchant set ID --dispatching on|off', async () => {
    const merchant = await createMerchant(ctx(), { name: 'Dispatching' });
    expect((await setMerchant(ctx(), { merchantId: merchant.id, dispatching: true })).dispatching).toBe(true);
    expect((await gw.store.getMerchant(merchant.id))?.dispatching).toBe(true);
    expect(
      (await setMerchant(ctx(), { merchantId: merchant.id, dispatching: false })).dispatching,
    ).toBeUndefined();
  });
});

describe('the live address as a process (GATEWAY_LIVE_PORT)', () => {
  let certDir: string;
  const dirs: string[] = [];
  const dataDir = async () => {
    const dir = await mkdtemp(join(tmpdir(), 'gateway-env-'));
    dirs.push(dir);
    return dir;
  };
  beforeAll(async () => {
    certDir = await mkdtemp(join(tmpdir(), 'gateway-env-cert-'));
    selfSignedCertificate(certDir);
  });
  afterEach(async () => {
    await stopAll();
  });
  afterAll(async () => {
    await Promise.all([certDir, ...dirs].map((d) => rm(d, { recursive: true, force: true })));
  });

  it('refuses to start without TLS or a trusted proxy, even on a developer machine', async () => {
    const livePort = await freePort();
    await expect(
      spawnGateway({ dataDir: await dataDir(), env: { GATEWAY_LIVE_PORT: String(livePort) } }),
    ).rejects.toThrow(/refusing to start: the live address \(GATEWAY_LIVE_PORT\) needs TLS/);
  });

  it('with its own certificate answers over HTTPS only; the test address stays plain HTTP', async () => {
    const livePort = await freePort();
    const gateway = await spawnGateway({
      dataDir: await dataDir(),
      env: {
        GATEWAY_LIVE_PORT: String(livePort),
        GATEWAY_LIVE_TLS_CERT: join(certDir, 'cert.pem'),
        GATEWAY_LIVE_TLS_KEY: join(certDir, 'key.pem'),
      },
    });
    // the test address: plain HTTP as before
    expect((await fetch(`${gateway.baseUrl}/v1/resultcodes`)).status).toBe(200);
    // the live address: HTTPS …
    const secure = await new Promise<{ status: number; hsts: string | undefined }>((resolve, reject) => {
      const req = httpsRequest(
        { host: '127.0.0.1', port: livePort, path: '/v1/resultcodes', rejectUnauthorized: false },
        (res) => {
          res.resume();
          res.on('end', () =>
            resolve({
              status: res.statusCode ?? 0,
              hsts: res.headers['strict-transport-security'] as string,
            }),
          );
        },
      );
      req.on('error', reject);
      req.end();
    });
    expect(secure.status).toBe(200);
    expect(secure.hsts).toContain('max-age');
    // … and nothing over plain HTTP
    await expect(fetch(`http://127.0.0.1:${livePort}/v1/resultcodes`)).rejects.toThrow();
    // the demo merchant's test token is refused there
    const demo = JSON.parse(
      (await import('node:fs')).readFileSync(join(dirs.at(-1)!, 'demo-merchant.json'), 'utf8'),
    ) as { entityId: string; accessToken: string };
    const refused = await new Promise<{ status: number; text: string }>((resolve, reject) => {
      const req = httpsRequest(
        {
          host: '127.0.0.1',
          port: livePort,
          path: `/v1/query?entityId=${demo.entityId}&merchantTransactionId=x`,
          headers: { Authorization: `Bearer ${demo.accessToken}` },
          rejectUnauthorized: false,
        },
        (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => {
            text += chunk;
          });
          res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
        },
      );
      req.on('error', reject);
      req.end();
    });
    expect(refused.status).toBe(403);
    expect(JSON.parse(refused.text).result.code).toBe('800.900.300');
  });
});
