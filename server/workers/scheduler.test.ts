/**
 * The scheduler: the catch-up rule (planRuns), and the exactly-once guarantee of scheduled runs
 * across restarts (SQLite, one data folder, a fake clock), across the two crash windows of a run
 * (claimed but not paid, paid but not recorded), and between two gateways on one PostgreSQL
 * polling at the same time.
 */
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../shared/engine/core/ids';
import {
  DEFAULT_GRACE_MS,
  DEFAULT_RUN_LEASE_MS,
  payRun,
  planRuns,
  type ScheduleDeps,
} from '../../shared/engine/operations/schedules';
import { type FakeClock, fakeClock } from '../test-kit/clock';
import { simulatedProcessors } from '../test-kit/engine/processors';
import { VISA_CARD_WITHOUT_CVV } from '../test-kit/fixtures/cards';
import { type TestGateway, type TestMerchant, testGateway } from '../test-kit/gateway';
import { type PostgresCluster, postgresUnavailableReason, startPostgres } from '../test-kit/postgres';
import { DEFAULT_SCHEDULER_INTERVAL_MS, schedulerWorker } from './scheduler';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const at = (iso: string) => new Date(iso);
const QUIET = {
  scheduler: { autoStart: false },
  pending: { autoStart: false },
  notifier: { autoStart: false },
  webhooks: { autoStart: false },
} as const;

// ---- The catch-up rule ---------------------------------------------------------------------------

describe('planRuns (the catch-up rule)', () => {
  const everyMinute = { expression: '0 * * * * ? *', endsAt: null };

  it('on time: the one due fire time runs, the next is the following one', () => {
    expect(
      planRuns({ ...everyMinute, nextRunAt: at('2026-11-21T12:01:00Z') }, at('2026-11-21T12:01:02Z'), HOUR),
    ).toEqual({
      skipped: [],
      run: at('2026-11-21T12:01:00Z'),
      nextRunAt: at('2026-11-21T12:02:00Z'),
    });
  });

  it('not due yet: nothing', () => {
    expect(
      planRuns({ ...everyMinute, nextRunAt: at('2026-11-21T12:01:00Z') }, at('2026-11-21T12:00:59Z'), HOUR),
    ).toEqual({
      skipped: [],
      nextRunAt: at('2026-11-21T12:01:00Z'),
    });
  });

  it('missed within the grace: only the latest runs (late), the earlier ones are skipped', () => {
    expect(
      planRuns({ ...everyMinute, nextRunAt: at('2026-11-21T12:01:00Z') }, at('2026-11-21T12:04:30Z'), HOUR),
    ).toEqual({
      skipped: [at('2026-11-21T12:01:00Z'), at('2026-11-21T12:02:00Z'), at('2026-11-21T12:03:00Z')],
      run: at('2026-11-21T12:04:00Z'),
      nextRunAt: at('2026-11-21T12:05:00Z'),
    });
  });

  it('the latest missed fire time older than the grace: everything skipped', () => {
    const daily = { expression: '0 0 9 * * ? *', endsAt: null, nextRunAt: at('2026-11-21T09:00:00Z') };
    // 09:00 is 26 h old, 09:00 the next day 2 h: that one runs (default grace 24 h)
    expect(planRuns(daily, at('2026-11-22T11:00:00Z'), DEFAULT_GRACE_MS)).toEqual({
      skipped: [at('2026-11-21T09:00:00Z')],
      run: at('2026-11-22T09:00:00Z'),
      nextRunAt: at('2026-11-23T09:00:00Z'),
    });
    // with a grace of 1 h, nothing runs
    expect(planRuns(daily, at('2026-11-22T11:00:00Z'), HOUR)).toEqual({
      skipped: [at('2026-11-21T09:00:00Z'), at('2026-11-22T09:00:00Z')],
      nextRunAt: at('2026-11-23T09:00:00Z'),
    });
  });

  it('the end: no fire time at or after endsAt runs, and the schedule ends', () => {
    const bounded = {
      ...everyMinute,
      endsAt: at('2026-11-21T12:03:00Z'),
      nextRunAt: at('2026-11-21T12:02:00Z'),
    };
    expect(planRuns(bounded, at('2026-11-21T12:10:00Z'), HOUR)).toEqual({
      skipped: [],
      run: at('2026-11-21T12:02:00Z'),
      nextRunAt: null,
    });
  });

  it('a long stretch is worked off in several plans, still at most one run', () => {
    const state = { ...everyMinute, nextRunAt: at('2026-11-21T12:01:00Z') as Date | null };
    const now = at('2026-11-21T12:10:30Z');
    const skipped: Date[] = [];
    const runs: Date[] = [];
    for (let i = 0; i < 10 && state.nextRunAt !== null && state.nextRunAt <= now; i++) {
      const plan = planRuns(state, now, HOUR, 4);
      skipped.push(...plan.skipped);
      if (plan.run) runs.push(plan.run);
      state.nextRunAt = plan.nextRunAt;
    }
    expect(skipped).toHaveLength(9);
    expect(runs).toEqual([at('2026-11-21T12:10:00Z')]);
    expect(state.nextRunAt).toEqual(at('2026-11-21T12:11:00Z'));
  });
});

