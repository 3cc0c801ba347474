/**
 * Text that cannot be stored (issue 30, hole 2): NUL, lone surrogates and overlong UTF-8 sent in
 * every path parameter of every route the app registers (its own route table, so new routes are
 * covered), in query strings, form fields, header credentials and the admin sign-in, on SQLite
 * and PostgreSQL. PostgreSQL refuses NUL in text; before, each of these was a 500 with a stack
 * trace logged, answered without credentials and never throttled. None may be a 5xx.
 */
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { ADMIN_TOKEN, adminCall } from '../../../test-kit/admin';
import { VISA_CARD } from '../../../test-kit/fixtures/cards';
import { type TestGateway, type TestResponse, testGateway } from '../../../test-kit/gateway';
import { type PostgresCluster, startPostgres } from '../../../test-kit/postgres';
import { type Dialect, describeDialects } from '../../../test-kit/store-dialects';

/** Percent-encoded: NUL, a lone high surrogate (CESU), overlong NUL in two and three bytes. */
const PAYLOADS = ['%00', '%ED%A0%80', '%C0%80', '%E0%80%80'] as const;
/** The same as JavaScript text, where JSON can carry it (the admin API's bodies). */
const JSON_PAYLOADS = ['\u0000', '\ud800', 'a\udc00b'] as const;
const HEX = 'ab'.repeat(16);

/** Every route with path parameters, as Hono registered it, parameters replaced by `value`. */
function routesWithParameters(gw: TestGateway) {
  const seen = new Set<string>();
  const routes: { method: string; path: string; params: string[] }[] = [];
  for (const { method, path } of gw.app.routes) {
    const params = [...path.matchAll(/:(\w+)(\{[^}]*\})?\??/g)].map((m) => m[0]);
    if (params.length === 0 || path.includes('*')) continue;
    for (const m of method === 'ALL' ? ['GET', 'POST'] : [method]) {
      const key = `${m} ${path}`;
      if (seen.has(key)) continue;
      seen.add(key);
      routes.push({ method: m, path, params });
    }
  }
  return routes;
}

