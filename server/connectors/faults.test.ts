/**
 * The fault matrix of a connector channel (issue 32 point 5): a scripted upstream on 127.0.0.1
 * (server/test-kit/faults/) fails each payment its own way; whatever happens the merchant is told
 * pending, a retry with the same Idempotency-Key is told the same and charges nothing more, and
 * the pending-payments worker (on the test's clock) asks the upstream's Query API what happened
 * and ends the payment with the truth and a PAYMENT UPDATED notification. On SQLite and on
 * PostgreSQL; two gateway processes on one PostgreSQL in faults-processes.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run } from '../cli/run';
import { createLogger, type Logger } from '../security/logger';
import { fakeClock } from '../test-kit/clock';
import {
  MATRIX,
  type MatrixDriver,
  type MatrixRow,
  matrixTable,
  REFERENCE_MATRIX,
  REGISTRATION_MATRIX,
  runCase,
} from '../test-kit/faults/matrix';
import { type ScriptedUpstream, scriptedUpstream } from '../test-kit/faults/upstream';
import { VISA_CARD } from '../test-kit/fixtures/cards';
import { type TestGateway, type TestMerchant, testGateway } from '../test-kit/gateway';
import { type PostgresCluster, postgresUnavailableReason, startPostgres } from '../test-kit/postgres';
import { storedWebhook } from '../test-kit/webhooks';
import { oppClient } from './opp/client';

/** The connector's timeout here: short, so a case takes a second, and long enough for a loaded machine. */
const TIMEOUT_MS = 400;
const rows: MatrixRow[] = [];
const UPSTREAM_ACCOUNT = { entityId: 'upstream-entity', accessToken: 'upstream-token' };

async function inProcess(
  name: string,
  upstream: ScriptedUpstream,
  databaseUrl?: string,
  logger?: Logger,
  /** The channel's routes instead of its one connector (upstream's). */
  routes?: readonly string[],
) {
  const clock = fakeClock();
  const gw = await testGateway({
    clock,
    ...(logger === undefined ? {} : { logger }),
    ...(databaseUrl === undefined ? {} : { databaseUrl }),
    connector: oppClient({ timeoutMs: TIMEOUT_MS }),
    pending: { autoStart: false },
    notifier: { autoStart: false },
    webhooks: { autoStart: false },
    scheduler: { autoStart: false },
  });
  const m = await gw.addMerchant({
    channels: 1,
    settings:
      routes === undefined
        ? { connector: { baseUrl: upstream.baseUrl, ...UPSTREAM_ACCOUNT } }
        : { routes: routes.map((baseUrl) => ({ connector: { kind: 'opp', baseUrl, ...UPSTREAM_ACCOUNT } })) },
  });
  await gw.store.insertWebhook(
    storedWebhook(m.merchantId, { createdAt: clock.now(), types: ['PAYMENT', 'REGISTRATION'] }),
  );
  return { gw, m, clock, driver: driver(name, gw, m, clock) };
}

const paymentBody = (m: TestMerchant, paymentType: string) => ({
  entityId: m.entityId,
  amount: '12.34',
  currency: 'EUR',
  paymentType,
  testMode: 'EXTERNAL',
  ...VISA_CARD,
});

const registrationBody = (m: TestMerchant) => ({ entityId: m.entityId, testMode: 'EXTERNAL', ...VISA_CARD });

function driver(
  name: string,
  gw: TestGateway,
  m: TestMerchant,
  clock: ReturnType<typeof fakeClock>,
): MatrixDriver {
  return {
    name,
    pay: (key, reference) =>
      reference === undefined
        ? gw.post('/v1/payments', paymentBody(m, 'DB'), {
            token: m.token,
            headers: { 'Idempotency-Key': key },
          })
        : reference.paymentType === 'registration'
          ? gw.post(
              `/v1/registrations/${reference.id}/payments`,
              {
                entityId: m.entityId,
                amount: '12.34',
                currency: 'EUR',
                paymentType: 'DB',
                testMode: 'EXTERNAL',
              },
              { token: m.token, headers: { 'Idempotency-Key': key } },
            )
          : gw.post(
              `/v1/payments/${reference.id}`,
              { entityId: m.entityId, amount: '12.34', currency: 'EUR', paymentType: reference.paymentType },
              { token: m.token, headers: { 'Idempotency-Key': key } },
            ),
    async original(paymentType) {
      if (paymentType === 'RG') {
        const registered = await gw.post('/v1/registrations', registrationBody(m), { token: m.token });
        expect(registered.body.result.code, JSON.stringify(registered.body)).toBe('000.100.112');
        return registered.body.id;
      }
      const made = await gw.post('/v1/payments', paymentBody(m, paymentType), { token: m.token });
      expect(made.body.result.code, JSON.stringify(made.body)).toBe('000.100.112');
      return made.body.id;
    },
    read: (id) => gw.get(`/v1/payments/${id}`, { entityId: m.entityId }, { token: m.token }),
    register: (key) =>
      gw.post('/v1/registrations', registrationBody(m), {
        token: m.token,
        headers: { 'Idempotency-Key': key },
      }),
    readRegistration: (id) => gw.get(`/v1/registrations/${id}`, { entityId: m.entityId }, { token: m.token }),
    async step() {
      clock.advance(10_000);
      await gw.pending.runOnce();
    },
    async notified(id) {
      return (await gw.store.listDeliveries(m.merchantId, { limit: 500 }))
        .reverse()
        .map(
          (d) =>
            d.notification as unknown as {
              action?: string;
              payload: { id: string; result: { code: string } };
            },
        )
        .filter((n) => n.payload.id === id)
        .map((n) => `${n.action} ${n.payload.result.code}`);
    },
  };
}