// ---- Against a gateway ---------------------------------------------------------------------------

interface Subscription {
  readonly merchant: TestMerchant;
  readonly registrationId: string;
  /** The cardholder-initiated payment that left the registration (it carries its id too). */
  readonly initialPaymentId: string;
  readonly scheduleId: string;
}

/** A merchant, a registration left by an initial payment, and an every-minute schedule on it. */
async function subscribe(gw: TestGateway, expression = '0 * * * * ?'): Promise<Subscription> {
  const merchant = await gw.addMerchant({ channels: 1 });
  const initial = await gw.post(
    '/v1/payments',
    {
      entityId: merchant.entityId,
      amount: '1.00',
      currency: 'EUR',
      paymentType: 'DB',
      createRegistration: 'true',
      'standingInstruction.mode': 'INITIAL',
      'standingInstruction.source': 'CIT',
      'standingInstruction.type': 'RECURRING',
      ...VISA_CARD_WITHOUT_CVV,
    },
    { token: merchant.token },
  );
  expect(initial.status, initial.text).toBe(200);
  const created = await gw.post(
    '/scheduling/v1/schedules',
    {
      entityId: merchant.entityId,
      registrationId: initial.body.registrationId,
      amount: '4.99',
      currency: 'EUR',
      paymentType: 'DB',
      'job.expression': expression,
    },
    { token: merchant.token },
  );
  expect(created.status, created.text).toBe(200);
  return {
    merchant,
    registrationId: initial.body.registrationId,
    initialPaymentId: initial.body.id,
    scheduleId: created.body.id,
  };
}

async function showSchedule(gw: TestGateway, s: Subscription) {
  const res = await gw.get(
    `/scheduling/v1/schedules/${s.scheduleId}`,
    { entityId: s.merchant.entityId },
    { token: s.merchant.token },
  );
  expect(res.status, res.text).toBe(200);
  return res.body as {
    state: string;
    nextRunTime?: string;
    runs: { scheduledTime: string; status: string; paymentId?: string; result?: { code: string } }[];
  };
}

/** The registration's payments, straight from the database, but the initial one: the scheduled ones. */
async function scheduledPayments(
  gw: TestGateway,
  s: Subscription,
  databaseUrl?: string,
): Promise<{ id: string; details: string }[]> {
  const query = `SELECT id, details FROM payments WHERE registration_id = $1 AND id <> $2 ORDER BY created_at, id`;
  if (databaseUrl !== undefined) {
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      return (
        await client.query<{ id: string; details: string }>(query, [s.registrationId, s.initialPaymentId])
      ).rows;
    } finally {
      await client.end();
    }
  }
  const ids = new Set(await gw.paymentIds(s.merchant.merchantId));
  const out: { id: string; details: string }[] = [];
  for (const id of ids) {
    const p = await gw.store.getPayment(s.merchant.merchantId, id);
    if (p?.registrationId === s.registrationId && id !== s.initialPaymentId)
      out.push({ id, details: JSON.stringify(p.details) });
  }
  return out;
}

const ts = (iso: string) => iso.replace('T', ' ').slice(0, 19);

