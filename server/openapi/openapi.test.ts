/**
 * GET /v1/openapi.json: a valid OpenAPI 3.1 document (a standard validator), with every
 * parameter of the catalogue and every route of the real app in it, and every example in it
 * sent to a gateway and answered as the document says.
 */
import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SECTIONS } from '../../shared/params/catalogue';
import { ENDPOINT_PARAMETERS, REQUEST_KINDS } from '../../shared/params/requests';
import { type TestGateway, type TestMerchant, type TestResponse, testGateway } from '../test-kit/gateway';
import { kindSchemaName } from './kinds';
import { openApiPath } from './route-doc';
import { SAMPLE } from './samples';
import { flatten, sectionSchemaName } from './schema';

const ADMIN = 'an-operator-token-of-at-least-32-characters';

// biome-ignore lint/suspicious/noExplicitAny: the document is plain JSON
type Json = any;

let gw: TestGateway;
let m: TestMerchant;
let doc: Json;

beforeAll(async () => {
  gw = await testGateway({
    env: { GATEWAY_ADMIN_TOKEN: ADMIN },
    webhooks: { autoStart: false },
    scheduler: { autoStart: false },
    notifier: { autoStart: false },
    pending: { autoStart: false },
  });
  m = await gw.addMerchant({ channels: 1 });
  const res = await gw.get('/v1/openapi.json');
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  doc = res.body;
}, 60_000);
afterAll(async () => {
  await gw?.cleanup();
});

describe('GET /v1/openapi.json', () => {
  it('is a valid OpenAPI 3.1 document (@seriousme/openapi-schema-validator)', async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(doc));
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });

  it('names both environments in servers, test first', () => {
    expect(doc.servers.map((s: Json) => s.url)).toEqual(['http://localhost', 'https://live.localhost']);
  });

  it('has every parameter of the catalogue, with its format and R/C/O rule', () => {
    const schemas = doc.components.schemas;
    const names = (schema: Json) =>
      new Set([
        ...Object.keys(schema.properties ?? {}),
        ...Object.values(schema.patternProperties ?? {}).map((p: Json) => p['x-name']),
      ]);
    for (const [id, { group }] of Object.entries(SECTIONS)) {
      const schema = schemas[sectionSchemaName(id as keyof typeof SECTIONS)];
      const flat = flatten(group);
      const expected = [
        ...Object.keys(flat.properties),
        ...Object.values(flat.patternProperties).map((p) => p['x-name']),
      ];
      expect(expected.length).toBeGreaterThan(0);
      const present = names(schema);
      for (const name of expected) expect(present, `${id}: ${name}`).toContain(name);
      for (const p of Object.values(schema.properties) as Json[]) {
        expect(['R', 'C', 'O']).toContain(p['x-req']);
        expect(p.description).toMatch(/\w/);
      }
    }
    expect(schemas['Section.card'].properties['card.number']).toMatchObject({
      type: 'string',
      pattern: '^[0-9]{8,32}$',
      'x-req': 'R',
    });
    expect(schemas['Section.authentication'].properties['authentication.password'].deprecated).toBe(true);
    // the groups only one endpoint takes
    for (const { group } of ENDPOINT_PARAMETERS)
      for (const name of Object.keys(flatten(group).properties))
        expect(JSON.stringify(schemas[kindSchemaName('checkoutPayment')])).toContain(`"${name}"`);
    for (const kind of REQUEST_KINDS) expect(schemas[kindSchemaName(kind)], kind).toBeDefined();
  });

  it('has every route of the app, and no route the app lacks', () => {
    const routes = new Set(
      gw.app.routes.filter((r) => r.method !== 'ALL').map((r) => `${r.method} ${openApiPath(r.path)}`),
    );
    const documented = new Set(
      Object.entries(doc.paths).flatMap(([path, ops]) =>
        Object.keys(ops as object).map((method) => `${method.toUpperCase()} ${path}`),
      ),
    );
    expect(
      [...routes].filter((r) => !documented.has(r)),
      'routes without their OpenAPI entry',
    ).toEqual([]);
    expect(
      [...documented].filter((r) => !routes.has(r)),
      'entries without their route',
    ).toEqual([]);
  });

  it("says which parameters each route requires: the kind's, less what the route does without", () => {
    const query = (path: string) =>
      Object.fromEntries(
        doc.paths[path].get.parameters
          .filter((p: Json) => p.in === 'query')
          .map((p: Json) => [p.name, p.required]),
      );
    const aggregations = '/reports/v1/reconciliations/aggregations';
    expect(query(aggregations)).toMatchObject({ 'date.from': true, 'date.to': true, entityId: false });
    expect(query(`${aggregations}/{id}`)).toMatchObject({
      'date.from': false,
      'date.to': false,
      sortOrder: false,
    });
    expect(doc.components.schemas['Request.payment'].required).toEqual(['paymentType', 'amount', 'currency']);
  });

  it('carries the result-code catalogue and the security schemes', () => {
    expect(Object.keys(doc['x-resultCodes'].codes).length).toBeGreaterThan(500);
    expect(doc['x-resultCodes'].codes['000.100.110']).toBe(
      "Request successfully processed in 'Merchant in Integrator Test Mode'",
    );
    expect(Object.keys(doc.components.securitySchemes).sort()).toEqual([
      'legacyParameters',
      'merchantBearer',
      'operatorBearer',
    ]);
  });
});

