/**
 * What a production gateway shows without credentials (issue 30, hole 6): the test-card page on
 * the live address, the admin API in the public OpenAPI document, and the host name and commit
 * in checkout ids and `buildNumber`. The public documentation stays public; the rest needs the
 * admin's authentication, or is not there at all; the operator names the node.
 */
import { hostname } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkoutNodeName } from '../../shared/engine/core/ids';
import { TEST_COMMIT, type TestGateway, type TestMerchant, testGateway } from '../test-kit/gateway';
import { HTTPS, PRODUCTION_BEHIND_PROXY } from '../test-kit/production';

// random-looking: production refuses a low-entropy admin token (server/mode.ts)
const ADMIN = '9c4e1a7f03b85d2e6f9a1c8b4d7e0f3a5b2c9d6e8f1a4b7c0d3e6f9a2b5c8d1e';

// biome-ignore lint/suspicious/noExplicitAny: the document is plain JSON
const adminPaths = (doc: any): string[] => Object.keys(doc.paths).filter((p) => p.startsWith('/admin/v1/'));

const createCheckout = (gw: TestGateway, m: TestMerchant, headers: Record<string, string> = {}) =>
  gw.post(
    '/v1/checkouts',
    { entityId: m.entityId, amount: '12.00', currency: 'EUR', paymentType: 'DB' },
    { token: m.token, headers },
  );

describe('production: what shows without credentials', () => {
  let gw: TestGateway;
  let m: TestMerchant;
  beforeAll(async () => {
    gw = await testGateway({ env: { ...PRODUCTION_BEHIND_PROXY, GATEWAY_ADMIN_TOKEN: ADMIN } });
    m = await gw.addMerchant({ channels: 1 });
  });
  afterAll(() => gw?.cleanup());

  it('the live address serves no test-card page; the test address keeps it', async () => {
    const live = await gw.live.get('/docs/test-data');
    const test = await gw.get('/docs/test-data', {}, { headers: HTTPS });
    expect([live.status, test.status]).toEqual([404, 200]);
    expect(live.text).not.toContain('4200000000000000');
  });

  it('the public OpenAPI document lists no admin route; the admin document needs the operator', async () => {
    for (const send of [gw, gw.live]) {
      const doc = await send.get('/v1/openapi.json', {}, { headers: HTTPS });
      expect(doc.status).toBe(200);
      expect(adminPaths(doc.body)).toEqual([]);
      expect(doc.text).not.toContain('/admin/v1/');
      expect(doc.body.paths['/v1/payments']).toBeDefined();
    }
    const anonymous = await gw.get('/admin/v1/openapi.json', {}, { headers: HTTPS });
    expect(anonymous.status).toBe(401);
    expect(anonymous.text).not.toContain('/admin/v1/merchants');
    const operator = await gw.get('/admin/v1/openapi.json', {}, { token: ADMIN, headers: HTTPS });
    expect(operator.status).toBe(200);
    expect(adminPaths(operator.body)).toContain('/admin/v1/merchants');
  });

  it('checkout ids and buildNumber reveal neither the host name nor the commit', async () => {
    const created = await createCheckout(gw, m, HTTPS);
    expect(created.status).toBe(200);
    const node = created.body.id.split('.').slice(1).join('.');
    expect(node).not.toBe(checkoutNodeName(hostname()));
    expect(created.body.id).toMatch(/^[0-9A-F]{32}\.[a-z0-9-]{1,15}$/);
    // still the family's shape: 40 hex, @, the date
    expect(created.body.buildNumber).toMatch(/^[0-9a-f]{40}@\d{4}-\d\d-\d\d \d\d:\d\d:\d\d \+0000$/);
    expect(created.body.buildNumber).not.toContain(TEST_COMMIT);
    const resultCodes = await gw.get('/v1/resultcodes', {}, { headers: HTTPS });
    expect(resultCodes.body.buildNumber).toBe(created.body.buildNumber);
  });
});

describe('production: the operator names the node (GATEWAY_NODE_NAME)', () => {
  let gw: TestGateway;
  let m: TestMerchant;
  beforeAll(async () => {
    gw = await testGateway({ env: { ...PRODUCTION_BEHIND_PROXY, GATEWAY_NODE_NAME: 'pay-eu-1' } });
    m = await gw.addMerchant({ channels: 1 });
  });
  afterAll(() => gw?.cleanup());

  it('checkout ids end in the node name given', async () => {
    const created = await createCheckout(gw, m, HTTPS);
    expect(created.body.id).toMatch(/^[0-9A-F]{32}\.pay-eu-1$/);
  });
});

describe('developer mode keeps what a developer reads', () => {
  let gw: TestGateway;
  let m: TestMerchant;
  beforeAll(async () => {
    gw = await testGateway({ env: { GATEWAY_ADMIN_TOKEN: ADMIN } });
    m = await gw.addMerchant({ channels: 1 });
  });
  afterAll(() => gw?.cleanup());

  it('the commit in buildNumber, the admin API in the document, the host name in checkout ids', async () => {
    const created = await createCheckout(gw, m);
    expect(created.body.buildNumber.startsWith(`${TEST_COMMIT}@`)).toBe(true);
    expect(created.body.id.endsWith(`.${checkoutNodeName(hostname())}`)).toBe(true);
    const doc = await gw.get('/v1/openapi.json');
    expect(adminPaths(doc.body)).toContain('/admin/v1/merchants');
  });
});
