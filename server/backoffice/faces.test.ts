/**
 * The back office's faces agree: each action run through the CLI (argv in, `--json`, on the
 * store of a running gateway) and through the admin API (HTTP against the same gateway) with the
 * same input gives the same outcome, the same error (the fields named), the same JSON shape,
 * and an audit entry from each.
 */
import { userInfo } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run } from '../cli/run';
import { openStore } from '../storage';
import { ADMIN_TOKEN, adminCall } from '../test-kit/admin';
import { VISA_CARD } from '../test-kit/fixtures/cards';
import { type TestGateway, testGateway } from '../test-kit/gateway';
import { clockGateway } from '../test-kit/test-clock';
import { testVault } from '../test-kit/vault';

let gw: TestGateway;
const CLI_ACTOR = `cli:${userInfo().username}`;
const UNKNOWN_ID = '0123456789abcdef0123456789abcdef';
const CARD = { ...VISA_CARD, 'card.cvv': '987' };

beforeAll(async () => {
  // on a test clock (the clock's rows move it), the workers stopped: each row's outcome is its own
  gw = await clockGateway({ env: { GATEWAY_ADMIN_TOKEN: ADMIN_TOKEN } });
}, 60_000);
afterAll(() => gw?.cleanup());

/** What a face answered, as the table compares it. */
interface Answer {
  /** ok, invalid (the fields named), not-found (what), or refused (well formed, not allowed). */
  readonly outcome: 'ok' | 'invalid' | 'not-found' | 'refused';
  readonly fields: readonly string[];
  // biome-ignore lint/suspicious/noExplicitAny: the answers are compared field by field
  readonly value: any;
}

async function viaCli(argv: readonly string[], on: TestGateway = gw): Promise<Answer> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await run([...argv, '--json'], {
    openStore: () =>
      openStore({ dataDir: on.dataDir, vault: testVault(), lockFolder: false, checkpoints: 'inline' }),
    output: { out: (l) => out.push(l), err: (l) => err.push(l) },
    readStdin: async () => undefined,
    openVault: () => testVault(),
    dataDir: on.dataDir,
    env: { GATEWAY_ADMIN_TOKEN: ADMIN_TOKEN },
    // `gateway clock` talks to the running gateway's admin API: this one's, in process
    adminFetch: (async (url: string, init?: RequestInit) => on.app.request(url, init)) as typeof fetch,
  });
  if (code === 0) return { outcome: 'ok', fields: [], value: JSON.parse(out.join('\n')) };
  const error = JSON.parse(err.find((l) => l.startsWith('{')) ?? '{}').error ?? {};
  const fields = ((error.parameterErrors ?? []) as { name: string }[]).map((e) => e.name);
  const outcome = code === 2 ? 'invalid' : /^unknown /.test(error.message ?? '') ? 'not-found' : 'refused';
  return { outcome, fields, value: error };
}

async function viaApi(method: string, path: string, body?: unknown, on: TestGateway = gw): Promise<Answer> {
  const res = await adminCall(on.app, method, path, { token: ADMIN_TOKEN, body });
  if (res.status < 300) {
    // the envelope every admin answer carries is the face's, not the action's
    const { result, buildNumber, timestamp, ndc, ...value } = res.body;
    return { outcome: 'ok', fields: [], value };
  }
  const fields = ((res.body?.result?.parameterErrors ?? []) as { name: string }[]).map((e) => e.name);
  // invalid input is answered with the envelope's one description; a refusal says its reason
  const invalid = res.body?.result?.description === 'invalid or missing parameter';
  return {
    outcome: res.status === 404 ? 'not-found' : invalid ? 'invalid' : 'refused',
    fields,
    value: res.body,
  };
}

async function auditActors(action: string, target: string): Promise<string[]> {
  const res = await adminCall(gw.app, 'GET', '/admin/v1/audit?after=0&limit=500', { token: ADMIN_TOKEN });
  return (res.body.entries as { actor: string; action: string; target: string }[])
    .filter((e) => e.action === action && e.target === target)
    .map((e) => e.actor);
}

const keys = (value: object): string[] => Object.keys(value).sort();
let merchantId = '';