const pgSkip = postgresUnavailableReason();

describe('the fault matrix of a connector channel', () => {
  let upstream: ScriptedUpstream;
  let cluster: PostgresCluster | undefined;
  const gateways: TestGateway[] = [];
  beforeAll(async () => {
    upstream = await scriptedUpstream({ timeoutMs: TIMEOUT_MS });
  });
  afterAll(async () => {
    for (const gw of gateways) await gw.cleanup();
    await upstream?.close();
    await cluster?.stop();
    if (rows.length > 0)
      console.log(`\nThe fault matrix (connector timeout ${TIMEOUT_MS} ms)\n${matrixTable(rows)}\n`);
  }, 60_000);

  const stores: { name: string; url?: () => Promise<string> }[] = [
    { name: 'SQLite' },
    ...(pgSkip === undefined
      ? [
          {
            name: 'PostgreSQL',
            url: async () => {
              cluster = await startPostgres();
              return cluster.url;
            },
          },
        ]
      : []),
  ];
  for (const store of stores)
    it(`every fault ends right, charged once at most, on ${store.name}`, async () => {
      const { gw, driver } = await inProcess(store.name, upstream, await store.url?.());
      gateways.push(gw);
      const mine: MatrixRow[] = [];
      for (const test of [...MATRIX, ...REFERENCE_MATRIX, ...REGISTRATION_MATRIX]) {
        const row = await runCase(driver, upstream, test);
        mine.push(row);
        rows.push(row);
      }
      expect(
        mine.filter((r) => !r.ok).map((r) => r.label),
        matrixTable(mine),
      ).toEqual([]);
    }, 120_000);

  it('a refused connection is a known failure at once: 999.999.999, nothing pending, nothing asked later', async () => {
    const closed = await scriptedUpstream({ timeoutMs: TIMEOUT_MS });
    const url = closed.baseUrl;
    await closed.close(); // nobody listens there now: the connection is refused
    const { gw, m, driver: d } = await inProcess('SQLite', { ...upstream, baseUrl: url });
    gateways.push(gw);
    const first = await d.pay(`refused-${Date.now()}`);
    expect(first.status, JSON.stringify(first.body)).toBe(400);
    expect(first.body.result.code).toBe('999.999.999');
    const queries = upstream.queries();
    await d.step();
    expect(upstream.queries()).toBe(queries);
    expect((await d.read(first.body.id)).body.result.code).toBe('999.999.999');
    expect(await d.notified?.(first.body.id)).toEqual(['CREATED 999.999.999']);
    expect(m.entityId).toBeDefined();
  });

  it('an uncertain capture holds its amount until the verdict: a second one cannot exceed the authorisation; a decline releases it', async () => {
    const { gw, m, driver: d } = await inProcess('SQLite', upstream);
    gateways.push(gw);
    const pa = await (d.original as NonNullable<MatrixDriver['original']>)('PA');
    upstream.script('declined-late');
    const first = await d.pay(`held-${Date.now()}`, { paymentType: 'CP', id: pa });
    expect(first.body.result.code, JSON.stringify(first.body)).toBe('000.200.000');
    const capture = (amount: string) =>
      gw.post(
        `/v1/payments/${pa}`,
        { entityId: m.entityId, amount, currency: 'EUR', paymentType: 'CP' },
        { token: m.token },
      );
    const received = upstream.received();
    const second = await capture('0.01');
    expect(second.body.result.code, JSON.stringify(second.body)).toBe('700.400.100');
    expect(upstream.received()).toBe(received);
    for (let steps = 0; steps < 20; steps++) {
      if ((await d.read(first.body.id)).body.result.code !== '000.200.000') break;
      await d.step();
    }
    expect((await d.read(first.body.id)).body.result.code).toBe('800.100.151');
    expect(await d.notified?.(first.body.id)).toEqual(['CREATED 000.200.000', 'UPDATED 800.100.151']);
    const third = await capture('12.34');
    expect(third.body.result.code, JSON.stringify(third.body)).toBe('000.100.112');
  });

  it('the inquiry backs off to hourly, then daily, stops a week on (pending, counted, logged at warn), and asks again when the operator says', async () => {
    const lines: string[] = [];
    const logger = createLogger({ level: 'warn', stream: { write: (line: string) => lines.push(line) } });
    const { gw, m, clock } = await inProcess('SQLite', upstream, undefined, logger);
    gateways.push(gw);
    upstream.script('delay');
    upstream.queriesDown(true);
    const paid = await gw.post('/v1/payments', paymentBody(m, 'DB'), { token: m.token });
    expect(paid.body.result.code).toBe('000.200.000');
    const asked = async (ms: number) => {
      const before = upstream.queries();
      clock.advance(ms);
      await gw.pending.runOnce();
      return upstream.queries() - before;
    };
    const HOUR = 3_600_000;
    // its first day: asked as often as its age, up to hourly
    for (let hour = 0; hour < 24; hour++) expect(await asked(HOUR)).toBe(1);
    // then daily: nothing after half a day, once after a day
    expect(await asked(12 * HOUR)).toBe(0);
    expect(await asked(12 * HOUR)).toBe(1);
    const uncertain = async () =>
      (await gw.ops.metrics.registry.getSingleMetric('gateway_uncertain_payments')?.get())?.values.map(
        (v) => `${v.labels.asking} ${v.value}`,
      );
    expect(await uncertain()).toEqual(['yes 1', 'stopped 0']);
    for (let day = 2; day <= 7; day++) await asked(24 * HOUR);
    // a week on: no longer asked, never a failure, counted and logged for the operator
    expect(await asked(30 * 24 * HOUR)).toBe(0);
    expect(
      (await gw.get(`/v1/payments/${paid.body.id}`, { entityId: m.entityId }, { token: m.token })).body.result
        .code,
    ).toBe('000.200.000');
    expect(await uncertain()).toEqual(['yes 0', 'stopped 1']);
    const warned = lines.map((l) => JSON.parse(l)).filter((l) => l.paymentId === paid.body.id);
    expect(warned.map((l) => l.level)).toEqual(['warn']);
    // the operator asks again (the CLI on the store): the next poll asks, the verdict ends it
    upstream.queriesDown(false);
    const out: string[] = [];
    const code = await run(['payment', 'inquire', '--merchant', m.merchantId, paid.body.id], {
      openStore: async () => ({ ...gw.store, close: async () => {} }),
      output: { out: (l) => out.push(l), err: (l) => out.push(l) },
      clock,
    });
    expect(code, out.join('\n')).toBe(0);
    expect(await asked(0)).toBe(1);
    expect(
      (await gw.get(`/v1/payments/${paid.body.id}`, { entityId: m.entityId }, { token: m.token })).body.result
        .code,
    ).toBe('000.100.112');
    expect(await uncertain()).toEqual(['yes 0', 'stopped 0']);
    // a payment that is not uncertain is refused, naming why
    expect(
      await run(['payment', 'inquire', '--merchant', m.merchantId, paid.body.id], {
        openStore: async () => ({ ...gw.store, close: async () => {} }),
        output: { out: (l) => out.push(l), err: (l) => out.push(l) },
        clock,
      }),
    ).toBe(1);
    expect(out.at(-1)).toContain('is not uncertain');
  });

  it('an uncertain registration is pending and refuses payments (100.150.201, nothing sent) until its inquiry makes it usable at the upstream', async () => {
    const { gw, driver: d } = await inProcess('SQLite', upstream);
    gateways.push(gw);
    const register = d.register as NonNullable<MatrixDriver['register']>;
    const readRegistration = d.readRegistration as NonNullable<MatrixDriver['readRegistration']>;
    upstream.script('delay');
    const registered = await register(`uncertain-rg-${Date.now()}`);
    expect(registered.status, JSON.stringify(registered.body)).toBe(200);
    expect(registered.body.result.code).toBe('000.200.000');
    const id: string = registered.body.id;
    expect((await readRegistration(id)).body.result.code).toBe('000.200.000');
    const payWith = () => d.pay(`with-${id}-${Date.now()}`, { paymentType: 'registration', id });
    const received = upstream.received();
    const early = await payWith();
    expect(early.status, JSON.stringify(early.body)).toBe(400);
    expect(early.body.result.code).toBe('100.150.201');
    expect(upstream.received()).toBe(received);
    for (let steps = 0; steps < 20; steps++) {
      if ((await readRegistration(id)).body.result.code !== '000.200.000') break;
      await d.step();
    }
    expect((await readRegistration(id)).body.result.code).toBe('000.100.112');
    expect(await d.notified?.(id)).toEqual(['CREATED 000.200.000', 'UPDATED 000.100.112']);
    // usable now, at the upstream's own registration (which refuses ids it never made)
    const paid = await payWith();
    expect(paid.body.result.code, JSON.stringify(paid.body)).toBe('000.100.112');
    expect(upstream.charges(paid.body.id)).toHaveLength(1);
  });

  it('a payment with createRegistration=true whose answer was lost: once asked, the registration it made is usable at the upstream', async () => {
    const { gw, m, driver: d } = await inProcess('SQLite', upstream);
    gateways.push(gw);
    upstream.script('delay');
    const paid = await gw.post(
      '/v1/payments',
      { ...paymentBody(m, 'DB'), createRegistration: 'true' },
      { token: m.token, headers: { 'Idempotency-Key': `along-${Date.now()}` } },
    );
    expect(paid.body.result.code, JSON.stringify(paid.body)).toBe('000.200.000');
    for (let steps = 0; steps < 20; steps++) {
      if ((await d.read(paid.body.id)).body.result.code !== '000.200.000') break;
      await d.step();
    }
    const ended = await d.read(paid.body.id);
    expect(ended.body.result.code).toBe('000.100.112');
    const registrationId: string = ended.body.registrationId;
    expect(registrationId).toMatch(/^[0-9a-f]{32}$/);
    const again = await d.pay(`along-again-${Date.now()}`, {
      paymentType: 'registration',
      id: registrationId,
    });
    expect(again.body.result.code, JSON.stringify(again.body)).toBe('000.100.112');
    expect(upstream.charges(again.body.id)).toHaveLength(1);
  });

  it('a routed uncertain registration is asked of the route it reached, and paid with there', async () => {
    const closed = await scriptedUpstream({ timeoutMs: TIMEOUT_MS });
    const refusing = closed.baseUrl;
    await closed.close(); // the first route refuses the connection: the registration falls back
    const {
      gw,
      m,
      driver: d,
    } = await inProcess('SQLite', upstream, undefined, undefined, [refusing, upstream.baseUrl]);
    gateways.push(gw);
    upstream.script('reset');
    const registered = await (d.register as NonNullable<MatrixDriver['register']>)(`routed-rg-${Date.now()}`);
    expect(registered.body.result.code, JSON.stringify(registered.body)).toBe('000.200.000');
    const id: string = registered.body.id;
    const read = () => gw.get(`/v1/registrations/${id}`, { entityId: m.entityId }, { token: m.token });
    for (let steps = 0; steps < 20; steps++) {
      if ((await read()).body.result.code !== '000.200.000') break;
      await d.step();
    }
    expect((await read()).body.result.code).toBe('000.100.112');
    const paid = await d.pay(`routed-with-${Date.now()}`, { paymentType: 'registration', id });
    expect(paid.body.result.code, JSON.stringify(paid.body)).toBe('000.100.112');
    expect(upstream.charges(paid.body.id)).toHaveLength(1);
  });

  it('an uncertain registration the upstream cannot be asked about stays pending a week, then the operator asks again', async () => {
    const { gw, m, clock, driver: d } = await inProcess('SQLite', upstream);
    gateways.push(gw);
    upstream.script('delay');
    upstream.queriesDown(true);
    const registered = await (d.register as NonNullable<MatrixDriver['register']>)(
      `stopped-rg-${Date.now()}`,
    );
    expect(registered.body.result.code, JSON.stringify(registered.body)).toBe('000.200.000');
    const id: string = registered.body.id;
    for (let day = 0; day < 9; day++) {
      clock.advance(24 * 3_600_000);
      await gw.pending.runOnce();
    }
    const read = () => gw.get(`/v1/registrations/${id}`, { entityId: m.entityId }, { token: m.token });
    expect((await read()).body.result.code).toBe('000.200.000');
    const queries = upstream.queries();
    clock.advance(30 * 24 * 3_600_000);
    await gw.pending.runOnce();
    expect(upstream.queries()).toBe(queries);
    upstream.queriesDown(false);
    const out: string[] = [];
    const code = await run(['payment', 'inquire', '--merchant', m.merchantId, id], {
      openStore: async () => ({ ...gw.store, close: async () => {} }),
      output: { out: (l) => out.push(l), err: (l) => out.push(l) },
      clock,
    });
    expect(code, out.join('\n')).toBe(0);
    await gw.pending.runOnce();
    expect((await read()).body.result.code).toBe('000.100.112');
  });

  it.skipIf(pgSkip === undefined)(`PostgreSQL rows skipped: ${pgSkip}`, () => {});
});
