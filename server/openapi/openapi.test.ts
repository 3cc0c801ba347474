/**
 * GET /v1/openapi.json: a valid OpenAPI 3.1 document (a standard validator), with every
 * parameter of the catalogue and every route of the real app in it, and every example in it
 * sent to a gateway and answered as the document says.
 */
import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schemaNamed } from '../../shared/contract';
import { SECTIONS } from '../../shared/params/catalogue';
import { ENDPOINT_PARAMETERS, REQUEST_KINDS } from '../../shared/params/requests';
import { adminRouteTable } from '../http/routes/admin';
import { addUser, type Session, signIn } from '../test-kit/admin';
import { type TestGateway, type TestMerchant, type TestResponse, testGateway } from '../test-kit/gateway';
import { kindSchemaName } from './kinds';
import { openApiPath } from './route-doc';
import { SAMPLE } from './samples';
import { flatten, sectionSchemaName } from './schema';

const ADMIN = 'an-operator-token-of-at-least-32-characters';

/**
 * The examples this gateway cannot answer as documented, each with why (the entry's example says
 * the same): keep it short.
 */
const NOT_SENT: Readonly<Record<string, string>> = {
  readyz: 'its workers do not poll on their own (autoStart false), so /readyz answers 503',
};

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
    // the test clock's routes answer only on a gateway started with it (GATEWAY_TEST_CLOCK)
    testClock: true,
  });
  m = await gw.addMerchant({ channels: 1 });
  // the examples' admin user (SAMPLE.admin); the session's own routes are sent with its session
  await addUser(gw, SAMPLE.admin.username, 'merchant-admin', m.merchantId, SAMPLE.admin.password);
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
      Object.entries(allPaths()).flatMap(([path, ops]) =>
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
      'adminCsrf',
      'adminSession',
      'legacyParameters',
      'merchantBearer',
      'operatorBearer',
    ]);
    expect(doc.components.securitySchemes.adminSession).toMatchObject({ in: 'cookie', name: 'gw_admin' });
    expect(doc.components.securitySchemes.adminCsrf).toMatchObject({ in: 'header', name: 'X-CSRF-Token' });
  });

  it("gives each admin route the access of the admin route table, and a session's state changes the CSRF header", () => {
    const table = adminRouteTable();
    expect(table.length).toBeGreaterThan(40);
    for (const route of table) {
      const op = doc.paths[openApiPath(route.path)]?.[route.method.toLowerCase()];
      const where = `${route.method} ${route.path}`;
      expect(op, where).toBeDefined();
      expect(op['x-access'], where).toBe(route.access);
      expect(op.description, where).toContain('Access: ');
      const schemes = op.security.map((s: Json) => Object.keys(s).sort().join('+'));
      expect(schemes, where).toContain(route.method === 'GET' ? 'adminSession' : 'adminCsrf+adminSession');
    }
    // signing in is the one admin API route before any credentials
    expect(doc.paths['/admin/v1/session'].post.security).toEqual([]);
    expect(doc.paths['/admin/v1/session'].post['x-access']).toBeUndefined();
  });
});

interface Sent {
  readonly name: string;
  readonly status: number;
  readonly code: string | undefined;
  readonly res: TestResponse;
}

/** Every example of the document, found where OpenAPI puts them, keyed by name. */
/** The paths, and those with a trailing slash the document keeps beside them (`/admin/`). */
const allPaths = (): Record<string, Json> => ({ ...doc.paths, ...doc['x-trailingSlashPaths'] });