describe('merchant create', () => {
  it.each([
    ['a plain name', 'Faces Shop', 'ok', []],
    ['a name with surrounding spaces (trimmed)', '  Padded Shop  ', 'ok', []],
    ['101 characters', 'x'.repeat(101), 'invalid', ['name']],
    ['a control character', 'bell\u0007shop', 'invalid', ['name']],
    ['an invisible character', 'evil\u202eeman', 'invalid', ['name']],
    ['empty', '', 'invalid', ['name']],
    ['blank', '   ', 'invalid', ['name']],
  ] as const)('%s: the same answer from the CLI and the admin API', async (_, name, outcome, fields) => {
    const cli = await viaCli(['merchant', 'create', '--name', name]);
    const api = await viaApi('POST', '/admin/v1/merchants', { name });
    expect({ outcome: cli.outcome, fields: cli.fields }).toEqual({ outcome, fields });
    expect({ outcome: api.outcome, fields: api.fields }).toEqual({ outcome, fields });
    if (outcome !== 'ok') return;
    expect(keys(cli.value)).toEqual(keys(api.value));
    expect(cli.value.name).toBe(name.trim());
    expect(api.value.name).toBe(name.trim());
    expect(cli.value.dispatching).toBe(false);
    expect(await auditActors('merchant.create', cli.value.id)).toEqual([CLI_ACTOR]);
    expect(await auditActors('merchant.create', api.value.id)).toEqual(['operator-token']);
    merchantId = api.value.id;
  });

  it('lists merchants in the same shape', async () => {
    const cli = await viaCli(['merchant', 'list']);
    const api = await viaApi('GET', '/admin/v1/merchants');
    expect(cli.outcome).toBe('ok');
    const fromApi = api.value.merchants.find((m: { id: string }) => m.id === merchantId);
    const fromCli = cli.value.find((m: { id: string }) => m.id === merchantId);
    expect(fromCli).toEqual(fromApi);
  });
});

describe('channel create', () => {
  it.each([
    ['a plain channel', (): string => merchantId, 'Web_Faces', 'ok', []],
    ['a name of 101 characters', (): string => merchantId, 'c'.repeat(101), 'invalid', ['name']],
    ['a control character in the name', (): string => merchantId, 'tab\there', 'invalid', ['name']],
    ['an unknown merchant', (): string => UNKNOWN_ID, 'Web', 'not-found', []],
  ] as const)(
    '%s: the same answer from the CLI and the admin API',
    async (_, merchant, name, outcome, fields) => {
      const cli = await viaCli(['channel', 'create', '--merchant', merchant(), '--name', name]);
      const api = await viaApi('POST', `/admin/v1/merchants/${merchant()}/channels`, { name });
      expect({ outcome: cli.outcome, fields: cli.fields }).toEqual({ outcome, fields });
      expect({ outcome: api.outcome, fields: api.fields }).toEqual({ outcome, fields });
      if (outcome !== 'ok') return;
      expect(keys(cli.value)).toEqual(keys(api.value));
      expect(await auditActors('channel.create', cli.value.entityId)).toEqual([CLI_ACTOR]);
      expect(await auditActors('channel.create', api.value.entityId)).toEqual(['operator-token']);
    },
  );
});

describe('channel update', () => {
  let entityId = '';
  beforeAll(async () => {
    const made = await viaApi('POST', `/admin/v1/merchants/${merchantId}/channels`, { name: 'Web_Update' });
    entityId = made.value.entityId;
  });

  it.each([
    ['3-D Secure on', (): string => entityId, ['--3ds', 'on'], { threeDSecure: true }, 'ok', []],
    [
      'an unknown brand',
      (): string => entityId,
      ['--brands', 'NOPE_PAY'],
      { brands: 'NOPE_PAY' },
      'invalid',
      ['brands'],
    ],
    [
      'an unknown channel',
      (): string => UNKNOWN_ID,
      ['--3ds', 'on'],
      { threeDSecure: true },
      'not-found',
      [],
    ],
  ] as const)(
    '%s: the same answer from the CLI and the admin API',
    async (_, channel, flags, body, outcome, fields) => {
      const cli = await viaCli(['channel', 'set', channel(), ...flags]);
      const api = await viaApi('PATCH', `/admin/v1/channels/${channel()}`, body);
      expect({ outcome: cli.outcome, fields: cli.fields }).toEqual({ outcome, fields });
      expect({ outcome: api.outcome, fields: api.fields }).toEqual({ outcome, fields });
      if (outcome !== 'ok') return;
      expect(cli.value).toEqual(api.value);
      expect(await auditActors('channel.update', entityId)).toEqual([CLI_ACTOR, 'operator-token']);
    },
  );
});

