/**
 * The connector attempts of a routed payment (issue 33; server/connectors/routing/): every
 * connector the routing tried for it, in order, with the time and the outcome. Kept beside the
 * payment, never in its answer: the merchant is told the payment, the operator sees the attempts
 * (the admin API's payment view). The table, and migration 0018.
 */
import type { Kysely } from 'kysely';
import { createTable, type EpochMs } from '../core/columns';

export interface ConnectorAttemptsTable {
  /** The payment the attempts were for (its id before it is stored: the order's paymentId). */
  payment_id: string;
  /** Its place among the payment's attempts, from 0: the order they were made in. */
  seq: number;
  /** The connector's kind (opp, adyen, stripe). */
  kind: string;
  /** Its place in the channel's routes when it was tried (0 first). */
  route: number;
  at: EpochMs;
  /** processed | refused | uncertain | skipped (ConnectorAttempt.outcome). */
  outcome: string;
  /** The family's code it answered, when tried. */
  code: string | null;
}

/** 0018: connector_attempts, read by payment in order (its primary key). */
export async function connectorAttemptsMigration(db: Kysely<unknown>): Promise<void> {
  await createTable(db, 'connector_attempts', {
    payment_id: 'text not null',
    seq: 'integer not null',
    kind: 'text not null',
    route: 'integer not null',
    at: 'bigint not null',
    outcome: 'text not null',
    code: 'text',
  })
    .addPrimaryKeyConstraint('connector_attempts_key', ['payment_id', 'seq'])
    .execute();
}
