/**
 * The reads whose examples answer empty lists (a week without settlements, a search finding
 * nothing) answered full: a settled day's aggregations, one aggregation with its records, and a
 * Query API search finding the day's payments, each checked against the schema the served
 * document names for its 200 answer, both as JSON Schema (the document's own components, what a
 * generated client reads) and as the contract's zod schema the component is derived from.
 */
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schemaNamed } from '../../shared/contract/registry';
import { settleDay } from '../reporting/settlement-run';
import { fakeClock } from '../test-kit/clock';
import { type TestGateway, type TestMerchant, type TestResponse, testGateway } from '../test-kit/gateway';
import { payDay } from '../test-kit/settlement/pay-day';

const DAY = '2026-03-10';
const AGGREGATIONS = '/reports/v1/reconciliations/aggregations';
const clock = fakeClock(`${DAY}T09:00:00.000Z`);
let gw: TestGateway;
let m: TestMerchant;
// biome-ignore lint/suspicious/noExplicitAny: the served document, read field by field
let doc: any;
let ajv: Ajv2020;

beforeAll(async () => {
  gw = await testGateway({ clock, settlement: { autoStart: false }, webhooks: { autoStart: false } });
  m = await gw.addMerchant({ channels: 1 });
  await payDay(gw, clock, m, { usd: true });
  clock.advance(86_400_000);
  await settleDay({ store: gw.store, clock, dataDir: gw.dataDir }, DAY);
  const served = await gw.get('/v1/openapi.json');
  expect(served.status).toBe(200);
  doc = served.body;
  ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false });
  addFormats(ajv);
  ajv.addSchema({ $id: 'gateway', components: doc.components }, 'gateway');
}, 60_000);
afterAll(async () => {
  await gw?.cleanup();
});

const get = (path: string, params: Record<string, string>) =>
  gw.get(path, { entityId: m.entityId, ...params }, { token: m.token });

/** The component the served document names for the 200 answer of GET `path`. */
function documented(path: string): string {
  const ref = doc.paths[path]?.get?.responses?.['200']?.content?.['application/json']?.schema?.$ref;
  expect(ref, path).toMatch(/^#\/components\/schemas\//);
  return (ref as string).slice('#/components/schemas/'.length);
}

/** What the served document's schema and its contract schema say of a real answer: [] when both take it. */
function complaints(path: string, res: TestResponse): string[] {
  const name = documented(path);
  const validate = ajv.getSchema(`gateway#/components/schemas/${name}`);
  if (validate === undefined) return [`${name}: not in the served document`];
  const out = validate(res.body) ? [] : [`${name} (document): ${ajv.errorsText(validate.errors)}`];
  const contract = schemaNamed(name)?.safeParse(res.body);
  if (contract === undefined) out.push(`${name}: no contract schema of that name`);
  else if (!contract.success) out.push(`${name} (contract): ${contract.error.message.slice(0, 600)}`);
  return out;
}

describe("nonempty reads are what the served document's schemas say", () => {
  it("a settled day's aggregations, and one of them with its records", async () => {
    const list = await get(AGGREGATIONS, { 'date.from': DAY, 'date.to': DAY });
    expect(list.status, list.text).toBe(200);
    const aggregations = list.body.aggregations as { id: string; currency: string }[];
    expect(aggregations.map((a) => a.currency)).toEqual(['EUR', 'USD']);
    expect(complaints(AGGREGATIONS, list)).toEqual([]);

    const one = await get(`${AGGREGATIONS}/${aggregations[0]!.id}`, {});
    expect(one.status, one.text).toBe(200);
    expect((one.body.records as unknown[]).length).toBeGreaterThan(3);
    expect(complaints(`${AGGREGATIONS}/{id}`, one)).toEqual([]);
  });

  it("a Query API search finding the day's payments, and one of them", async () => {
    const found = await get('/v1/query', {
      'date.from': `${DAY} 00:00:00`,
      'date.to': `${DAY} 23:59:59`,
      limit: '100',
    });
    expect(found.status, found.text).toBe(200);
    const payments = found.body.payments as { id: string }[];
    expect(payments.length).toBeGreaterThan(5);
    expect(complaints('/v1/query', found)).toEqual([]);
    const one = await get(`/v1/query/${payments[0]!.id}`, {});
    expect(one.status, one.text).toBe(200);
    expect(complaints('/v1/query/{id}', one)).toEqual([]);
  });

  it('finds a wrong answer wrong: the checks are not vacuous', async () => {
    const list = await get(AGGREGATIONS, { 'date.from': DAY, 'date.to': DAY });
    const broken = {
      ...list,
      body: { ...list.body, aggregations: [{ ...list.body.aggregations[0], recordCount: 7 }] },
    } as TestResponse;
    expect(complaints(AGGREGATIONS, broken)).toHaveLength(2);
  });
});
