/**
 * The ProcessorEventStore on SQLite and PostgreSQL: a payment found by its processor's id through
 * `payments_connector_tx` (the plan says the index, not a scan of the payments), and an event
 * recorded once with its change: of several at once exactly one changes the payment and writes
 * its notification.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Payment } from '../../../shared/engine/core/model';
import type { Change } from '../../../shared/engine/core/notification';
import { asMinor } from '../../../shared/money';
import { type PostgresCluster, startPostgres } from '../../test-kit/postgres';
import { describeDialects } from '../../test-kit/store-dialects';
import { testVault } from '../../test-kit/vault';
import { storedWebhook } from '../../test-kit/webhooks';
import type { GatewayStore } from '../kysely-store';
import { openStore, SQLITE_FILE } from '../open';

const hex = (): string => randomBytes(16).toString('hex');
const MERCHANT = 'm'.repeat(32);
const CHANNEL = 'c'.repeat(32);

function payment(theirId: string | undefined, overrides: Partial<Payment> = {}): Payment {
  return {
    id: hex(),
    merchantId: MERCHANT,
    channelId: CHANNEL,
    paymentType: 'CP',
    amount: asMinor(500),
    currency: 'EUR',
    resultCode: '000.000.000',
    resultDescription: 'Transaction succeeded',
    shortId: '1234.5678.9012',
    ndc: hex(),
    details:
      theirId === undefined
        ? {}
        : { resultDetails: { ConnectorTxID1: theirId, AcquirerResponse: 'received' } },
    createdAt: new Date(),
    ...overrides,
  };
}

const QUERY = (dialect: string) =>
  dialect === 'postgres'
    ? `SELECT * FROM payments WHERE channel_id = '${CHANNEL}' AND details LIKE '%"ConnectorTxID1"%' AND (details::jsonb #>> '{resultDetails,ConnectorTxID1}') = 'X'`
    : `SELECT * FROM payments WHERE channel_id = '${CHANNEL}' AND details LIKE '%"ConnectorTxID1"%' AND json_extract(details, '$.resultDetails.ConnectorTxID1') = 'X'`;

describeDialects('processor events (%s)', (dialect) => {
  let cluster: PostgresCluster | undefined;
  let dataDir = '';
  let store: GatewayStore;

  beforeAll(async () => {
    if (dialect === 'postgres') cluster = await startPostgres();
    else dataDir = await mkdtemp(join(tmpdir(), 'processor-events-'));
    store = await openStore({
      ...(cluster ? { databaseUrl: cluster.url } : { dataDir }),
      vault: testVault(),
    });
  }, 60_000);
  afterAll(async () => {
    await store?.close();
    await cluster?.stop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  }, 60_000);

  /** The plan of the lookup's statement, as text. */
  async function plan(): Promise<string> {
    if (cluster === undefined) {
      const db = new BetterSqlite3(join(dataDir, SQLITE_FILE), { readonly: true });
      try {
        return JSON.stringify(db.prepare(`EXPLAIN QUERY PLAN ${QUERY(dialect)}`).all());
      } finally {
        db.close();
      }
    }
    const client = new pg.Client({ connectionString: cluster.url });
    await client.connect();
    try {
      // a table this small is read whole by choice: forbid that to see whether the index serves
      await client.query('SET enable_seqscan = off');
      return JSON.stringify((await client.query(`EXPLAIN ${QUERY(dialect)}`)).rows);
    } finally {
      await client.end();
    }
  }

  it('finds a payment by its processor’s id through payments_connector_tx, the latest of the channel’s', async () => {
    const theirs = `psp${hex()}`;
    const older = payment(theirs, { createdAt: new Date(Date.now() - 60_000) });
    const latest = payment(theirs);
    await Promise.all(
      [older, latest, payment(undefined), payment(theirs, { channelId: 'd'.repeat(32) })].map((p) =>
        store.insertPayment(p),
      ),
    );
    expect((await store.paymentByConnectorId(CHANNEL, theirs))?.id).toBe(latest.id);
    expect(await store.paymentByConnectorId(CHANNEL, 'nobody')).toBeUndefined();
    expect(await plan()).toContain('payments_connector_tx');
  });

  it('records an event once: of five at once one changes the payment and tells the merchant', async () => {
    await store.insertWebhook(storedWebhook(MERCHANT));
    const cp = payment(`psp${hex()}`);
    await store.insertPayment(cp);
    const failed = { ...cp, resultCode: '700.400.100' };
    const change: Change = {
      merchantId: MERCHANT,
      type: 'PAYMENT',
      notification: () => ({ type: 'PAYMENT', action: 'UPDATED', payload: { id: cp.id } }),
      orderKey: cp.id,
      paymentType: 'CP',
      at: new Date(),
    };
    const event = {
      channelId: CHANNEL,
      eventId: `CAPTURE_FAILED:${hex()}:true`,
      paymentId: cp.id,
      at: new Date(),
    };
    const outcomes = await Promise.all(
      Array.from({ length: 5 }, () =>
        store.recordProcessorEvent(event, {
          paymentId: cp.id,
          from: cp.resultCode,
          final: { resultCode: failed.resultCode, resultDescription: 'cannot capture', details: cp.details },
          changes: [change],
        }),
      ),
    );
    expect(outcomes.sort()).toEqual(['applied', 'seen', 'seen', 'seen', 'seen']);
    expect(await store.processorEventSeen(CHANNEL, event.eventId)).toBe(true);
    expect((await store.getPayment(MERCHANT, cp.id))?.resultCode).toBe('700.400.100');
    const told = (await store.listDeliveries(MERCHANT, { limit: 50 })).filter(
      (d) => (d.notification.payload as { id?: string }).id === cp.id,
    );
    expect(told).toHaveLength(1);
    // another event saying the same (Stripe's refund.failed after charge.refund.updated): recorded, no change
    expect(
      await store.recordProcessorEvent(
        { ...event, eventId: 'evt_other' },
        {
          paymentId: cp.id,
          from: cp.resultCode,
          final: { resultCode: '700.400.100', resultDescription: '', details: {} },
          changes: [change],
        },
      ),
    ).toBe('unchanged');
  });
});

