/**
 * Blind SSRF: the URLs merchants (notificationUrl, a checkout's shopperResultUrl, webhooks) and
 * the operator (connectors) give the gateway are called only when the egress policy
 * (server/security/egress.ts) lets them: never loopback in production, never private, link-local,
 * unique-local, metadata or reserved addresses unless GATEWAY_CALLBACK_ALLOW lists them. Literal
 * addresses and names known to be refused are answered 400 at the request, naming the parameter;
 * names are checked where the connection is made (the address connected to is the one checked),
 * and redirects are never followed. Every receiver is on loopback; names resolve through a
 * resolver injected into the policy (no DNS, no internet).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type FakeClock, fakeClock } from '../../test-kit/clock';
import { CARD_FIELDS, VISA_CARD } from '../../test-kit/fixtures/cards';
import { ADMIN_TOKEN } from '../../test-kit/fixtures/tokens';
import { type TestGateway, type TestMerchant, testGateway } from '../../test-kit/gateway';
import { type Receiver, startReceiver } from '../../test-kit/receiver';
import { WEBHOOKS_DRIVEN } from '../../test-kit/webhooks';

const MINUTE = 60_000;

/** Names the tests' resolver knows: every one of them is this machine. */
const resolve = async (hostname: string) => {
  if (hostname === 'shop.test' || hostname === 'rebind.test') return [{ address: '127.0.0.1', family: 4 }];
  throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
};