describe('channel connector', () => {
  let test = '';
  let live = '';
  // A live channel stops the test clock gateway-wide and its merchant's inbox webhooks (both on
  // purpose), which later rows use: the live channel lives on a gateway of its own.
  let liveGw: TestGateway;
  /** The gateway a channel lives on. */
  const home = (entityId: string): TestGateway => (entityId === live ? liveGw : gw);
  beforeAll(async () => {
    liveGw = await testGateway({ env: { GATEWAY_ADMIN_TOKEN: ADMIN_TOKEN } });
    const liveMerchant = (await viaApi('POST', '/admin/v1/merchants', { name: 'Live Shop' }, liveGw)).value
      .id;
    test = (await viaApi('POST', `/admin/v1/merchants/${merchantId}/channels`, { name: 'Web_Connector' }))
      .value.entityId;
    live = (
      await viaApi(
        'POST',
        `/admin/v1/merchants/${liveMerchant}/channels`,
        { name: 'Web_Connector_Live', mode: 'LIVE' },
        liveGw,
      )
    ).value.entityId;
  }, 60_000);
  afterAll(() => liveGw?.cleanup());
  const adyen = ['--connector-api-key', 'AQE-secret-key', '--connector-merchant-account', 'ShopECOM'];
  const adyenBody = { kind: 'adyen', apiKey: 'AQE-secret-key', merchantAccount: 'ShopECOM' };

  it.each([
    [
      'adyen on a TEST channel: Adyen’s test address by default',
      (): string => test,
      ['--connector', 'adyen', ...adyen],
      { connector: adyenBody },
      'ok',
      [],
    ],
    [
      'stripe: its one address by default',
      (): string => test,
      [
        '--connector',
        'stripe',
        '--connector-api-key',
        'sk_test_123',
        '--connector-webhook-secret',
        'whsec_x',
      ],
      { connector: { kind: 'stripe', apiKey: 'sk_test_123', webhookSecret: 'whsec_x' } },
      'ok',
      [],
    ],
    [
      'adyen without its merchant account',
      (): string => test,
      ['--connector', 'adyen', '--connector-api-key', 'AQE-secret-key'],
      { connector: { kind: 'adyen', apiKey: 'AQE-secret-key' } },
      'invalid',
      ['connector.merchantAccount'],
    ],
    [
      'an unknown kind',
      (): string => test,
      ['--connector', 'paypal', '--connector-api-key', 'k'],
      { connector: { kind: 'paypal', apiKey: 'k' } },
      'invalid',
      ['connector.kind'],
    ],
    [
      'adyen on a LIVE channel without the live prefix’s address',
      (): string => live,
      ['--connector', 'adyen', ...adyen],
      { connector: adyenBody },
      'invalid',
      ['connector.baseUrl'],
    ],
    [
      'an opp connector without its address',
      (): string => test,
      ['--connector-entity', UNKNOWN_ID, '--connector-token', 'tok'],
      { connector: { entityId: UNKNOWN_ID, accessToken: 'tok' } },
      'invalid',
      ['connector.baseUrl'],
    ],
  ] as const)(
    '%s: the same answer from the CLI and the admin API',
    async (_, channel, flags, body, outcome, fields) => {
      const on = home(channel());
      const cli = await viaCli(['channel', 'set', channel(), ...flags], on);
      const api = await viaApi('PATCH', `/admin/v1/channels/${channel()}`, body, on);
      expect({ outcome: cli.outcome, fields: cli.fields }).toEqual({ outcome, fields });
      expect({ outcome: api.outcome, fields: api.fields }).toEqual({ outcome, fields });
      // a credential is never echoed, set or refused
      for (const answer of [cli, api])
        expect(JSON.stringify(answer.value)).not.toMatch(/AQE-secret-key|sk_test_123|whsec_x/);
      if (outcome !== 'ok') {
        if (fields[0] === 'connector.baseUrl' && channel() === live)
          expect(JSON.stringify(api.value)).toContain('live prefix');
        return;
      }
      const { notificationUrl: _url, ...apiSetup } = api.value.connectorSetup;
      expect({ ...cli.value, connectorSetup: cli.value.connectorSetup }).toEqual({
        ...api.value,
        connectorSetup: apiSetup,
      });
      expect(api.value.connectorSetup.notificationPath).toBe(
        `/connectors/${body.connector.kind}/notifications/${channel()}`,
      );
      expect(api.value.connector.baseUrl).toBe(
        body.connector.kind === 'adyen' ? 'https://checkout-test.adyen.com/v71' : 'https://api.stripe.com',
      );
      // shown once: a later read has no setup and no credentials
      const read = await viaApi('GET', `/admin/v1/channels/${channel()}`);
      expect(read.value.connectorSetup).toBeUndefined();
      expect(Object.keys(read.value.connector).sort()).toEqual(
        body.connector.kind === 'adyen' ? ['baseUrl', 'kind', 'merchantAccount'] : ['baseUrl', 'kind'],
      );
    },
  );

  it('checks the connection through both faces: what the processor said, audited', async () => {
    // an opp peer on this machine: one token it accepts, any other refused
    const { createServer } = await import('node:http');
    const peer = createServer((req, res) => {
      const ok = req.headers.authorization === 'Bearer good-token';
      res.writeHead(ok ? 200 : 401, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ result: { code: ok ? '200.300.404' : '800.900.300' } }));
    });
    await new Promise<void>((resolve) => peer.listen(0, '127.0.0.1', resolve));
    const port = (peer.address() as { port: number }).port;
    try {
      for (const [token, credentials] of [
        ['good-token', 'accepted'],
        ['bad-token', 'refused'],
      ] as const) {
        const connector = { baseUrl: `http://127.0.0.1:${port}`, entityId: UNKNOWN_ID, accessToken: token };
        expect((await viaApi('PATCH', `/admin/v1/channels/${test}`, { connector })).outcome).toBe('ok');
        const cli = await viaCli(['channel', 'check', test]);
        const api = await viaApi('POST', `/admin/v1/channels/${test}/connector/check`);
        for (const answer of [cli, api]) {
          expect(answer.outcome).toBe('ok');
          expect(answer.value.connectorCheck).toMatchObject({
            kind: 'opp',
            reachable: true,
            credentials,
            status: credentials === 'accepted' ? 200 : 401,
          });
          expect(answer.value.connectorCheck.latencyMs).toBeGreaterThanOrEqual(0);
          expect(JSON.stringify(answer.value)).not.toContain(token);
        }
      }
    } finally {
      await new Promise((resolve) => peer.close(resolve));
    }
    // one entry per check, from each face (the log's order is its own)
    expect((await auditActors('channel.connector-check', test)).sort()).toEqual(
      [CLI_ACTOR, CLI_ACTOR, 'operator-token', 'operator-token'].sort(),
    );
    // nothing listening: not reachable, said so
    const api = await viaApi('POST', `/admin/v1/channels/${test}/connector/check`);
    expect(api.value.connectorCheck).toMatchObject({ reachable: false, credentials: 'unknown' });
  });

  it('routes (admin API): several connectors in order with their rules, shown without credentials', async () => {
    const routes = [
      {
        connector: { kind: 'adyen', apiKey: 'AQE-secret-key', merchantAccount: 'ShopECOM' },
        currencies: ['EUR'],
        maxAmount: 50000,
      },
      { connector: { kind: 'stripe', apiKey: 'sk_test_123' }, countries: ['DE', 'AT'] },
    ];
    const set = await viaApi('PATCH', `/admin/v1/channels/${test}`, { routes });
    expect(set.outcome).toBe('ok');
    expect(set.value.routes).toEqual([
      {
        connector: {
          kind: 'adyen',
          baseUrl: 'https://checkout-test.adyen.com/v71',
          merchantAccount: 'ShopECOM',
        },
        currencies: ['EUR'],
        maxAmount: 50000,
      },
      { connector: { kind: 'stripe', baseUrl: 'https://api.stripe.com' }, countries: ['DE', 'AT'] },
    ]);
    expect(JSON.stringify(set.value)).not.toMatch(/AQE-secret-key|sk_test_123/);
    const bad = await viaApi('PATCH', `/admin/v1/channels/${test}`, {
      routes: [{ connector: { kind: 'stripe' }, minAmount: 5, maxAmount: 1, countries: ['XX'] }],
    });
    expect([bad.outcome, [...bad.fields].sort()]).toEqual([
      'invalid',
      ['routes.0.connector.apiKey', 'routes.0.countries', 'routes.0.maxAmount'],
    ]);
    expect((await viaApi('PATCH', `/admin/v1/channels/${test}`, { routes: null })).value.routes).toBeNull();
  });

  const smallEur = 'kind=adyen;brands=VISA,MASTER;currencies=EUR;min=0.00;max=500.00';
  it.each([
    [
      'adyen for small EUR card payments, stripe for the rest',
      [
        '--route',
        `${smallEur};api-key=AQE-secret-key;merchant-account=ShopECOM`,
        '--route',
        'kind=stripe;api-key=sk_test_123',
      ],
      {
        routes: [
          {
            connector: { kind: 'adyen', apiKey: 'AQE-secret-key', merchantAccount: 'ShopECOM' },
            brands: ['VISA', 'MASTER'],
            currencies: ['EUR'],
            minAmount: 0,
            maxAmount: 50000,
          },
          { connector: { kind: 'stripe', apiKey: 'sk_test_123' } },
        ],
      },
      'ok',
      [],
    ],
    [
      'a route without its credentials, a country that is none, a range upside down',
      ['--route', 'kind=stripe;countries=XX;currencies=EUR;min=5.00;max=1.00'],
      {
        routes: [
          {
            connector: { kind: 'stripe' },
            countries: ['XX'],
            currencies: ['EUR'],
            minAmount: 500,
            maxAmount: 100,
          },
        ],
      },
      'invalid',
      ['routes.0.connector.apiKey', 'routes.0.countries', 'routes.0.maxAmount'],
    ],
    [
      'an unknown brand in the second route',
      [
        '--route',
        'kind=stripe;api-key=sk_test_123',
        '--route',
        'kind=stripe;api-key=sk_test_123;brands=NOPE',
      ],
      {
        routes: [
          { connector: { kind: 'stripe', apiKey: 'sk_test_123' } },
          { connector: { kind: 'stripe', apiKey: 'sk_test_123' }, brands: ['NOPE'] },
        ],
      },
      'invalid',
      ['routes.1.brands'],
    ],
  ] as const)(
    'routes, %s: the same answer from the CLI and the admin API',
    async (_, flags, body, outcome, fields) => {
      const cli = await viaCli(['channel', 'set', test, ...flags]);
      const api = await viaApi('PATCH', `/admin/v1/channels/${test}`, body);
      expect({ outcome: cli.outcome, fields: [...cli.fields].sort() }).toEqual({ outcome, fields });
      expect({ outcome: api.outcome, fields: [...api.fields].sort() }).toEqual({ outcome, fields });
      for (const answer of [cli, api])
        expect(JSON.stringify(answer.value)).not.toMatch(/AQE-secret-key|sk_test_123/);
      if (outcome === 'ok') expect(cli.value.routes).toEqual(api.value.routes);
      else {
        // the same words from both faces, the CLI naming its flag
        const said = (e: { message: string }) => e.message;
        expect(cli.value.parameterErrors.map(said).sort()).toEqual(
          api.value.result.parameterErrors.map(said).sort(),
        );
      }
    },
  );

  it('routes (CLI): a route naming only its kind takes the --connector-* credentials of that kind; --no-routes removes them', async () => {
    const cli = await viaCli([
      'channel',
      'set',
      test,
      '--connector',
      'adyen',
      '--connector-api-key',
      'AQE-secret-key',
      '--connector-merchant-account',
      'ShopECOM',
      '--route',
      'kind=adyen;currencies=EUR',
      '--route',
      'kind=stripe;api-key=sk_test_123',
    ]);
    expect(cli.outcome, JSON.stringify(cli.value)).toBe('ok');
    expect(cli.value.routes.map((r: { connector: { kind: string } }) => r.connector)).toEqual([
      { kind: 'adyen', baseUrl: 'https://checkout-test.adyen.com/v71', merchantAccount: 'ShopECOM' },
      { kind: 'stripe', baseUrl: 'https://api.stripe.com' },
    ]);
    const gone = await viaCli(['channel', 'set', test, '--no-routes']);
    expect(gone.value.routes).toBeNull();
  });

  it('refuses to check a channel without a connector, naming it', async () => {
    await viaApi('PATCH', `/admin/v1/channels/${live}`, { connector: null }, liveGw);
    const cli = await viaCli(['channel', 'check', live], liveGw);
    const api = await viaApi('POST', `/admin/v1/channels/${live}/connector/check`, undefined, liveGw);
    expect([cli.outcome, cli.fields]).toEqual(['refused', ['connector']]);
    expect([api.outcome, api.fields]).toEqual(['refused', ['connector']]);
  });
});