/** Every distinct method and path without parameters (query strings and bodies go there). */
function plainRoutes(gw: TestGateway) {
  const seen = new Set<string>();
  return gw.app.routes.filter(({ method, path }) => {
    const key = `${method} ${path}`;
    if (method === 'ALL' || path.includes(':') || path.includes('*') || seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

describeDialects('text that cannot be stored is never a 5xx (%s)', (dialect: Dialect) => {
  let gw: TestGateway;
  let cluster: PostgresCluster | undefined;
  const counts = { requests: 0, fiveXx: 0 };
  const failures: string[] = [];

  beforeAll(async () => {
    if (dialect === 'postgres') cluster = await startPostgres();
    gw = await testGateway({
      ...(cluster === undefined ? {} : { databaseUrl: cluster.url }),
      env: { GATEWAY_ADMIN_TOKEN: ADMIN_TOKEN },
    });
  }, 60_000);
  // each test lists its own
  beforeEach(() => {
    failures.length = 0;
  });
  afterAll(async () => {
    await gw?.cleanup();
    await cluster?.stop();
    console.log(`[fuzz ${dialect}] ${counts.requests} requests, ${counts.fiveXx} answered 5xx`);
  }, 60_000);

  const record = (what: string, res: { status: number; text: string }) => {
    counts.requests++;
    // 503 "not built" is the widget or dashboard build missing (npx tsx widget/build/ensure.ts), not a fault
    if (res.status >= 500 && !(res.status === 503 && /not built/.test(res.text))) {
      counts.fiveXx++;
      failures.push(`${what} → ${res.status} ${res.text.slice(0, 160)}`);
    }
  };
  const send = async (method: string, path: string, body: string | undefined, token?: string) => {
    const res: TestResponse = await gw.send(method, path, method === 'GET' ? undefined : (body ?? ''), {
      ...(token === undefined ? {} : { token }),
    });
    record(`${method} ${path} ${body ?? ''}${token === undefined ? '' : ' (token)'}`, res);
  };

  it('answers 400 200.300.404 naming the field: a path id, a query field, a form field, a sign-in name', async () => {
    const token = gw.demo!.accessToken;
    const entityId = gw.demo!.entityId;
    const path = await gw.get(`/v1/payments/abc%00def`, { entityId }, { token });
    expect([path.status, path.body?.result?.code, path.body?.result?.parameterErrors]).toEqual([
      400,
      '200.300.404',
      [{ name: 'id', value: 'abc%00def', message: expect.stringContaining('cannot be stored') }],
    ]);
    const query = await gw.get('/v1/query', `entityId=${entityId}&merchantTransactionId=a%00b`, { token });
    expect([query.status, query.body?.result?.parameterErrors?.map((e: { name: string }) => e.name)]).toEqual(
      [400, ['merchantTransactionId']],
    );
    const card = await gw.post('/v1/payments', `entityId=${entityId}&card.number=4200000000000000%00`, {
      token,
    });
    expect([card.status, card.body?.result?.parameterErrors]).toEqual([
      400,
      [{ name: 'card.number', value: '***', message: expect.stringContaining('cannot be stored') }],
    ]);
    const header = await gw.get(
      `/v1/payments/${HEX}`,
      { entityId },
      { token: Buffer.from('us\u0000er|x').toString('base64') },
    );
    expect(header.status).toBe(403);
    const signIn = await adminCall(gw.app, 'POST', '/admin/v1/session', {
      body: { username: 'ad\u0000min', password: 'x' },
    });
    expect([
      signIn.status,
      signIn.body?.result?.parameterErrors?.map((e: { name: string }) => e.name),
    ]).toEqual([400, ['username']]);
  });

  it('in every path parameter of every route, with and without credentials', async () => {
    const token = gw.demo!.accessToken;
    const entityId = gw.demo!.entityId;
    for (const route of routesWithParameters(gw)) {
      for (const payload of PAYLOADS) {
        for (const param of route.params) {
          let path = route.path;
          for (const other of route.params)
            path = path.replace(other, other === param ? `a${payload}b` : HEX);
          const query = route.method === 'GET' || route.method === 'DELETE' ? `?entityId=${entityId}` : '';
          const body = query === '' ? `entityId=${entityId}` : undefined;
          await send(route.method, `${path}${query}`, body);
          await send(route.method, `${path}${query}`, body, token);
          await send(route.method, `${path}${query}`, body, ADMIN_TOKEN);
        }
      }
    }
    expect(failures).toEqual([]);
  }, 300_000);

  it('in query strings and form fields of every route without path parameters', async () => {
    const token = gw.demo!.accessToken;
    const entityId = gw.demo!.entityId;
    for (const route of plainRoutes(gw)) {
      for (const payload of PAYLOADS) {
        const fields = [
          `entityId=a${payload}b`,
          `entityId=${entityId}&merchantTransactionId=a${payload}b`,
          `entityId=${entityId}&a${payload}b=1`,
          `authentication.userId=a${payload}b&authentication.password=x&entityId=${entityId}`,
        ];
        for (const fieldText of fields) {
          if (route.method === 'GET' || route.method === 'DELETE') {
            await send(route.method, `${route.path}?${fieldText}`, undefined, token);
            await send(route.method, `${route.path}?${fieldText}`, undefined);
          } else {
            await send(route.method, route.path, fieldText, token);
            await send(route.method, route.path, fieldText);
          }
        }
      }
    }
    expect(failures).toEqual([]);
  }, 300_000);

  it('in the free-text fields of a payment and a checkout', async () => {
    const token = gw.demo!.accessToken;
    const entityId = gw.demo!.entityId;
    const base = new URLSearchParams({
      entityId,
      amount: '1.00',
      currency: 'EUR',
      paymentType: 'DB',
      ...VISA_CARD,
    });
    for (const payload of PAYLOADS) {
      for (const name of [
        'customer.givenName',
        'descriptor',
        'card.holder',
        'customParameters[note]',
        'merchantInvoiceId',
      ]) {
        const body = `${base}&${encodeURIComponent(name)}=x${payload}y`;
        await send('POST', '/v1/payments', body, token);
        await send(
          'POST',
          '/v1/checkouts',
          `entityId=${entityId}&amount=1.00&currency=EUR&paymentType=DB&${encodeURIComponent(name)}=x${payload}y`,
          token,
        );
        await send(
          'POST',
          '/v1/registrations',
          `entityId=${entityId}&${new URLSearchParams(VISA_CARD)}&${encodeURIComponent(name)}=x${payload}y`,
          token,
        );
      }
      // a raw NUL byte in the body, not percent-encoded
      await send('POST', '/v1/payments', `${base}&merchantTransactionId=x\u0000y`, token);
    }
    expect(failures).toEqual([]);
  }, 120_000);

  it('in header credentials (the token’s userId and secret) and the admin sign-in', async () => {
    const entityId = gw.demo!.entityId;
    for (const bad of JSON_PAYLOADS) {
      for (const token of [
        Buffer.from(`us${bad}er|secret`).toString('base64'),
        Buffer.from(`user|sec${bad}ret`).toString('base64'),
        Buffer.from([0x75, 0x00, 0x7c, 0x73]).toString('base64'),
        Buffer.from([0x75, 0xc0, 0x80, 0x7c, 0x73]).toString('base64'),
      ]) {
        await send('GET', `/v1/payments/${HEX}?entityId=${entityId}`, undefined, token);
        await send(
          'POST',
          '/v1/payments',
          `entityId=${entityId}&amount=1.00&currency=EUR&paymentType=DB`,
          token,
        );
        await send('GET', `/v1/query?entityId=${entityId}`, undefined, token);
      }
      for (const body of [
        { username: `ad${bad}min`, password: 'x' },
        { username: 'admin', password: `p${bad}w` },
        { username: 'admin', password: 'pw', totp: `1${bad}2` },
        { [`user${bad}name`]: 'x', password: 'y' },
      ]) {
        record(
          `sign-in ${JSON.stringify(body)}`,
          await adminCall(gw.app, 'POST', '/admin/v1/session', { body }),
        );
      }
      const merchant = gw.demo!.merchantId;
      record(
        'webhook url',
        await adminCall(gw.app, 'POST', `/admin/v1/merchants/${merchant}/webhooks`, {
          token: ADMIN_TOKEN,
          body: { url: `https://shop.example/${bad}`, key: 'a'.repeat(64) },
        }),
      );
    }
    expect(failures).toEqual([]);
  }, 120_000);
});
