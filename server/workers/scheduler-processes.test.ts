/**
 * The scheduler in two real gateway processes sharing one PostgreSQL, on the real clock: a job
 * that fires every second runs for a few seconds while both schedulers poll every 50 ms. Each
 * fire time is run exactly once (paid, or skipped by the catch-up rule), and there is exactly one
 * payment per paid run, none twice.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { formatTs } from '../../shared/params/formats';
import { type PostgresCluster, postgresUnavailableReason, startPostgres } from '../test-kit/postgres';
import { readDemo, type SpawnedGateway, spawnGateway, stopAll } from '../test-kit/process';

// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary response fields
type Json = any;

const pgSkip = postgresUnavailableReason();
const ENV = { GATEWAY_SCHEDULER_INTERVAL_MS: '50' };
describe.skipIf(pgSkip !== undefined)('scheduled payments in two processes on one PostgreSQL', () => {
  let cluster: PostgresCluster | undefined;
  const dirs: string[] = [];
  afterAll(async () => {
    await stopAll();
    await cluster?.stop();
    await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
  }, 60_000);

  it('runs each fire time once, with one payment each', async () => {
    cluster = await startPostgres();
    const dirA = await mkdtemp(join(tmpdir(), 'gateway-scheduler-a-'));
    const dirB = await mkdtemp(join(tmpdir(), 'gateway-scheduler-b-'));
    dirs.push(dirA, dirB);
    const a = await spawnGateway({ dataDir: dirA, databaseUrl: cluster.url, env: ENV });
    const demo = await readDemo(dirA);
    const b = await spawnGateway({ dataDir: dirB, databaseUrl: cluster.url, env: ENV });
    const call = async (
      gateway: SpawnedGateway,
      method: string,
      path: string,
      params: Record<string, string>,
    ) => {
      const query = method === 'GET' ? `?${new URLSearchParams(params)}` : '';
      const res = await fetch(`${gateway.baseUrl}${path}${query}`, {
        method,
        headers: {
          Authorization: `Bearer ${demo.accessToken}`,
          'Content-Type': 'application/x-www-form-urlencoded',
        },
        ...(method === 'GET'
          ? {}
          : { body: new URLSearchParams({ entityId: demo.entityId, ...params }).toString() }),
      });
      return { status: res.status, body: (await res.json()) as Json };
    };

    const registration = await call(a, 'POST', '/v1/registrations', {
      paymentBrand: 'VISA',
      'card.number': '4200000000000000',
      'card.holder': 'Jane Jones',
      'card.expiryMonth': '05',
      'card.expiryYear': '2034',
    });
    expect(registration.status, JSON.stringify(registration.body)).toBe(200);
    const start = new Date(Date.now() + 1000);
    const end = new Date(start.getTime() + 5000);
    const created = await call(b, 'POST', '/scheduling/v1/schedules', {
      registrationId: registration.body.id,
      amount: '1.00',
      currency: 'EUR',
      paymentType: 'DB',
      'job.expression': '* * * * * ?',
      'job.startDate': formatTs(start),
      'job.endDate': formatTs(end),
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);

    // both schedulers race for every fire time until the job ends
    const deadline = Date.now() + 20_000;
    let schedule: Json;
    for (;;) {
      schedule = (
        await call(a, 'GET', `/scheduling/v1/schedules/${created.body.id}`, { entityId: demo.entityId })
      ).body;
      if (schedule.state === 'ENDED' && schedule.runs.every((r: Json) => r.status !== 'IN_PROGRESS')) break;
      if (Date.now() > deadline) throw new Error(`the job did not end: ${JSON.stringify(schedule)}`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }

    const runs: Json[] = schedule.runs;
    const times = runs.map((r) => r.scheduledTime as string);
    expect(new Set(times).size).toBe(times.length);
    // every second from the start up to the end (endDate included), each once: no second missing
    expect(times.length).toBeGreaterThanOrEqual(5);
    const seconds = times.map((t) => Date.parse(`${t.replace(' ', 'T')}Z`)).sort((x, y) => x - y);
    for (let i = 1; i < seconds.length; i++) expect(seconds[i]! - seconds[i - 1]!).toBe(1000);
    const executed = runs.filter((r) => r.status === 'EXECUTED');
    expect(executed.length).toBeGreaterThan(0);
    const paymentIds = executed.map((r) => r.paymentId as string);
    expect(new Set(paymentIds).size).toBe(paymentIds.length);

    // the registration's payments are exactly the executed runs' payments
    const day = formatTs(new Date()).slice(0, 10);
    const query = await call(a, 'GET', '/v1/query', {
      entityId: demo.entityId,
      'date.from': `${day} 00:00:00`,
      'date.to': `${day} 23:59:59`,
      paymentTypes: 'DB',
    });
    const scheduled = (query.body.payments as Json[]).filter(
      (p) => p.registrationId === registration.body.id,
    );
    expect(scheduled.map((p) => p.id).sort()).toEqual([...paymentIds].sort());
    for (const p of scheduled)
      expect(p.standingInstruction).toMatchObject({ mode: 'REPEATED', type: 'RECURRING' });
  }, 120_000);
});