describe('token create and list', () => {
  it.each([
    ['a test token', (): string => merchantId, 'test', 'ok', []],
    ['an unknown environment', (): string => merchantId, 'staging', 'invalid', ['environment']],
    ['an unknown merchant', (): string => UNKNOWN_ID, 'test', 'not-found', []],
  ] as const)(
    '%s: the same answer from the CLI and the admin API',
    async (_, merchant, environment, outcome, fields) => {
      const cli = await viaCli(['token', 'create', '--merchant', merchant(), '--environment', environment]);
      const api = await viaApi('POST', `/admin/v1/merchants/${merchant()}/tokens`, { environment });
      expect({ outcome: cli.outcome, fields: cli.fields }).toEqual({ outcome, fields });
      expect({ outcome: api.outcome, fields: api.fields }).toEqual({ outcome, fields });
      if (outcome !== 'ok') return;
      expect(keys(cli.value)).toEqual(keys(api.value));
      expect(await auditActors('token.create', cli.value.id)).toEqual([CLI_ACTOR]);
      expect(await auditActors('token.create', api.value.id)).toEqual(['operator-token']);
    },
  );

  it('lists tokens in the same shape', async () => {
    const cli = await viaCli(['token', 'list', '--merchant', merchantId]);
    const api = await viaApi('GET', `/admin/v1/merchants/${merchantId}/tokens`);
    expect(cli.outcome).toBe('ok');
    expect(cli.value.length).toBeGreaterThan(0);
    expect(cli.value).toEqual(api.value.tokens);
  });
});

