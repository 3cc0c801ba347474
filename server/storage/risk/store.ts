/**
 * Storage of the risk checks' history (velocity counts): migration 0007 and the RiskStore, over
 * the same Kysely database as the rest of the store.
 *
 * `risk_events` holds one row per velocity key of each screened payment the risk check let through
 * (engine/steps/risk-check.ts decides what is recorded): the channel, the key's kind (card, email, ip), its
 * value as a keyed hash — a card fingerprint or an HMAC of the e-mail address or IP, never the PAN or
 * plaintext personal data —, the screened amount in minor units and its currency, and the time.
 * Velocity limits count a channel's rows of one key since a time: the index
 * (kind, value, channel_id, created_at) answers that with one range scan. The check and the record
 * of a key are one step (exclusiveRiskKeys): a lock per key in this process and, on PostgreSQL, a
 * transaction-scoped advisory lock per key held until the record commits.
 */
import { type Kysely, sql } from 'kysely';
import { keyedLock, riskKeyNames, underKeys } from '../../../shared/engine/core/keyed-lock';
import type { RiskEvent, RiskLedger } from '../../../shared/engine/core/ports';
import type { Database } from '../core/database';

/** The risk history port (engine RiskLedger) over risk_events, and its housekeeping. */
export interface RiskStore extends RiskLedger {
  /**
   * Deletes the events created before `before` (no velocity window is longer than a year, see
   * MAX_WINDOW_SECONDS); the number deleted. For an operator's or a worker's housekeeping.
   */
  pruneRiskEvents(before: Date): Promise<number>;
}

export interface RiskStoreOptions {
  /**
   * PostgreSQL: exclusiveRiskKeys also takes a transaction-scoped advisory lock per key
   * (pg_advisory_xact_lock), so processes sharing the database screen one key one at a time.
   */
  readonly advisoryLocks?: boolean;
}

export function riskStore(db: Kysely<Database>, options: RiskStoreOptions = {}): RiskStore {
  // One waiter per key in this process: concurrent attempts of one card queue here, not on the
  // database's connections.
  const local = keyedLock();

  const countWith =
    (executor: Kysely<Database>): RiskLedger['countRiskEvents'] =>
    async (channelId, key, since) => {
      const rows = await executor
        .selectFrom('risk_events')
        .select([
          'currency',
          (eb) => eb.fn.countAll<number>().as('n'),
          (eb) => eb.fn.sum<number>('amount').as('total'),
        ])
        .where('kind', '=', key.kind)
        .where('value', '=', key.value)
        .where('channel_id', '=', channelId)
        .where('created_at', '>=', since.getTime())
        .groupBy('currency')
        .execute();
      const volume = new Map<string, number>();
      let count = 0;
      for (const row of rows) {
        // COUNT and SUM come back as strings from some drivers (PostgreSQL numeric/bigint).
        count += Number(row.n);
        volume.set(row.currency, Number(row.total ?? 0));
      }
      return { count, volume };
    };

  const recordWith = (executor: Kysely<Database>) => async (events: readonly RiskEvent[]) => {
    if (events.length === 0) return;
    await executor
      .insertInto('risk_events')
      .values(
        events.map((e) => ({
          merchant_id: e.merchantId,
          channel_id: e.channelId,
          kind: e.kind,
          value: e.value,
          amount: e.amount,
          currency: e.currency,
          created_at: e.at.getTime(),
        })),
      )
      .execute();
  };

  return {
    countRiskEvents: countWith(db),
    recordRiskEvents: recordWith(db),

    exclusiveRiskKeys(channelId, keys, task) {
      const names = riskKeyNames(channelId, keys);
      return underKeys(local, names, async () => {
        if (options.advisoryLocks !== true || names.length === 0) {
          // One process (SQLite): the local locks suffice; the record is one statement.
          const { result, events } = await task(countWith(db));
          await recordWith(db)(events);
          return result;
        }
        // Across processes: the keys' advisory locks, the counts and the record in one
        // transaction; its commit lets the keys go, with the record visible to the next holder.
        return db.transaction().execute(async (trx) => {
          for (const name of names) {
            await sql`SELECT pg_advisory_xact_lock(hashtextextended(${name}, 0))`.execute(trx);
          }
          const { result, events } = await task(countWith(trx));
          await recordWith(trx)(events);
          return result;
        });
      });
    },

    async pruneRiskEvents(before) {
      const result = await db
        .deleteFrom('risk_events')
        .where('created_at', '<', before.getTime())
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}
