/**
 * Routing with fallback through the real gateway (issue 33 point 5): a channel with several
 * connectors, each played by a scripted processor behind the opp client's port. A refused
 * connection falls back to the next (one charge in all); an uncertain answer does not; a
 * connector that keeps failing is skipped for its cool-down, seen in gateway_connector_state,
 * and tried again after it; captures go to the connector that processed the payment.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConnectorRoute } from '../../../shared/engine/core/model';
import type { Connector, ConnectorTarget } from '../../../shared/engine/core/ports';
import { ADMIN_TOKEN, adminCall } from '../../test-kit/admin';
import { type FakeClock, fakeClock } from '../../test-kit/clock';
import { VISA_CARD_WITHOUT_HOLDER } from '../../test-kit/fixtures/cards';
import { type TestGateway, testGateway } from '../../test-kit/gateway';
import { COOL_DOWN_MS, FAILURES } from './breaker';

/** Processors by address: down (refuses the connection), slow (no answer in time), up, spare. */
function scriptedProcessors() {
  const charges: { host: string; path: string }[] = [];
  let down = new Set(['down.test', 'gone.test']);
  const connector: Connector = {
    async send(target: ConnectorTarget, path: string, body: string) {
      const host = new URL(target.baseUrl).host;
      if (down.has(host)) return { code: '999.999.999', technical: 'refused' };
      if (host === 'slow.test') return { code: '900.100.300', technical: 'uncertain' };
      charges.push({ host, path });
      const id = `${host}-${charges.length}`.padEnd(32, '0').slice(0, 32);
      // a card registered along (createRegistration=true) is kept there under an id of its own
      const along = new URLSearchParams(body).get('createRegistration') === 'true';
      return { code: '000.100.110', id, ...(along ? { registrationId: `rg-${id}` } : {}) };
    },
  };
  return {
    connector,
    charges,
    heal: (host: string) => (down = new Set([...down].filter((h) => h !== host))),
  };
}

const route = (host: string, rules: Omit<ConnectorRoute, 'connector'> = {}): ConnectorRoute => ({
  connector: { baseUrl: `http://${host}`, entityId: '0123456789abcdef0123456789abcdef', accessToken: 'tok' },
  ...rules,
});

let gw: TestGateway;
let clock: FakeClock;
let processors: ReturnType<typeof scriptedProcessors>;

beforeAll(async () => {
  clock = fakeClock();
  processors = scriptedProcessors();
  gw = await testGateway({
    clock,
    connector: processors.connector,
    env: { GATEWAY_ADMIN_TOKEN: ADMIN_TOKEN },
  });
});
afterAll(() => gw?.cleanup());

async function channelWith(routes: readonly ConnectorRoute[]) {
  return gw.addMerchant({ channels: 1, settings: { routes } });
}

const pay = (m: { entityId: string; token: string }, extra: Record<string, string> = {}) =>
  gw.post(
    '/v1/payments',
    {
      entityId: m.entityId,
      ...VISA_CARD_WITHOUT_HOLDER,
      amount: '20.00',
      currency: 'EUR',
      paymentType: 'DB',
      testMode: 'EXTERNAL',
      ...extra,
    },
    { token: m.token },
  );

interface Attempt {
  kind: string;
  route: number;
  at: string;
  outcome: string;
  code?: string;
}

/** The attempts the admin API's payment view lists (never the merchant's answer). */
async function attemptsOf(m: { merchantId: string }, id: string): Promise<Attempt[]> {
  const view = await adminCall(gw.app, 'GET', `/admin/v1/merchants/${m.merchantId}/payments/${id}`, {
    token: ADMIN_TOKEN,
  });
  expect(view.status, JSON.stringify(view.body)).toBe(200);
  return (view.body as { attempts: Attempt[] }).attempts;
}