describe('user create', () => {
  it.each([
    ['a new operator', 'faces-operator', 'ok', []],
    ['the same username again', 'faces-operator', 'invalid', ['username']],
    ['a malformed username', 'no spaces allowed', 'invalid', ['username']],
  ] as const)('%s: the same answer from the CLI and the admin API', async (_, username, outcome, fields) => {
    // the CLI first: the second row's duplicate is the first row's user, made by each face
    const cli = await viaCli(['user', 'create', '--username', username, '--role', 'operator']);
    const api = await viaApi('POST', '/admin/v1/users', { username: `${username}-api`, role: 'operator' });
    const again = await viaApi('POST', '/admin/v1/users', { username, role: 'operator' });
    expect({ outcome: cli.outcome, fields: cli.fields }).toEqual({ outcome, fields });
    if (outcome === 'ok') {
      expect(api.outcome).toBe('ok');
      expect(keys(cli.value)).toEqual(keys(api.value));
      expect(keys(cli.value.user)).toEqual(keys(api.value.user));
      expect(await auditActors('user.create', cli.value.user.id)).toEqual([CLI_ACTOR]);
      expect(await auditActors('user.create', api.value.user.id)).toEqual(['operator-token']);
    } else expect({ outcome: again.outcome, fields: again.fields }).toEqual({ outcome, fields });
  });
});