/** A server that answers every request with a redirect to `location`, and counts them. */
async function redirector(
  location: () => string,
): Promise<{ url: string; hits: string[]; close: () => Promise<void> }> {
  const hits: string[] = [];
  const server: Server = createServer((req, res) => {
    hits.push(req.url ?? '');
    res.writeHead(302, { Location: location() }).end();
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    hits,
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}

describe('outbound calls to merchant- and operator-supplied URLs (SSRF)', () => {
  let receiver: Receiver;
  let port: string;

  beforeAll(async () => {
    receiver = await startReceiver();
    port = new URL(receiver.url).port;
  });
  afterAll(() => receiver?.close());
  beforeEach(() => {
    receiver.received.length = 0;
    receiver.answerWith(200);
  });

  describe('in production (NODE_ENV=production), nothing allow-listed', () => {
    let gw: TestGateway;
    let m: TestMerchant;
    let clock: FakeClock;

    const pay = (params: Record<string, string>) =>
      gw.post(
        '/v1/payments',
        {
          entityId: m.entityId,
          amount: '10.00',
          currency: 'EUR',
          paymentType: 'DB',
          ...VISA_CARD,
          ...params,
        },
        { token: m.token },
      );
    const admin = (method: string, path: string, body?: object) =>
      gw.send(method, path, body === undefined ? undefined : JSON.stringify(body), {
        headers: { Authorization: `Bearer ${ADMIN_TOKEN}`, 'Content-Type': 'application/json' },
      });
    /** Runs the dispatcher until nothing is due (a minute of fake time apart). */
    const drain = async () => {
      for (let i = 0; i < 5; i++) {
        await gw.webhooks.runOnce();
        clock.advance(MINUTE);
      }
    };

    beforeAll(async () => {
      clock = fakeClock();
      gw = await testGateway({
        clock,
        env: { GATEWAY_ADMIN_TOKEN: ADMIN_TOKEN },
        egress: { production: true, resolve },
        ...WEBHOOKS_DRIVEN,
      });
      m = await gw.addMerchant({ channels: 1 });
    });
    afterAll(() => gw?.cleanup());

    const LOOPBACK_FORMS = [
      'http://127.0.0.1:PORT/x',
      'http://127.1:PORT/x',
      'http://2130706433:PORT/x',
      'http://0x7f000001:PORT/x',
      'http://0177.0.0.1:PORT/x',
      'http://127.0.0.1.:PORT/x',
      'http://localhost:PORT/x',
      'http://LOCALHOST.:PORT/x',
      'http://shop.localhost:PORT/x',
      'http://0.0.0.0:PORT/x',
      'http://0:PORT/x',
      'http://[::1]:PORT/x',
      'http://[::ffff:7f00:1]:PORT/x',
      'http://[::ffff:127.0.0.1]:PORT/x',
      'http://[::]:PORT/x',
      'http://10.0.0.1/x',
      'http://192.168.1.1/x',
      'http://172.16.0.1/x',
      'http://100.64.0.1/x',
      'http://169.254.169.254/latest/meta-data/',
      'http://metadata.google.internal/computeMetadata/v1/',
      'http://[fd00:ec2::254]/',
      'http://[fe80::1]/',
      'http://[::ffff:a9fe:a9fe]/',
      'http://224.0.0.1/',
      'http://255.255.255.255/',
    ];

    it.each(LOOPBACK_FORMS)('answers 400 naming notificationUrl for %s, and never calls it', async (form) => {
      const url = form.replace('PORT', port);
      const res = await pay({ notificationUrl: url });
      expect(res.status, res.text).toBe(400);
      expect(res.body.result.code).toBe('200.300.404');
      expect(res.body.result.parameterErrors).toEqual([
        expect.objectContaining({
          name: 'notificationUrl',
          value: url,
          message: expect.stringMatching(/must not/),
        }),
      ]);
      expect(await gw.paymentIds(m.merchantId)).toHaveLength(0);
      await drain();
      expect(receiver.received).toEqual([]);
    });

    it('answers 400 naming shopperResultUrl and notificationUrl of a checkout', async () => {
      const res = await gw.post(
        '/v1/checkouts',
        {
          entityId: m.entityId,
          amount: '10.00',
          currency: 'EUR',
          paymentType: 'DB',
          shopperResultUrl: `http://127.1:${port}/return`,
          notificationUrl: 'http://[::1]/notify',
        },
        { token: m.token },
      );
      expect(res.status).toBe(400);
      expect(res.body.result.code).toBe('200.300.404');
      expect(res.body.result.parameterErrors.map((e: { name: string }) => e.name).sort()).toEqual([
        'notificationUrl',
        'shopperResultUrl',
      ]);
    });

    it('answers 400 naming notificationUrl of a registration', async () => {
      const { paymentBrand, ...card } = VISA_CARD;
      const res = await gw.post(
        '/v1/registrations',
        { entityId: m.entityId, paymentBrand, ...card, notificationUrl: `http://localhost:${port}/r` },
        { token: m.token },
      );
      expect(res.status).toBe(400);
      expect(res.body.result.parameterErrors[0].name).toBe('notificationUrl');
    });

    it("keeps public URLs, and a payment's shopperResultUrl (where the shopper's browser goes, never the gateway)", async () => {
      const res = await pay({
        notificationUrl: 'https://shop.example/notify',
        shopperResultUrl: 'http://10.0.0.7/return',
      });
      expect(res.status, res.text).toBe(200);
    });

    it('checks the address a name resolves to when connecting: a name of this machine is not called', async () => {
      const res = await pay({ notificationUrl: `http://shop.test:${port}/notify` });
      expect(res.status, res.text).toBe(200);
      await drain();
      expect(receiver.received).toEqual([]);
      const log = await admin('GET', `/admin/v1/merchants/${m.merchantId}/webhook-deliveries`);
      const delivery = log.body.deliveries.find((d: { paymentId: string }) => d.paymentId === res.body.id);
      expect(delivery.status).toBe('pending');
      expect(delivery.lastError).toMatch(/not reachable: .*127\.0\.0\.1.*loopback/);
    });

    it("does not send a checkout's shopperResultUrl notification to a name of this machine", async () => {
      const created = await gw.post(
        '/v1/checkouts',
        {
          entityId: m.entityId,
          amount: '10.00',
          currency: 'EUR',
          paymentType: 'DB',
          shopperResultUrl: `http://rebind.test:${port}/return`,
        },
        { token: m.token },
      );
      expect(created.status, created.text).toBe(200);
      const submitted = await gw.post(`/v1/checkouts/${created.body.id}/payment`, CARD_FIELDS);
      expect(submitted.status, submitted.text).toBe(200);
      clock.advance(30 * MINUTE);
      expect(await gw.notifier.runOnce()).toBe(0);
      expect(receiver.received).toEqual([]);
    });

    it('refuses to register a webhook at a loopback or private URL, with its reason, and calls nothing', async () => {
      for (const url of [`${receiver.url}/hook`, 'http://10.1.2.3/hook', `http://[::1]:${port}/hook`]) {
        const res = await admin('POST', `/admin/v1/merchants/${m.merchantId}/webhooks`, { url });
        expect(res.status, res.text).toBe(400);
        expect(res.body.result.parameterErrors).toEqual([
          expect.objectContaining({
            name: 'url',
            message: expect.stringMatching(/must not point to an? [a-z-]+ address/),
          }),
        ]);
      }
      // A name of this machine passes the URL check but not the connection.
      const named = await admin('POST', `/admin/v1/merchants/${m.merchantId}/webhooks`, {
        url: `http://shop.test:${port}/hook`,
      });
      expect(named.status).toBe(400);
      expect(named.body.result.description).toMatch(/loopback/);
      expect(receiver.received).toEqual([]);
      expect((await admin('GET', `/admin/v1/merchants/${m.merchantId}/webhooks`)).body.webhooks).toEqual([]);
    });

    it('does not forward to a connector on this machine', async () => {
      const merchant = await gw.addMerchant({
        channels: 1,
        settings: {
          connector: {
            baseUrl: receiver.url,
            entityId: '8a8294174b7ecb28014b9699220015ca',
            accessToken: 'upstream-token',
          },
        },
      });
      const res = await gw.post(
        '/v1/payments',
        {
          entityId: merchant.entityId,
          amount: '10.00',
          currency: 'EUR',
          paymentType: 'DB',
          testMode: 'EXTERNAL',
          ...VISA_CARD,
        },
        { token: merchant.token },
      );
      expect(res.body.result.code).not.toMatch(/^000\./);
      expect(receiver.received).toEqual([]);
    });
  });

  describe('in production with GATEWAY_CALLBACK_ALLOW=127.0.0.1', () => {
    let gw: TestGateway;
    let m: TestMerchant;
    let clock: FakeClock;
    const admin = (method: string, path: string, body?: object) =>
      gw.send(method, path, body === undefined ? undefined : JSON.stringify(body), {
        headers: { Authorization: `Bearer ${ADMIN_TOKEN}`, 'Content-Type': 'application/json' },
      });

    beforeAll(async () => {
      clock = fakeClock();
      gw = await testGateway({
        clock,
        env: { GATEWAY_ADMIN_TOKEN: ADMIN_TOKEN, GATEWAY_CALLBACK_ALLOW: ' 127.0.0.1 , 192.0.2.0/24' },
        egress: { production: true, resolve },
        ...WEBHOOKS_DRIVEN,
      });
      m = await gw.addMerchant({ channels: 1 });
    });
    afterAll(() => gw?.cleanup());

    it('delivers notificationUrl callbacks and webhooks to the allowed address', async () => {
      const hook = await admin('POST', `/admin/v1/merchants/${m.merchantId}/webhooks`, {
        url: `${receiver.url}/hook`,
        encrypted: false,
      });
      expect(hook.status, hook.text).toBe(201);
      const res = await gw.post(
        '/v1/payments',
        {
          entityId: m.entityId,
          amount: '10.00',
          currency: 'EUR',
          paymentType: 'DB',
          ...VISA_CARD,
          notificationUrl: `http://127.1:${port}/notify`,
        },
        { token: m.token },
      );
      expect(res.status, res.text).toBe(200);
      await gw.webhooks.runOnce();
      const paths = receiver.received.map((r) => r.url.split('?')[0]);
      expect(paths).toContain('/notify');
      expect(paths.filter((p) => p === '/hook').length).toBeGreaterThanOrEqual(2); // test + PAYMENT
      await admin('DELETE', `/admin/v1/merchants/${m.merchantId}/webhooks/${hook.body.id}`);
    });

    it("sends a checkout's shopperResultUrl notification to a name resolving to the allowed address", async () => {
      const created = await gw.post(
        '/v1/checkouts',
        {
          entityId: m.entityId,
          amount: '10.00',
          currency: 'EUR',
          paymentType: 'DB',
          shopperResultUrl: `http://rebind.test:${port}/return`,
        },
        { token: m.token },
      );
      expect(created.status, created.text).toBe(200);
      const submitted = await gw.post(`/v1/checkouts/${created.body.id}/payment`, CARD_FIELDS);
      expect(submitted.status, submitted.text).toBe(200);
      clock.advance(30 * MINUTE);
      expect(await gw.notifier.runOnce()).toBe(1);
      expect(receiver.received.map((r) => [r.url.split('?')[0], r.headers.host])).toEqual([
        ['/return', `rebind.test:${port}`],
      ]);
    });

    it('still refuses what the list does not name (another loopback address, localhost)', async () => {
      for (const url of [`http://127.0.0.2:${port}/x`, `http://localhost:${port}/x`, 'http://10.0.0.1/x']) {
        const res = await gw.post(
          '/v1/payments',
          {
            entityId: m.entityId,
            amount: '10.00',
            currency: 'EUR',
            paymentType: 'DB',
            ...VISA_CARD,
            notificationUrl: url,
          },
          { token: m.token },
        );
        expect(res.status, url).toBe(400);
      }
    });

    it('follows no redirect: a 3xx is a failed delivery, and its Location is never called', async () => {
      const second = await startReceiver();
      const first = await redirector(() => `${second.url}/second`);
      try {
        const res = await gw.post(
          '/v1/payments',
          {
            entityId: m.entityId,
            amount: '10.00',
            currency: 'EUR',
            paymentType: 'DB',
            ...VISA_CARD,
            notificationUrl: `${first.url}/first`,
          },
          { token: m.token },
        );
        expect(res.status, res.text).toBe(200);
        await gw.webhooks.runOnce();
        clock.advance(MINUTE);
        await gw.webhooks.runOnce();
        expect(first.hits.length).toBeGreaterThanOrEqual(1);
        expect(second.received).toEqual([]);
        const log = await admin('GET', `/admin/v1/merchants/${m.merchantId}/webhook-deliveries`);
        const delivery = log.body.deliveries.find((d: { paymentId: string }) => d.paymentId === res.body.id);
        expect(delivery).toMatchObject({ status: 'pending', lastStatus: 302 });
        expect(delivery.lastError).toMatch(/302 \(redirects are not followed\)/);

        // The shopperResultUrl notification alike: not delivered, tried again later.
        const created = await gw.post(
          '/v1/checkouts',
          {
            entityId: m.entityId,
            amount: '10.00',
            currency: 'EUR',
            paymentType: 'DB',
            shopperResultUrl: `${first.url}/return`,
          },
          { token: m.token },
        );
        expect(created.status, created.text).toBe(200);
        expect((await gw.post(`/v1/checkouts/${created.body.id}/payment`, CARD_FIELDS)).status).toBe(200);
        clock.advance(30 * MINUTE);
        first.hits.length = 0;
        expect(await gw.notifier.runOnce()).toBe(0);
        expect(first.hits.map((h) => h.split('?')[0])).toEqual(['/return']);
        expect(second.received).toEqual([]);
      } finally {
        await first.close();
        await second.close();
      }
    });
  });

  it('does not start with a GATEWAY_CALLBACK_ALLOW it cannot read', async () => {
    await expect(testGateway({ env: { GATEWAY_CALLBACK_ALLOW: '10.0.0.0/99' } })).rejects.toThrow(
      /GATEWAY_CALLBACK_ALLOW: "10.0.0.0\/99"/,
    );
  });

  describe('on a developer machine (the default)', () => {
    let gw: TestGateway;
    let m: TestMerchant;

    beforeAll(async () => {
      gw = await testGateway({
        clock: fakeClock(),
        ...WEBHOOKS_DRIVEN,
      });
      m = await gw.addMerchant({ channels: 1 });
    });
    afterAll(() => gw?.cleanup());

    const pay = (notificationUrl: string) =>
      gw.post(
        '/v1/payments',
        {
          entityId: m.entityId,
          amount: '10.00',
          currency: 'EUR',
          paymentType: 'DB',
          ...VISA_CARD,
          notificationUrl,
        },
        { token: m.token },
      );

    it('reaches loopback (the demo shop, the tests), in any of its forms', async () => {
      const res = await pay(`http://127.1:${port}/dev`);
      expect(res.status, res.text).toBe(200);
      await gw.webhooks.runOnce();
      expect(receiver.received.map((r) => r.url.split('?')[0])).toEqual(['/dev']);
    });

    it('refuses private, link-local and metadata addresses all the same', async () => {
      for (const url of [
        'http://10.0.0.1/x',
        'http://169.254.169.254/',
        'http://metadata.google.internal/',
        'http://0.0.0.0/',
      ]) {
        const res = await pay(url);
        expect(res.status, url).toBe(400);
        expect(res.body.result.parameterErrors[0].name).toBe('notificationUrl');
      }
    });
  });
});