describe('the scheduler across restarts (SQLite, fake clock)', () => {
  let clock: FakeClock;
  let gw: TestGateway | undefined;
  // Each test starts its own gateway (restarts on its data folder): deleted after each test, not
  // only the file's last one.
  afterEach(async () => {
    await gw?.cleanup();
    gw = undefined;
  });

  it('pays each fire time once: on time, across a short outage and a long one (the catch-up rule)', async () => {
    clock = fakeClock('2026-11-21T12:00:00.000Z');
    const first = await testGateway({ clock, ...QUIET });
    gw = first;
    const s = await subscribe(first);

    // 12:01 … 12:04, each on time; a second poll in the same minute finds nothing.
    for (let i = 0; i < 4; i++) {
      clock.advance(MINUTE);
      expect(await first.scheduler.runOnce()).toBe(1);
      expect(await first.scheduler.runOnce()).toBe(0);
    }
    const dataDir = first.dataDir;
    await first.close();

    // Down for 3.5 minutes: 12:05, 12:06 and 12:07 are missed; the latest (12:07) is made late.
    clock.advance(3.5 * MINUTE); // 12:07:30
    const second = await testGateway({ clock, dataDir, ...QUIET });
    gw = second;
    expect(await second.scheduler.runOnce()).toBe(3);
    expect(await second.scheduler.runOnce()).toBe(0);
    clock.advance(MINUTE); // 12:08:30
    expect(await second.scheduler.runOnce()).toBe(1);
    await second.close();

    // Down for two days: 2,880 fire times missed (worked off in several claims); only the latest
    // (12:08 on the 23rd, 30 s old, within the 24 h grace) is made, one payment for the whole gap.
    clock.advance(2 * 24 * HOUR); // 2026-11-23 12:08:30
    const third = await testGateway({ clock, ...QUIET, dataDir });
    gw = third;
    const before = (await scheduledPayments(third, s)).length;
    expect(await third.scheduler.runOnce()).toBe(2 * 24 * 60);
    expect((await scheduledPayments(third, s)).length).toBe(before + 1);
    const after = await showSchedule(third, s);
    expect(after.nextRunTime).toBe('2026-11-23 12:09:00');
    clock.advance(MINUTE);
    expect(await third.scheduler.runOnce()).toBe(1);

    // Every fire time exactly once: paid (on time or late) or skipped; payments = executed runs.
    const { runs } = await showSchedule(third, s);
    const executed = runs.filter((r) => r.status === 'EXECUTED');
    const payments = await scheduledPayments(third, s);
    // (the answer lists the latest 100 runs: the end of the gap, skipped, then 12:08 and 12:09)
    expect(executed.map((r) => r.scheduledTime)).toEqual(['2026-11-23 12:08:00', '2026-11-23 12:09:00']);
    expect(runs).toHaveLength(100);
    expect(payments).toHaveLength(4 + 2 + 2);
    // Straight from the runs table: 12:01-04 on time, 12:05-06 skipped, 12:07 late, 12:08, the gap
    // skipped but for its last fire time (made late), 12:09 on the 23rd.
    const rows = await runsOf(third, s.scheduleId);
    const fireTimes = rows.map((r) => r.fire_at);
    expect(new Set(fireTimes).size).toBe(fireTimes.length);
    expect(fireTimes).toEqual([...fireTimes].sort((a, b) => a - b));
    for (let i = 1; i < fireTimes.length; i++) expect(fireTimes[i]! - fireTimes[i - 1]!).toBe(MINUTE);
    expect(rows).toHaveLength(8 + 2 * 24 * 60 + 1);
    const paidAt = rows
      .filter((r) => r.status === 'EXECUTED')
      .map((r) => ts(new Date(r.fire_at).toISOString()));
    expect(paidAt).toEqual([
      '2026-11-21 12:01:00',
      '2026-11-21 12:02:00',
      '2026-11-21 12:03:00',
      '2026-11-21 12:04:00',
      '2026-11-21 12:07:00',
      '2026-11-21 12:08:00',
      '2026-11-23 12:08:00',
      '2026-11-23 12:09:00',
    ]);
    expect(rows.filter((r) => r.status === 'SKIPPED')).toHaveLength(2 + 2 * 24 * 60 - 1);
    expect(new Set(rows.flatMap((r) => (r.payment_id === null ? [] : [r.payment_id])))).toEqual(
      new Set(payments.map((p) => p.id)),
    );

    // Each payment is a merchant-initiated repeat quoting the registration's agreement.
    const payment = await third.get(
      `/v1/payments/${payments[0]!.id}`,
      { entityId: s.merchant.entityId },
      { token: s.merchant.token },
    );
    expect(payment.body).toMatchObject({
      amount: '4.99',
      currency: 'EUR',
      paymentType: 'DB',
      registrationId: s.registrationId,
      standingInstruction: {
        source: 'MIT',
        mode: 'REPEATED',
        type: 'RECURRING',
        recurringType: 'SUBSCRIPTION',
      },
      result: { code: '000.100.110' },
    });
    expect(payment.body.standingInstruction.initialTransactionId).toEqual(expect.any(String));
  }, 60_000);

  it('a run claimed but not paid (crash) is paid once after its lease; one paid but not recorded is only recorded', async () => {
    clock = fakeClock('2026-11-21T12:00:00.000Z');
    const first = await testGateway({ clock, ...QUIET });
    gw = first;
    const s = await subscribe(first);
    const deps: ScheduleDeps = {
      store: first.store,
      clock,
      seal: (plain) => first.vault.encrypt(plain),
      processors: simulatedProcessors,
    };

    // 12:01: claimed, then the process dies before paying.
    clock.advance(MINUTE);
    const [due] = await first.store.dueSchedules(clock.now(), 10);
    const reservedA = newId();
    const leaseA = new Date(clock.now().getTime() + DEFAULT_RUN_LEASE_MS);
    expect(
      await first.store.claimRuns(
        due!,
        {
          skipped: [],
          run: { fireAt: due!.nextRunAt!, paymentId: reservedA, leaseUntil: leaseA },
          nextRunAt: at('2026-11-21T12:02:00Z'),
        },
        clock.now(),
      ),
    ).toBe(true);
    // A second claim of the same fire time loses the compare-and-set.
    expect(
      await first.store.claimRuns(
        due!,
        {
          skipped: [],
          run: { fireAt: due!.nextRunAt!, paymentId: newId(), leaseUntil: leaseA },
          nextRunAt: at('2026-11-21T12:02:00Z'),
        },
        clock.now(),
      ),
    ).toBe(false);

    // 12:02: claimed and paid, then the process dies before recording.
    clock.advance(MINUTE);
    const [due2] = await first.store.dueSchedules(clock.now(), 10);
    const reservedB = newId();
    const claimB = {
      fireAt: due2!.nextRunAt!,
      paymentId: reservedB,
      leaseUntil: new Date(clock.now().getTime() + DEFAULT_RUN_LEASE_MS),
    };
    expect(
      await first.store.claimRuns(
        due2!,
        { skipped: [], run: claimB, nextRunAt: at('2026-11-21T12:03:00Z') },
        clock.now(),
      ),
    ).toBe(true);
    const paid = await payRun(deps, due2!, {
      scheduleId: s.scheduleId,
      merchantId: s.merchant.merchantId,
      fireAt: claimB.fireAt,
      status: 'IN_PROGRESS',
      paymentId: reservedB,
      resultCode: null,
      leaseUntil: claimB.leaseUntil,
      createdAt: clock.now(),
      completedAt: null,
    });
    expect(paid).toEqual({ status: 'EXECUTED', paymentId: reservedB, resultCode: '000.100.110' });
    expect((await scheduledPayments(first, s)).map((p) => p.id)).toEqual([reservedB]);
    const dataDir = first.dataDir;
    await first.close();

    // Restart at 12:02:30: both runs are still leased to the dead process, so they wait.
    clock.advance(30_000);
    const second = await testGateway({ clock, dataDir, ...QUIET });
    gw = second;
    expect(await second.scheduler.runOnce()).toBe(0);
    expect((await showSchedule(second, s)).runs.map((r) => r.status)).toEqual(['IN_PROGRESS', 'IN_PROGRESS']);

    // After the lease (12:07:01): 12:01 is paid now under its reserved id, 12:02 only recorded;
    // 12:03 … 12:07 were missed meanwhile: 12:07 is made, the rest skipped.
    clock.advance(DEFAULT_RUN_LEASE_MS - 30_000 + 1_000);
    expect(await second.scheduler.runOnce()).toBe(2 + 5);
    const { runs } = await showSchedule(second, s);
    expect(runs.map((r) => [r.scheduledTime.slice(11), r.status])).toEqual([
      ['12:01:00', 'EXECUTED'],
      ['12:02:00', 'EXECUTED'],
      ['12:03:00', 'SKIPPED'],
      ['12:04:00', 'SKIPPED'],
      ['12:05:00', 'SKIPPED'],
      ['12:06:00', 'SKIPPED'],
      ['12:07:00', 'EXECUTED'],
    ]);
    expect(runs[0]!.paymentId).toBe(reservedA);
    expect(runs[1]!.paymentId).toBe(reservedB);
    const payments = await scheduledPayments(second, s);
    expect(payments.map((p) => p.id).sort()).toEqual([reservedA, reservedB, runs[6]!.paymentId!].sort());
    // Nothing is left to do.
    expect(await second.scheduler.runOnce()).toBe(0);
  }, 60_000);

  it('a deregistered registration: the run fails with 100.150.202 and the schedule ends', async () => {
    clock = fakeClock('2026-11-21T12:00:00.000Z');
    const g = await testGateway({ clock, ...QUIET });
    gw = g;
    const s = await subscribe(g);
    const del = await g.send(
      'DELETE',
      `/v1/registrations/${s.registrationId}?entityId=${s.merchant.entityId}`,
      undefined,
      { token: s.merchant.token },
    );
    expect(del.status).toBe(200);
    clock.advance(MINUTE);
    expect(await g.scheduler.runOnce()).toBe(1);
    const shown = await showSchedule(g, s);
    expect(shown.state).toBe('ENDED');
    expect(shown.nextRunTime).toBeUndefined();
    expect(shown.runs).toEqual([
      {
        scheduledTime: '2026-11-21 12:01:00',
        status: 'FAILED',
        result: { code: '100.150.202', description: 'registration is already deregistered' },
      },
    ]);
    clock.advance(MINUTE);
    expect(await g.scheduler.runOnce()).toBe(0);
    expect(await scheduledPayments(g, s)).toEqual([]);
  }, 60_000);

  it('a descheduled or ended schedule runs no more; an end bound ends it after its last run', async () => {
    clock = fakeClock('2026-11-21T12:00:00.000Z');
    const g = await testGateway({ clock, ...QUIET });
    gw = g;
    const s = await subscribe(g);
    const bounded = await g.post(
      '/scheduling/v1/schedules',
      {
        entityId: s.merchant.entityId,
        registrationId: s.registrationId,
        amount: '1.00',
        currency: 'EUR',
        paymentType: 'DB',
        'job.expression': '0 * * * * ?',
        'job.durationUnit': 'MINUTE',
        'job.durationNumber': '2',
      },
      { token: s.merchant.token },
    );
    expect(bounded.status, bounded.text).toBe(200);
    clock.advance(MINUTE); // 12:01: both run
    expect(await g.scheduler.runOnce()).toBe(2);
    const del = await g.send(
      'DELETE',
      `/scheduling/v1/schedules/${s.scheduleId}?entityId=${s.merchant.entityId}`,
      undefined,
      { token: s.merchant.token },
    );
    expect(del.status).toBe(200);
    // 12:02 is past the 2-minute duration (12:00:00 + 2 min is exclusive): the bounded one ends too.
    clock.advance(5 * MINUTE);
    expect(await g.scheduler.runOnce()).toBe(0);
    const b = await g.get(
      `/scheduling/v1/schedules/${bounded.body.id}`,
      { entityId: s.merchant.entityId },
      { token: s.merchant.token },
    );
    expect(b.body.state).toBe('ENDED');
    expect(b.body.runs.map((r: { scheduledTime: string }) => r.scheduledTime)).toEqual([
      '2026-11-21 12:01:00',
    ]);
    expect((await showSchedule(g, s)).runs).toHaveLength(1);
  }, 60_000);

  it('the worker polls on its own every intervalMs', async () => {
    expect(DEFAULT_SCHEDULER_INTERVAL_MS).toBe(5_000);
    clock = fakeClock('2026-11-21T12:00:00.000Z');
    const g = await testGateway({ clock, ...QUIET });
    gw = g;
    const s = await subscribe(g);
    clock.advance(MINUTE);
    const worker = schedulerWorker(
      { store: g.store, clock, seal: (p) => g.vault.encrypt(p), processors: simulatedProcessors },
      { intervalMs: 10 },
    );
    worker.start();
    for (let i = 0; i < 200 && (await scheduledPayments(g, s)).length === 0; i++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    await worker.stop();
    expect(await scheduledPayments(g, s)).toHaveLength(1);
  }, 60_000);
});

async function runsOf(gw: TestGateway, scheduleId: string) {
  const { default: BetterSqlite3 } = await import('better-sqlite3');
  const { join } = await import('node:path');
  const { SQLITE_FILE } = await import('../storage/open');
  const db = new BetterSqlite3(join(gw.dataDir, SQLITE_FILE), { readonly: true });
  try {
    return db
      .prepare('SELECT fire_at, status, payment_id FROM schedule_runs WHERE schedule_id = ? ORDER BY fire_at')
      .all(scheduleId) as { fire_at: number; status: string; payment_id: string | null }[];
  } finally {
    db.close();
  }
}

// ---- Two processes on one PostgreSQL -------------------------------------------------------------

const pgUnavailable = postgresUnavailableReason();

describe.skipIf(pgUnavailable !== undefined)('two schedulers on one PostgreSQL', () => {
  let cluster: PostgresCluster | undefined;
  let a: TestGateway | undefined;
  let b: TestGateway | undefined;
  const clock = fakeClock('2026-11-21T12:00:00.000Z');

  beforeAll(async () => {
    cluster = await startPostgres();
    a = await testGateway({ databaseUrl: cluster.url, clock, ...QUIET });
    b = await testGateway({ databaseUrl: cluster.url, clock, ...QUIET });
  }, 120_000);
  afterAll(async () => {
    await a?.cleanup();
    await b?.cleanup();
    await cluster?.stop();
  }, 60_000);

  it('polling concurrently, they pay each fire time of each schedule exactly once', async () => {
    const subs = [await subscribe(a!), await subscribe(b!), await subscribe(a!)];
    const FIRE_TIMES = 6;
    for (let i = 0; i < FIRE_TIMES; i++) {
      clock.advance(MINUTE);
      const polls = Array.from({ length: 12 }, (_, k) => (k % 2 === 0 ? a! : b!).scheduler.runOnce());
      const handled = await Promise.all(polls);
      // Every schedule's fire time was handled by exactly one of the 12 polls.
      expect(handled.reduce((x, y) => x + y, 0)).toBe(subs.length);
    }
    for (const s of subs) {
      const payments = await scheduledPayments(a!, s, cluster!.url);
      expect(payments).toHaveLength(FIRE_TIMES);
      const { runs } = await showSchedule(b!, s);
      expect(runs.map((r) => r.scheduledTime)).toEqual(
        Array.from({ length: FIRE_TIMES }, (_, i) => `2026-11-21 12:0${i + 1}:00`),
      );
      expect(runs.every((r) => r.status === 'EXECUTED' && r.result?.code === '000.100.110')).toBe(true);
      expect(new Set(runs.map((r) => r.paymentId))).toEqual(new Set(payments.map((p) => p.id)));
    }
  }, 120_000);

  it('a run left in progress is taken over by one of them only', async () => {
    const s = await subscribe(a!);
    clock.advance(MINUTE);
    const [due] = (await a!.store.dueSchedules(clock.now(), 100)).filter((d) => d.id === s.scheduleId);
    const reserved = newId();
    expect(
      await a!.store.claimRuns(
        due!,
        {
          skipped: [],
          run: {
            fireAt: due!.nextRunAt!,
            paymentId: reserved,
            leaseUntil: new Date(clock.now().getTime() + MINUTE),
          },
          nextRunAt: new Date(due!.nextRunAt!.getTime() + MINUTE),
        },
        clock.now(),
      ),
    ).toBe(true);
    clock.advance(MINUTE + 1_000);
    await Promise.all(Array.from({ length: 12 }, (_, k) => (k % 2 === 0 ? a! : b!).scheduler.runOnce()));
    const payments = await scheduledPayments(a!, s, cluster!.url);
    const { runs } = await showSchedule(a!, s);
    expect(runs.map((r) => r.status)).toEqual(['EXECUTED', 'EXECUTED']);
    expect(runs[0]!.paymentId).toBe(reserved);
    expect(payments).toHaveLength(2);
  }, 120_000);
});