describe('fallback', () => {
  it('a refused connection: the payment succeeds on the next connector, one charge in all', async () => {
    const m = await channelWith([route('down.test'), route('up.test')]);
    const before = processors.charges.length;
    const db = await pay(m);
    expect(db.status, db.text).toBe(200);
    expect(db.body.result.code).toBe('000.100.112');
    expect(processors.charges.slice(before)).toEqual([{ host: 'up.test', path: expect.any(String) }]);
    // the merchant is told the payment, not how it was routed
    expect(Object.keys(db.body.resultDetails ?? {})).not.toContain('ConnectorAttempts');
    expect(Object.keys(db.body.resultDetails ?? {})).not.toContain('ConnectorRoute');
    expect(db.text).not.toContain('down.test');
    const read = await gw.get(`/v1/payments/${db.body.id}`, { entityId: m.entityId }, { token: m.token });
    expect(read.status, read.text).toBe(200);
    expect(Object.keys(read.body.resultDetails ?? {})).not.toContain('ConnectorAttempts');
    // the operator sees both attempts, in order, with their time and outcome
    expect(await attemptsOf(m, db.body.id)).toEqual([
      { kind: 'opp', route: 0, at: clock.now().toISOString(), outcome: 'refused', code: expect.any(String) },
      { kind: 'opp', route: 1, at: clock.now().toISOString(), outcome: 'processed', code: '000.100.112' },
    ]);
    // the capture of a PA goes to the connector that processed it
    const pa = await pay(m, { paymentType: 'PA' });
    const cp = await gw.post(
      `/v1/payments/${pa.body.id}`,
      { entityId: m.entityId, amount: '20.00', currency: 'EUR', paymentType: 'CP', testMode: 'EXTERNAL' },
      { token: m.token },
    );
    expect(cp.body.result.code, cp.text).toBe('000.100.112');
    expect(processors.charges.at(-1)?.host).toBe('up.test');
  });

  it('an uncertain answer: no fallback, nothing sent to the next', async () => {
    const m = await channelWith([route('slow.test'), route('up.test')]);
    const before = processors.charges.length;
    const db = await pay(m);
    expect(processors.charges.length).toBe(before);
    // pending until the processor is asked (the inquiry), never a failure and never sent again
    expect(db.body.result.code, db.text).toBe('000.200.000');
    // the uncertain attempt is recorded with the pending payment all the same
    expect((await attemptsOf(m, db.body.id)).map((a) => [a.route, a.outcome])).toEqual([[0, 'uncertain']]);
  });

  it('routes by the rules: currency, amount range, card country', async () => {
    const m = await channelWith([
      route('spare.test', { currencies: ['USD'] }),
      route('other.test', { maxAmount: 1000 as never }),
      route('up.test', { countries: ['ZZ'] }),
      route('fallback.test'),
    ]);
    const routesOf = async (res: { body: { id: string } }) =>
      (await attemptsOf(m, res.body.id)).map((a) => a.route);
    expect(await routesOf(await pay(m, { amount: '5.00' }))).toEqual([1]);
    expect(await routesOf(await pay(m, { currency: 'USD' }))).toEqual([0]);
    expect(await routesOf(await pay(m))).toEqual([3]);
  });
});

describe('the circuit breaker', () => {
  it('skips a connector that keeps failing for its cool-down, then tries it again: seen in the metrics', async () => {
    const m = await channelWith([route('flaky.test'), route('up.test')]);
    const state = async () => {
      const text = await gw.ops.metrics.registry.metrics();
      const line = text
        .split('\n')
        .find(
          (l) =>
            l.startsWith('gateway_connector_state{') && l.includes(m.entityId) && l.includes('route="0"'),
        );
      return line === undefined ? undefined : Number(line.split(' ').at(-1));
    };
    processors.heal('down.test');
    const flaky = scriptedFlaky(processors);
    for (let i = 0; i < FAILURES; i++) expect((await pay(m)).body.result.code).toBe('000.100.112');
    expect(await state()).toBe(1); // open: skipped
    const skipped = await pay(m);
    expect((await attemptsOf(m, skipped.body.id)).map((a) => [a.route, a.outcome])).toEqual([
      [0, 'skipped'],
      [1, 'processed'],
    ]);
    clock.advance(COOL_DOWN_MS);
    expect(await state()).toBe(2); // half-open: tried again
    flaky.heal();
    const again = await pay(m);
    expect((await attemptsOf(m, again.body.id)).map((a) => [a.route, a.outcome])).toEqual([[0, 'processed']]);
    expect(await state()).toBe(0); // closed: in use
  });
});