interface Sent {
  readonly name: string;
  readonly status: number;
  readonly code: string | undefined;
  readonly res: TestResponse;
}

/** Every example of the document, found where OpenAPI puts them, keyed by name. */
function examples() {
  const out: { name: string; method: string; path: string; op: Json; status: number; code?: string }[] = [];
  for (const [path, ops] of Object.entries(doc.paths))
    for (const [method, op] of Object.entries(ops as Record<string, Json>))
      for (const [status, response] of Object.entries(op.responses as Record<string, Json>))
        for (const media of Object.values(response.content ?? {}) as Json[])
          for (const [name, ex] of Object.entries(media.examples ?? {}) as [string, Json][])
            out.push({
              name,
              method: method.toUpperCase(),
              path,
              op,
              status: Number(status),
              code: ex.value?.result?.code,
            });
  return out;
}

describe('the examples of /v1/openapi.json, sent to the gateway', () => {
  it('each gets the documented status and result code', async () => {
    const all = examples();
    expect(all.length).toBeGreaterThan(30);
    const byName = new Map(all.map((e) => [e.name, e]));
    expect(byName.size, 'example names are unique').toBe(all.length);
    const answers = new Map<string, Sent>();
    const ours = (v: string) =>
      v
        .replaceAll(SAMPLE.entityId, m.entityId)
        .replaceAll(SAMPLE.merchantId, m.merchantId)
        .replaceAll(SAMPLE.userId, m.userId)
        .replaceAll(SAMPLE.password, m.secret);

    async function run(name: string): Promise<Sent> {
      const done = answers.get(name);
      if (done !== undefined) return done;
      const ex = byName.get(name);
      if (ex === undefined) throw new Error(`no example named ${name}`);
      const value = async (v: Json, idOf: string | undefined) =>
        idOf === undefined ? ours(String(v)) : String((await run(idOf)).res.body.id);
      let path = ex.path;
      const query = new URLSearchParams();
      for (const p of (ex.op.parameters ?? []) as Json[]) {
        const given = p.examples?.[name];
        if (given === undefined) continue;
        const v = await value(given.value, given['x-idOf']);
        if (p.in === 'path') path = path.replace(`{${p.name}}`, encodeURIComponent(v));
        else query.append(p.name, v);
      }
      let body: string | undefined;
      const headers: Record<string, string> = {};
      const content = ex.op.requestBody?.content ?? {};
      const form = content['application/x-www-form-urlencoded']?.examples?.[name];
      const json = content['application/json']?.examples?.[name];
      if (form !== undefined) {
        const params = new URLSearchParams();
        for (const [k, v] of Object.entries(form.value))
          params.append(k, await value(v, form['x-idOf']?.[k]));
        body = params.toString();
        headers['Content-Type'] = 'application/x-www-form-urlencoded';
      } else if (json !== undefined) {
        body = ours(JSON.stringify(json.value));
        headers['Content-Type'] = 'application/json';
      }
      const security = (ex.op.security ?? []).map((s: Json) => Object.keys(s)[0]);
      // an example sending the deprecated authentication.* parameters authenticates by them alone
      const legacy =
        query.has('authentication.password') || (body ?? '').includes('authentication.password=');
      if (security.includes('merchantBearer') && !legacy) headers.Authorization = `Bearer ${m.token}`;
      if (security.includes('operatorBearer')) headers.Authorization = `Bearer ${ADMIN}`;
      const search = query.toString();
      const res = await gw.send(ex.method, `${path}${search === '' ? '' : `?${search}`}`, body, { headers });
      const sent = { name, status: res.status, code: res.body?.result?.code, res };
      answers.set(name, sent);
      return sent;
    }

    const wrong: string[] = [];
    for (const ex of all) {
      const sent = await run(ex.name);
      if (sent.status !== ex.status || (ex.code !== undefined && sent.code !== ex.code))
        wrong.push(
          `${ex.name} (${ex.method} ${ex.path}): documented ${ex.status} ${ex.code ?? ''}, got ${sent.status} ${sent.code ?? ''} ${sent.res.text.slice(0, 300)}`,
        );
    }
    expect(wrong).toEqual([]);
  }, 120_000);
});