describe('webhook add, list and remove', () => {
  const made: { cli?: string; api?: string } = {};

  it.each([
    ['an inbox webhook', (): string => merchantId, ['--inbox'], { inbox: true }, 'ok', []],
    [
      'a URL that is not http and a short key',
      (): string => merchantId,
      ['--url', 'ftp://x', '--key', 'zz'],
      { url: 'ftp://x', key: 'zz' },
      'invalid',
      ['url', 'key'],
    ],
    ['an unknown merchant', (): string => UNKNOWN_ID, ['--inbox'], { inbox: true }, 'not-found', []],
  ] as const)(
    '%s: the same answer from the CLI and the admin API',
    async (_, merchant, flags, body, outcome, fields) => {
      const cli = await viaCli(['webhook', 'add', '--merchant', merchant(), ...flags]);
      const api = await viaApi('POST', `/admin/v1/merchants/${merchant()}/webhooks`, body);
      expect({ outcome: cli.outcome, fields: cli.fields }).toEqual({ outcome, fields });
      expect({ outcome: api.outcome, fields: api.fields }).toEqual({ outcome, fields });
      if (outcome !== 'ok') return;
      expect(keys(cli.value)).toEqual(keys(api.value));
      expect(cli.value.key).toMatch(/^[0-9A-F]{64}$/);
      expect(await auditActors('webhook.create', cli.value.id)).toEqual([CLI_ACTOR]);
      expect(await auditActors('webhook.create', api.value.id)).toEqual(['operator-token']);
      made.cli = cli.value.id;
      made.api = api.value.id;
    },
  );

  it('lists webhooks in the same shape, never their keys', async () => {
    const cli = await viaCli(['webhook', 'list', '--merchant', merchantId]);
    const api = await viaApi('GET', `/admin/v1/merchants/${merchantId}/webhooks`);
    expect(cli.outcome).toBe('ok');
    expect(cli.value.map((w: { id: string }) => w.id)).toContain(made.cli);
    expect(cli.value).toEqual(api.value.webhooks);
    expect(JSON.stringify(cli.value)).not.toMatch(/"key"/);
  });

  it('removes a webhook once (audited), then answers not-found from both faces', async () => {
    const cli = await viaCli(['webhook', 'remove', '--merchant', merchantId, made.cli!]);
    const api = await viaApi('DELETE', `/admin/v1/merchants/${merchantId}/webhooks/${made.api}`);
    expect(cli).toMatchObject({ outcome: 'ok', value: { id: made.cli, deleted: true } });
    expect(api).toMatchObject({ outcome: 'ok', value: { id: made.api, deleted: true } });
    expect(await auditActors('webhook.delete', made.cli!)).toEqual([CLI_ACTOR]);
    expect(await auditActors('webhook.delete', made.api!)).toEqual(['operator-token']);
    const cliAgain = await viaCli(['webhook', 'remove', '--merchant', merchantId, made.api ?? '']);
    const apiAgain = await viaApi('DELETE', `/admin/v1/merchants/${merchantId}/webhooks/${made.cli}`);
    expect([cliAgain.outcome, apiAgain.outcome]).toEqual(['not-found', 'not-found']);
  });
});