describeDialects('processor events that wait, and their retention (%s)', (dialect) => {
  let cluster: PostgresCluster | undefined;
  let dataDir = '';
  let store: GatewayStore;
  const DAY = 24 * 60 * 60_000;
  const now = Date.now();

  beforeAll(async () => {
    if (dialect === 'postgres') cluster = await startPostgres();
    else dataDir = await mkdtemp(join(tmpdir(), 'processor-events-'));
    store = await openStore({
      ...(cluster ? { databaseUrl: cluster.url } : { dataDir }),
      vault: testVault(),
    });
  }, 60_000);
  afterAll(async () => {
    await store?.close();
    await cluster?.stop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  }, 60_000);

  it('an event kept waiting with its answer is not seen; recorded once when its payment is there, of five at once', async () => {
    const event = { channelId: CHANNEL, eventId: `CAPTURE:${hex()}:false`, at: new Date(now) };
    const answer = { code: '700.400.100', notice: { eventId: event.eventId, gatewayId: hex() } };
    expect(await store.holdProcessorEvent(event, answer)).toBe(true);
    expect(await store.holdProcessorEvent(event, answer)).toBe(false);
    expect(await store.processorEventSeen(CHANNEL, event.eventId)).toBe(false);
    const waiting = (await store.waitingProcessorEvents(500)).find((e) => e.eventId === event.eventId);
    expect(waiting).toEqual({
      channelId: CHANNEL,
      eventId: event.eventId,
      receivedAt: new Date(now),
      answer,
    });
    await store.insertWebhook(storedWebhook(MERCHANT));
    const cp = payment(`psp${hex()}`);
    await store.insertPayment(cp);
    const change = {
      paymentId: cp.id,
      from: cp.resultCode,
      final: { resultCode: '700.400.100', resultDescription: 'cannot capture', details: cp.details },
      changes: [
        {
          merchantId: MERCHANT,
          type: 'PAYMENT',
          notification: () => ({ type: 'PAYMENT', action: 'UPDATED', payload: { id: cp.id } }),
          orderKey: cp.id,
          paymentType: 'CP',
          at: new Date(),
        } as Change,
      ],
    };
    const outcomes = await Promise.all(
      Array.from({ length: 5 }, () => store.recordProcessorEvent({ ...event, paymentId: cp.id }, change)),
    );
    expect(outcomes.sort()).toEqual(['applied', 'seen', 'seen', 'seen', 'seen']);
    expect(await store.processorEventSeen(CHANNEL, event.eventId)).toBe(true);
    expect((await store.waitingProcessorEvents(500)).map((e) => e.eventId)).not.toContain(event.eventId);
    const told = (await store.listDeliveries(MERCHANT, { limit: 50 })).filter(
      (d) => (d.notification.payload as { id?: string }).id === cp.id,
    );
    expect(told).toHaveLength(1);
  });

  it('a waiting event past its wait is given up: no longer waiting, and seen', async () => {
    const event = { channelId: CHANNEL, eventId: `CAPTURE:${hex()}:false`, at: new Date(now - 20 * 60_000) };
    await store.holdProcessorEvent(event, { notice: { eventId: event.eventId } });
    expect(await store.expireProcessorEvents(new Date(now - 10 * 60_000))).toBeGreaterThanOrEqual(1);
    expect((await store.waitingProcessorEvents(500)).map((e) => e.eventId)).not.toContain(event.eventId);
    expect(await store.processorEventSeen(CHANNEL, event.eventId)).toBe(true);
  });

  it('pruned by age in batches: the old go, a young one stays and its copy is still refused', async () => {
    const channel = 'f'.repeat(32);
    const old = Array.from({ length: 5 }, (_, i) => ({
      channelId: channel,
      eventId: `old-${i}-${hex()}`,
      at: new Date(now - (40 + i) * DAY),
    }));
    const young = { channelId: channel, eventId: `young-${hex()}`, at: new Date(now - 34 * DAY) };
    for (const event of [...old, young]) expect(await store.recordProcessorEvent(event)).toBe('unchanged');
    const before = new Date(now - 35 * DAY);
    const batches: number[] = [];
    for (let count = -1; count !== 0; ) {
      count = await store.pruneProcessorEvents(before, 2);
      batches.push(count);
    }
    // other tests' events are young: only these five were old
    expect(batches).toEqual([2, 2, 1, 0]);
    for (const event of old) expect(await store.processorEventSeen(channel, event.eventId)).toBe(false);
    expect(await store.processorEventSeen(channel, young.eventId)).toBe(true);
    expect(await store.recordProcessorEvent(young)).toBe('seen');
  });
});
