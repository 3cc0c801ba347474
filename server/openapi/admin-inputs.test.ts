/**
 * The admin API's request bodies are the contract's (shared/contract/admin-inputs.ts), written
 * once: the served document's request schema of every admin operation with a body is the one
 * derived from the contract's zod schema, and the back office validates with those same schemas.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { ADMIN_INPUTS, type AdminInputName } from '../../shared/contract';
import {
  channelChangeBody,
  newChannelBody,
  parseChannelUpdate,
  parseNewChannel,
} from '../backoffice/channels/settings';
import { chargebackInput } from '../backoffice/chargebacks/chargebacks';
import { clockMoveInput } from '../backoffice/clock/moves';
import { newMerchantInput } from '../backoffice/merchants/merchants';
import { settlementRunInput } from '../backoffice/settlement/runs';
import { newTokenInput } from '../backoffice/tokens/tokens';
import { checkInput } from '../backoffice/webhooks/registration';
import { type TestGateway, testGateway } from '../test-kit/gateway';
import { openApiPath, type RouteDoc } from './route-doc';
import { ROUTE_DOCS } from './routes';

const ADMIN = 'an-operator-token-of-at-least-32-characters';
let gw: TestGateway;
// biome-ignore lint/suspicious/noExplicitAny: the served document, read field by field
let doc: any;

beforeAll(async () => {
  gw = await testGateway({ env: { GATEWAY_ADMIN_TOKEN: ADMIN }, webhooks: { autoStart: false } });
  const res = await gw.get('/admin/v1/openapi.json', {}, { token: ADMIN });
  expect(res.status).toBe(200);
  doc = res.body;
}, 60_000);
afterAll(async () => {
  await gw?.cleanup();
});

const withBody = ROUTE_DOCS.filter((d): d is RouteDoc & { json: AdminInputName } => d.json !== undefined);

/** The contract's schema as JSON Schema, as a client sends it (what the document must say). */
const derived = (name: AdminInputName) => {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(ADMIN_INPUTS[name], { io: 'input' }) as Record<
    string,
    unknown
  >;
  return rest;
};

/** The fields the contract's object requires (not optional as sent). */
const requiredBy = (name: AdminInputName): string[] => {
  const schema = ADMIN_INPUTS[name] as unknown as z.ZodObject;
  return Object.entries(schema.shape)
    .filter(([, field]) => (field as z.ZodType)._zod.optin !== 'optional')
    .map(([field]) => field);
};