describe('webhook deliveries and redelivery', () => {
  it.each([
    ['an unknown status', ['--status', 'lost'], '?status=lost', 'invalid', ['status']],
    ['a limit over 500', ['--limit', '501'], '?limit=501', 'invalid', ['limit']],
    ['no filter', [], '', 'ok', []],
  ] as const)(
    '%s: the same answer from the CLI and the admin API',
    async (_, flags, query, outcome, fields) => {
      const cli = await viaCli(['webhook', 'deliveries', '--merchant', merchantId, ...flags]);
      const api = await viaApi('GET', `/admin/v1/merchants/${merchantId}/webhook-deliveries${query}`);
      expect({ outcome: cli.outcome, fields: cli.fields }).toEqual({ outcome, fields });
      expect({ outcome: api.outcome, fields: api.fields }).toEqual({ outcome, fields });
      if (outcome === 'ok') expect(cli.value).toEqual(api.value.deliveries);
    },
  );

  it('an unknown delivery is not found by either face', async () => {
    const cli = await viaCli(['webhook', 'redeliver', '--merchant', merchantId, '999999']);
    const api = await viaApi('POST', `/admin/v1/merchants/${merchantId}/webhook-deliveries/999999/redeliver`);
    expect([cli.outcome, api.outcome]).toEqual(['not-found', 'not-found']);
  });

  it('a dead letter of a removed webhook is refused with its reason by either face', async () => {
    const m = await gw.addMerchant({ channels: 1 });
    const added = await viaApi('POST', `/admin/v1/merchants/${m.merchantId}/webhooks`, { inbox: true });
    expect(added.outcome).toBe('ok');
    const paid = await gw.post(
      '/v1/payments',
      { entityId: m.entityId, amount: '5.00', currency: 'EUR', paymentType: 'DB', ...CARD },
      { token: m.token },
    );
    expect(paid.status).toBe(200);
    // the workers stopped: the payment's delivery waits, and is dead-lettered with its webhook
    const removed = await viaApi('DELETE', `/admin/v1/merchants/${m.merchantId}/webhooks/${added.value.id}`);
    expect(removed.outcome).toBe('ok');
    const log = await viaApi('GET', `/admin/v1/merchants/${m.merchantId}/webhook-deliveries?status=dead`);
    const dead = (log.value.deliveries as { id: number; webhookId: string | null }[]).find(
      (d) => d.webhookId === added.value.id,
    );
    expect(dead).toBeDefined();
    const path = `/admin/v1/merchants/${m.merchantId}/webhook-deliveries/${dead!.id}/redeliver`;
    const answers = [
      await viaCli(['webhook', 'redeliver', '--merchant', m.merchantId, String(dead!.id)]),
      await viaApi('POST', path),
    ];
    expect(answers.map((a) => a.outcome)).toEqual(['refused', 'refused']);
    expect(answers[0]!.value.message).toContain('was removed');
    expect(answers[1]!.value.result.description).toBe(answers[0]!.value.message);
    expect(await auditActors('webhook-delivery.redeliver', String(dead!.id))).toEqual([]);
  });
});

describe('payment inquire', () => {
  it('an unknown payment is not found, one whose outcome is known refused with its reason, by either face', async () => {
    const m = await gw.addMerchant({ channels: 1 });
    const paid = await gw.post(
      '/v1/payments',
      { entityId: m.entityId, amount: '5.00', currency: 'EUR', paymentType: 'DB', ...CARD },
      { token: m.token },
    );
    expect(paid.status).toBe(200);
    const path = (id: string) => `/admin/v1/merchants/${m.merchantId}/payments/${id}/inquiry`;
    const unknown = [
      await viaCli(['payment', 'inquire', '--merchant', m.merchantId, UNKNOWN_ID]),
      await viaApi('POST', path(UNKNOWN_ID), {}),
    ];
    expect(unknown.map((a) => a.outcome)).toEqual(['not-found', 'not-found']);
    const known = [
      await viaCli(['payment', 'inquire', '--merchant', m.merchantId, paid.body.id]),
      await viaApi('POST', path(paid.body.id), {}),
    ];
    expect(known.map((a) => a.outcome)).toEqual(['refused', 'refused']);
    expect(known[0]!.value.message).toContain('is not uncertain');
    expect(known[1]!.value.result.description).toBe(known[0]!.value.message);
  });

  it('a registration whose outcome is known is refused with its reason, by either face', async () => {
    const m = await gw.addMerchant({ channels: 1 });
    const made = await gw.post('/v1/registrations', { entityId: m.entityId, ...CARD }, { token: m.token });
    expect(made.status).toBe(200);
    const path = `/admin/v1/merchants/${m.merchantId}/payments/${made.body.id}/inquiry`;
    const known = [
      await viaCli(['payment', 'inquire', '--merchant', m.merchantId, made.body.id]),
      await viaApi('POST', path, {}),
    ];
    expect(known.map((a) => a.outcome)).toEqual(['refused', 'refused']);
    expect(known[0]!.value.message).toContain(`registration ${made.body.id} is not uncertain`);
    expect(known[1]!.value.result.description).toBe(known[0]!.value.message);
  });
});

