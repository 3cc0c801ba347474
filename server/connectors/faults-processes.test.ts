/**
 * The fault matrix in two gateway processes on one PostgreSQL (issue 32 point 5): each payment
 * is made through process A and retried with its Idempotency-Key through process B; both move
 * their test clocks at once, so both pending-payments workers claim the due inquiries together.
 * Every case still ends with exactly the upstream's charges (one, or none when it never had the
 * payment) and the right final state: one inquiry per payment at a time, one end. Captures,
 * refunds and a payment with a registration too (REFERENCE_MATRIX), their originals made through A,
 * and stand-alone registrations (REGISTRATION_MATRIX: one registration upstream at most).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  type Answered,
  MATRIX,
  type MatrixDriver,
  type MatrixRow,
  matrixTable,
  REFERENCE_MATRIX,
  REGISTRATION_MATRIX,
  runCase,
} from '../test-kit/faults/matrix';

type Reference = Parameters<MatrixDriver['pay']>[1];

import { type ScriptedUpstream, scriptedUpstream } from '../test-kit/faults/upstream';
import { VISA_CARD } from '../test-kit/fixtures/cards';
import { type PostgresCluster, postgresUnavailableReason, startPostgres } from '../test-kit/postgres';
import { readDemo, type SpawnedGateway, spawnGateway, stopAll } from '../test-kit/process';

const TIMEOUT_MS = 400;
const OPERATOR = 'faults-operator-token-0123456789abcdef0123';
const ENV = {
  GATEWAY_TEST_CLOCK: 'on',
  GATEWAY_ADMIN_TOKEN: OPERATOR,
  GATEWAY_CONNECTOR_TIMEOUT_MS: String(TIMEOUT_MS),
  GATEWAY_PENDING_INTERVAL_MS: '100',
};
const pgSkip = postgresUnavailableReason();

async function call(
  gateway: SpawnedGateway,
  method: string,
  path: string,
  init: { token: string; form?: Record<string, string>; json?: unknown; headers?: Record<string, string> },
): Promise<Answered> {
  const res = await fetch(`${gateway.baseUrl}${path}`, {
    method,
    headers: {
      Authorization: `Bearer ${init.token}`,
      ...(init.form === undefined ? {} : { 'Content-Type': 'application/x-www-form-urlencoded' }),
      ...(init.json === undefined ? {} : { 'Content-Type': 'application/json' }),
      ...init.headers,
    },
    ...(init.form === undefined ? {} : { body: new URLSearchParams(init.form).toString() }),
    ...(init.json === undefined ? {} : { body: JSON.stringify(init.json) }),
  });
  const text = await res.text();
  return { status: res.status, body: text === '' ? undefined : JSON.parse(text) };
}

describe.skipIf(pgSkip !== undefined)('the fault matrix in two gateway processes on one PostgreSQL', () => {
  let cluster: PostgresCluster | undefined;
  let upstream: ScriptedUpstream | undefined;
  const dirs: string[] = [];
  const rows: MatrixRow[] = [];
  afterAll(async () => {
    await stopAll();
    await upstream?.close();
    await cluster?.stop();
    await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
    if (rows.length > 0)
      console.log(`\nThe fault matrix, two processes (timeout ${TIMEOUT_MS} ms)\n${matrixTable(rows)}\n`);
  }, 60_000);

  it('every fault ends right, charged once at most, whichever process asks', async () => {
    upstream = await scriptedUpstream({ timeoutMs: TIMEOUT_MS });
    cluster = await startPostgres();
    const dirA = await mkdtemp(join(tmpdir(), 'gateway-faults-a-'));
    const dirB = await mkdtemp(join(tmpdir(), 'gateway-faults-b-'));
    dirs.push(dirA, dirB);
    const a = await spawnGateway({ dataDir: dirA, databaseUrl: cluster.url, env: ENV });
    const demo = await readDemo(dirA);
    const connector = {
      kind: 'opp',
      baseUrl: upstream.baseUrl,
      entityId: 'upstream-entity',
      accessToken: 'up-token',
    };
    const set = await call(a, 'PATCH', `/admin/v1/channels/${demo.entityId}`, {
      token: OPERATOR,
      json: { connector },
    });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    // B starts after the channel has its connector: nothing of it cached from before
    const b = await spawnGateway({ dataDir: dirB, databaseUrl: cluster.url, env: ENV });
    const card = { entityId: demo.entityId, testMode: 'EXTERNAL', ...VISA_CARD };
    const money = { amount: '12.34', currency: 'EUR' };
    const form = (reference: Reference | undefined): { path: string; form: Record<string, string> } => {
      if (reference === undefined)
        return { path: '/v1/payments', form: { ...card, ...money, paymentType: 'DB' } };
      if (reference.paymentType === 'registration')
        return {
          path: `/v1/registrations/${reference.id}/payments`,
          form: { entityId: demo.entityId, testMode: 'EXTERNAL', ...money, paymentType: 'DB' },
        };
      return {
        path: `/v1/payments/${reference.id}`,
        form: { entityId: demo.entityId, ...money, paymentType: reference.paymentType },
      };
    };
    const pay = (gateway: SpawnedGateway, key: string, reference?: Reference) => {
      const { path, form: body } = form(reference);
      return call(gateway, 'POST', path, {
        token: demo.accessToken,
        headers: { 'Idempotency-Key': key },
        form: body,
      });
    };
    let made = 0;
    const driver: MatrixDriver = {
      name: 'PostgreSQL, 2 processes',
      // the first attempt through A, its retry through B
      pay: (key, reference) => pay(made++ % 2 === 0 ? a : b, key, reference),
      async original(paymentType) {
        const [path, body] =
          paymentType === 'RG'
            ? ['/v1/registrations', card]
            : ['/v1/payments', { ...card, ...money, paymentType }];
        const done = await call(a, 'POST', path, { token: demo.accessToken, form: body });
        expect(done.body?.result?.code, JSON.stringify(done.body)).toBe('000.100.112');
        return done.body.id;
      },
      read: (id) =>
        call(b, 'GET', `/v1/payments/${id}?entityId=${demo.entityId}`, { token: demo.accessToken }),
      // a registration through A, its retry through B, like a payment
      register: (key) =>
        call(made++ % 2 === 0 ? a : b, 'POST', '/v1/registrations', {
          token: demo.accessToken,
          headers: { 'Idempotency-Key': key },
          form: card,
        }),
      readRegistration: (id) =>
        call(b, 'GET', `/v1/registrations/${id}?entityId=${demo.entityId}`, { token: demo.accessToken }),
      async step() {
        const move = (g: SpawnedGateway) =>
          call(g, 'POST', '/admin/v1/clock', { token: OPERATOR, json: { advance: 10_000 } });
        await Promise.all([move(a), move(b)]);
      },
    };
    for (const test of [...MATRIX, ...REFERENCE_MATRIX, ...REGISTRATION_MATRIX])
      rows.push(await runCase(driver, upstream, test));
    expect(
      rows.filter((r) => !r.ok).map((r) => r.label),
      matrixTable(rows),
    ).toEqual([]);
  }, 180_000);
});