/** flaky.test refuses until healed. */
function scriptedFlaky(p: ReturnType<typeof scriptedProcessors>) {
  const send = p.connector.send.bind(p.connector);
  let healed = false;
  (p.connector as { send: Connector['send'] }).send = async (target, path, body) =>
    !healed && new URL(target.baseUrl).host === 'flaky.test'
      ? { code: '999.999.999', technical: 'refused' }
      : send(target, path, body);
  return { heal: () => (healed = true) };
}

describe('registrations', () => {
  const register = (m: { entityId: string; token: string }, extra: Record<string, string> = {}) =>
    gw.post(
      '/v1/registrations',
      { entityId: m.entityId, ...VISA_CARD_WITHOUT_HOLDER, testMode: 'EXTERNAL', ...extra },
      { token: m.token },
    );
  const repeat = (m: { entityId: string; token: string }, id: string) =>
    gw.post(
      `/v1/registrations/${id}/payments`,
      { entityId: m.entityId, amount: '9.00', currency: 'EUR', paymentType: 'DB', testMode: 'EXTERNAL' },
      { token: m.token },
    );

  it('a registration takes the routes’ rules and fallback; payments with it go to the connector that holds it', async () => {
    const m = await channelWith([
      route('master.test', { brands: ['MASTER'] }),
      route('gone.test', { brands: ['VISA'] }),
      route('visa.test', { brands: ['VISA'] }),
      route('other.test'),
    ]);
    const before = processors.charges.length;
    const rg = await register(m);
    expect(rg.status, rg.text).toBe(200);
    expect(rg.body.result.code).toBe('000.100.112');
    expect(processors.charges.slice(before).map((c) => c.host)).toEqual(['visa.test']);
    // the connector's id of it, and the route holding it, are never answered
    expect(rg.text).not.toContain('visa.test');
    const db = await repeat(m, rg.body.id);
    expect(db.status, db.text).toBe(200);
    expect(db.body.result.code).toBe('000.100.112');
    expect(processors.charges.at(-1)).toEqual({
      host: 'visa.test',
      path: expect.stringContaining('/registrations/'),
    });
    expect((await attemptsOf(m, db.body.id)).map((a) => [a.kind, a.route, a.outcome])).toEqual([
      ['opp', 2, 'processed'],
    ]);
    // its refund goes to the connector that processed it
    const rf = await gw.post(
      `/v1/payments/${db.body.id}`,
      { entityId: m.entityId, amount: '9.00', currency: 'EUR', paymentType: 'RF', testMode: 'EXTERNAL' },
      { token: m.token },
    );
    expect(rf.body.result.code, rf.text).toBe('000.100.112');
    expect(processors.charges.at(-1)?.host).toBe('visa.test');
  });

  it('a payment with createRegistration=true: its registration is held by the connector that processed it', async () => {
    const m = await channelWith([route('gone.test'), route('spare.test')]);
    const db = await pay(m, { createRegistration: 'true' });
    expect(db.body.result.code, db.text).toBe('000.100.112');
    const registrationId = db.body.registrationId as string;
    expect(registrationId, db.text).toMatch(/^[0-9a-f]{32}$/);
    const again = await repeat(m, registrationId);
    expect(again.body.result.code, again.text).toBe('000.100.112');
    expect(processors.charges.at(-1)?.host).toBe('spare.test');
  });
});