describe('settlement run', () => {
  let first = true;
  it.each([
    ['a past day', '2026-01-15', 'ok', []],
    ['the same day again (never settled twice)', '2026-01-15', 'ok', []],
    ['a day that is no date', '15.01.2026', 'invalid', ['date']],
    ['a day not over yet', '2099-01-01', 'refused', ['date']],
  ] as const)('%s: the same answer from the CLI and the admin API', async (_, date, outcome, fields) => {
    const cli = await viaCli(['settlement', 'run', '--date', date, '--merchant', merchantId]);
    const api = await viaApi('POST', `/admin/v1/merchants/${merchantId}/settlement-runs`, { date });
    expect({ outcome: cli.outcome, fields: cli.fields }).toEqual({ outcome, fields });
    expect({ outcome: api.outcome, fields: api.fields }).toEqual({ outcome, fields });
    if (outcome !== 'ok') return;
    type Account = { status: string };
    const [cliRun, apiRun] = [cli.value as Account[], api.value.accounts as Account[]];
    expect(cliRun.length).toBeGreaterThan(0);
    const apart = (run: Account[]) => run.map(({ status: _, ...account }) => account);
    expect(apart(cliRun)).toEqual(apart(apiRun));
    // the first run of the day settles it; every later one, from either face, finds it settled
    expect(new Set(apiRun.map((a) => a.status))).toEqual(new Set(['already-settled']));
    expect(new Set(cliRun.map((a) => a.status))).toEqual(new Set([first ? 'settled' : 'already-settled']));
    first = false;
    const actors = await auditActors('settlement.run', date);
    expect(actors.filter((a) => a === CLI_ACTOR).length).toBe(actors.filter((a) => a !== CLI_ACTOR).length);
  });

  it('an unknown merchant is not found by either face', async () => {
    const cli = await viaCli(['settlement', 'run', '--date', '2026-01-15', '--merchant', UNKNOWN_ID]);
    const api = await viaApi('POST', `/admin/v1/merchants/${UNKNOWN_ID}/settlement-runs`, {
      date: '2026-01-15',
    });
    expect([cli.outcome, api.outcome]).toEqual(['not-found', 'not-found']);
  });
});

describe('test clock', () => {
  it.each([
    ['a minute forward', ['clock', 'advance', '1m'], { advance: '1m' }, 'ok', []],
    ['no duration', ['clock', 'advance', 'soon'], { advance: 'soon' }, 'invalid', ['advance']],
    ['a time that is no ISO time', ['clock', 'set', '2026-12-01'], { to: '2026-12-01' }, 'invalid', ['to']],
    ['backwards', ['clock', 'set', '2026-01-01T00:00:00Z'], { to: '2026-01-01T00:00:00Z' }, 'refused', []],
  ] as const)(
    '%s: the same answer from the CLI and the admin API',
    async (_, argv, body, outcome, fields) => {
      const cli = await viaCli([...argv, '--url', 'http://gateway.test']);
      const api = await viaApi('POST', '/admin/v1/clock', body);
      expect({ outcome: cli.outcome, fields: cli.fields }).toEqual({ outcome, fields });
      // the API names the field a refusal is about; the CLI says the gateway's reason
      const apiFields = outcome === 'refused' ? ['to'] : fields;
      expect({ outcome: api.outcome, fields: api.fields }).toEqual({ outcome, fields: apiFields });
      if (outcome !== 'ok') return;
      expect(keys(cli.value)).toEqual(keys(api.value));
      // one minute each: the API's move starts where the CLI's ended
      expect(Date.parse(api.value.now) - Date.parse(cli.value.now)).toBe(60_000);
      expect(await auditActors('clock.move', cli.value.now)).toEqual(['operator-token']);
      expect(await auditActors('clock.move', api.value.now)).toEqual(['operator-token']);
    },
  );
});

describe('audit list', () => {
  type Entry = { readonly id: number };
  const ids = (entries: readonly Entry[]) => entries.map((e) => e.id);
  it.each([
    ['no filter: newest first', [], '', 'ok', []],
    ['after 0: oldest first, for following the log', ['--after', '0'], '?after=0', 'ok', []],
    [
      'one action, two a page',
      ['--action', 'merchant.create', '--limit', '2'],
      '?action=merchant.create&limit=2',
      'ok',
      [],
    ],
    [
      'after and before together, a limit of 0',
      ['--after', '1', '--before', '9', '--limit', '0'],
      '?after=1&before=9&limit=0',
      'invalid',
      ['before', 'limit'],
    ],
    ['a from that is no time', ['--from', 'yesterday'], '?from=yesterday', 'invalid', ['from']],
  ] as const)(
    '%s: the same answer from the CLI and the admin API',
    async (_, flags, query, outcome, fields) => {
      const cli = await viaCli(['audit', 'list', ...flags]);
      const api = await viaApi('GET', `/admin/v1/audit${query}`);
      expect({ outcome: cli.outcome, fields: cli.fields }).toEqual({ outcome, fields });
      expect({ outcome: api.outcome, fields: api.fields }).toEqual({ outcome, fields });
      if (outcome !== 'ok') return;
      // listing is no change: the CLI's read left the log as the API then read it
      expect(cli.value).toEqual(api.value.entries);
      const listed = ids(cli.value);
      expect(listed.length).toBeGreaterThan(1);
      const newestFirst = !flags.includes('--after' as never);
      expect(listed).toEqual([...listed].sort((a, b) => (newestFirst ? b - a : a - b)));
    },
  );
});