function examples() {
  const out: {
    name: string;
    method: string;
    path: string;
    op: Json;
    status: number;
    code?: string;
    location?: string;
  }[] = [];
  for (const [path, ops] of Object.entries(allPaths()))
    for (const [method, op] of Object.entries(ops as Record<string, Json>))
      for (const [status, response] of Object.entries(op.responses as Record<string, Json>)) {
        // a redirect's example is its Location
        for (const [name, ex] of Object.entries(response.headers?.Location?.examples ?? {}) as [
          string,
          Json,
        ][])
          out.push({
            name,
            method: method.toUpperCase(),
            path,
            op,
            status: Number(status),
            location: ex.value,
          });
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
      }
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

    /** A fresh session of the examples' user: signing out ends only its own. */
    const session = (): Promise<Session> => signIn(gw.app, SAMPLE.admin.username, SAMPLE.admin.password);

    async function run(name: string): Promise<Sent> {
      const done = answers.get(name);
      if (done !== undefined) return done;
      const ex = byName.get(name);
      if (ex === undefined) throw new Error(`no example named ${name}`);
      const value = async (v: Json, idOf: string | undefined, field = 'id') =>
        idOf === undefined
          ? ours(String(v))
          : String(field.split('.').reduce((at: Json, key) => at?.[key], (await run(idOf)).res.body));
      let path = ex.path;
      const query = new URLSearchParams();
      for (const p of (ex.op.parameters ?? []) as Json[]) {
        const given = p.examples?.[name];
        if (given === undefined) continue;
        const v = await value(given.value, given['x-idOf'], given['x-idField']);
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
        // a refused request's parameters are kept out of `value` (answer-sample.ts, operation.ts)
        for (const [k, v] of Object.entries(form.value ?? form['x-refusedValue']))
          params.append(k, await value(v, form['x-idOf']?.[k]));
        body = params.toString();
        headers['Content-Type'] = 'application/x-www-form-urlencoded';
      } else if (json !== undefined) {
        body = ours(JSON.stringify(json.value ?? json['x-refusedValue']));
        headers['Content-Type'] = 'application/json';
      }
      const security = (ex.op.security ?? []).map((s: Json) => Object.keys(s)[0]);
      // an example sending the deprecated authentication.* parameters authenticates by them alone
      const legacy =
        query.has('authentication.password') || (body ?? '').includes('authentication.password=');
      if (security.includes('merchantBearer') && !legacy) headers.Authorization = `Bearer ${m.token}`;
      if (security.includes('operatorBearer')) headers.Authorization = `Bearer ${ADMIN}`;
      else if (security.some((s: string) => s === 'adminSession')) {
        const { cookie, csrf } = await session();
        headers.Cookie = cookie;
        if (ex.method !== 'GET') headers['X-CSRF-Token'] = csrf;
      }
      const search = query.toString();
      const res = await gw.send(ex.method, `${path}${search === '' ? '' : `?${search}`}`, body, { headers });
      const sent = { name, status: res.status, code: res.body?.result?.code, res };
      answers.set(name, sent);
      return sent;
    }

    for (const name of Object.keys(NOT_SENT)) {
      const ex = byName.get(name);
      const response = ex === undefined ? undefined : ex.op.responses[ex.status];
      const shown = Object.values(response?.content ?? {}).map((media: Json) => media.examples[name]);
      expect(shown[0]?.description, `${name} says why it is not sent`).toMatch(/^Not sent by the tests: /);
    }
    const wrong: string[] = [];
    const unlike: string[] = [];
    for (const ex of all) {
      if (ex.name in NOT_SENT) continue;
      const sent = await run(ex.name);
      unlike.push(...contractComplaints(ex, sent));
      const location = sent.res.headers.get('location') ?? undefined;
      if (
        sent.status !== ex.status ||
        (ex.code !== undefined && sent.code !== ex.code) ||
        (ex.location !== undefined && location !== ex.location)
      )
        wrong.push(
          `${ex.name} (${ex.method} ${ex.path}): documented ${ex.status} ${ex.code ?? ex.location ?? ''}, got ${sent.status} ${sent.code ?? location ?? ''} ${sent.res.text.slice(0, 300)}`,
        );
    }
    expect(wrong).toEqual([]);
    // each answer is what its documented schema (the contract's) says
    expect(unlike).toEqual([]);
  }, 120_000);

  it('names a contract schema for every JSON success of the admin API, the checkout creation and the Query API', () => {
    const untyped: string[] = [];
    for (const [path, ops] of Object.entries(doc.paths))
      for (const [method, op] of Object.entries(ops as Record<string, Json>))
        for (const status of ['200', '201']) {
          const ref = op.responses[status]?.content?.['application/json']?.schema?.$ref as string | undefined;
          const typed =
            path.startsWith('/admin/v1/') || path === '/v1/checkouts' || path.startsWith('/v1/query');
          if (
            typed &&
            ref === '#/components/schemas/Envelope' &&
            !ENVELOPE_ONLY.has(`${method.toUpperCase()} ${path}`)
          )
            untyped.push(`${method.toUpperCase()} ${path} ${status}`);
        }
    expect(untyped).toEqual([]);
  });
});

/** The answers that are only the envelope: a deletion, a sign-out, a redelivery queued. */
const ENVELOPE_ONLY = new Set([
  'DELETE /admin/v1/session',
  'DELETE /admin/v1/merchants/{merchantId}/webhooks/{id}',
]);

/** What the contract's schema of an example's documented answer says against the real one. */
function contractComplaints(ex: { name: string; op: Json; status: number }, sent: Sent): string[] {
  const media = ex.op.responses[ex.status]?.content?.['application/json'];
  const ref = media?.schema?.$ref as string | undefined;
  const schema = ref === undefined ? undefined : schemaNamed(ref.replace('#/components/schemas/', ''));
  if (schema === undefined || sent.status !== ex.status) return [];
  const parsed = schema.safeParse(sent.res.body);
  return parsed.success ? [] : [`${ex.name} (${ref}): ${parsed.error.message.slice(0, 600)}`];
}