describe("the admin API's request bodies are the contract's", () => {
  it('every admin operation with a JSON body names a contract schema, and every contract body is used', () => {
    expect(withBody.length).toBeGreaterThanOrEqual(15);
    expect(withBody.every((d) => d.path.startsWith('/admin/v1/'))).toBe(true);
    expect(new Set(withBody.map((d) => d.json))).toEqual(new Set(Object.keys(ADMIN_INPUTS)));
  });

  it("each one's request schema in the served document is the one derived from the contract", () => {
    for (const route of withBody) {
      const op = doc.paths[openApiPath(route.path)][route.method.toLowerCase()];
      const media = op.requestBody.content['application/json'];
      expect(media.schema, `${route.method} ${route.path}`).toEqual({
        $ref: `#/components/schemas/${route.json}`,
      });
      expect(doc.components.schemas[route.json], route.json).toEqual(derived(route.json));
    }
  });

  it('a field the contract requires is required in the document, and only those', () => {
    for (const name of Object.keys(ADMIN_INPUTS) as AdminInputName[])
      expect(doc.components.schemas[name].required ?? [], name).toEqual(requiredBy(name));
    expect(doc.components.schemas.AdminChannelInput.required).toEqual(['name']);
    expect(doc.components.schemas.AdminSignInInput.required).toEqual(['username', 'password']);
    expect(doc.components.schemas.AdminChannelChangeInput.properties.routes).toBeDefined();
    expect(doc.components.schemas.AdminChannelChangeInput.properties.name).toBeUndefined();
  });

  it('every example body the gateway accepts parses with its contract schema', () => {
    for (const route of withBody)
      for (const ex of route.examples ?? [])
        if (ex.json !== undefined && ex.answer.status < 400)
          expect(ADMIN_INPUTS[route.json].safeParse(ex.json).success, ex.name).toBe(true);
  });

  it('the back office validates with the same schemas', () => {
    expect(newMerchantInput).toBe(ADMIN_INPUTS.AdminMerchantInput);
    expect(newTokenInput).toBe(ADMIN_INPUTS.AdminTokenInput);
    expect(chargebackInput).toBe(ADMIN_INPUTS.AdminChargebackInput);
    expect(settlementRunInput).toBe(ADMIN_INPUTS.AdminSettlementRunInput);
    expect(Object.keys(clockMoveInput.shape)).toEqual(Object.keys(ADMIN_INPUTS.AdminClockMoveInput.shape));
    // a channel's bodies: the contract's fields, the catalogues' checks in place of some
    expect(Object.keys(newChannelBody.shape)).toEqual(Object.keys(ADMIN_INPUTS.AdminChannelInput.shape));
    expect(Object.keys(channelChangeBody.shape)).toEqual(
      Object.keys(ADMIN_INPUTS.AdminChannelChangeInput.shape),
    );
  });

  it.each([
    ['the brands and currencies as lists', { brands: ['VISA', 'MASTER'], currencies: ['EUR'] }],
    ['the brands and currencies as one text', { brands: 'VISA MASTER', currencies: 'EUR,SAR' }],
    ['every brand and currency', { brands: 'all', currencies: null }],
    [
      'a bank account, its BIC and country in small letters',
      {
        bankAccount: {
          holder: 'Shop One GmbH',
          iban: 'DE89 3704 0044 0532 0130 00',
          bic: 'cobadeffxxx',
          country: 'de',
        },
      },
    ],
    ['an adyen connector', { connector: { kind: 'adyen', apiKey: 'AQE-key', merchantAccount: 'ShopECOM' } }],
    ['an opp connector', { connector: { baseUrl: 'https://opp.example/', entityId: 'e', accessToken: 't' } }],
    [
      '3-D Secure, the CVV of stored cards, a throttle',
      { threeDSecure: true, registrationsRequireCvv: false, throttlePerMinute: 60 },
    ],
  ])('a channel body the back office takes, the contract documents: %s', (_, body) => {
    expect(() => parseNewChannel({ name: 'Web', ...body })).not.toThrow();
    expect(ADMIN_INPUTS.AdminChannelInput.safeParse({ name: 'Web', ...body }).success).toBe(true);
    expect(() => parseChannelUpdate(body)).not.toThrow();
    expect(ADMIN_INPUTS.AdminChannelChangeInput.safeParse(body).success).toBe(true);
  });

  it('routes the back office takes, the contract documents', () => {
    const routes = [
      {
        connector: { kind: 'stripe', apiKey: 'sk_test_1' },
        brands: ['VISA'],
        countries: ['DE'],
        currencies: ['EUR'],
        minAmount: 0,
        maxAmount: 500,
      },
    ];
    expect(() => parseChannelUpdate({ routes })).not.toThrow();
    expect(ADMIN_INPUTS.AdminChannelChangeInput.safeParse({ routes }).success).toBe(true);
  });

  it.each([
    [{ inbox: true }],
    [{ url: 'https://shop.example/hook', types: ['PAYMENT', 'RISK'], paymentTypes: ['DB', 'RF'] }],
    [{ url: 'http://127.0.0.1:8080/hook', key: 'ab'.repeat(32), encrypted: false }],
  ])('a webhook body the back office takes, the contract documents: %j', (body) => {
    expect(checkInput(body, [])).not.toBeInstanceOf(Array);
    expect(ADMIN_INPUTS.AdminWebhookInput.safeParse(body).success).toBe(true);
  });

  it('where the contract was stricter than the checks, the contract: the admin API refuses what it does not document', async () => {
    const m = await gw.addMerchant({ channels: 1 });
    const send = (method: string, path: string, body: unknown) =>
      gw.send(method, path, JSON.stringify(body), {
        token: ADMIN,
        headers: { 'Content-Type': 'application/json' },
      });
    const names = (res: { body: { result: { parameterErrors?: { name: string }[] } } }) =>
      (res.body.result.parameterErrors ?? []).map((e) => e.name);
    // a route's lists are arrays (a channel's own may be one text: the contract says both)
    const route = await send('PATCH', `/admin/v1/channels/${m.entityId}`, {
      routes: [{ connector: { kind: 'stripe', apiKey: 'sk_test_1' }, brands: 'VISA' }],
    });
    expect([route.status, names(route)]).toEqual([400, ['routes.0.brands']]);
    // a webhook's types are an array, its switches booleans
    const hooks = `/admin/v1/merchants/${m.merchantId}/webhooks`;
    const types = await send('POST', hooks, { url: 'https://shop.example/hook', types: 'PAYMENT' });
    expect([types.status, names(types)]).toEqual([400, ['types']]);
    const inbox = await send('POST', hooks, { inbox: 'true' });
    expect([inbox.status, names(inbox)]).toEqual([400, ['inbox']]);
    // an operator's merchantId is left out, not null
    const user = await send('POST', '/admin/v1/users', {
      username: 'null-merchant',
      role: 'operator',
      merchantId: null,
    });
    expect([user.status, names(user)]).toEqual([400, ['merchantId']]);
  });

  it('a channel field the contract does not name is refused, naming it', async () => {
    const m = await gw.addMerchant({ channels: 1 });
    const res = await gw.send(
      'PATCH',
      `/admin/v1/channels/${m.entityId}`,
      JSON.stringify({ threeDSecure: true, colour: 'blue' }),
      { token: ADMIN, headers: { 'Content-Type': 'application/json' } },
    );
    expect(res.status).toBe(400);
    expect(res.body.result.parameterErrors.map((e: { name: string }) => e.name)).toEqual(['colour']);
    expect(res.body.result.parameterErrors[0].message).toContain(
      Object.keys(ADMIN_INPUTS.AdminChannelChangeInput.shape)
        .filter((f) => f !== 'routes')
        .join(', '),
    );
  });
});
