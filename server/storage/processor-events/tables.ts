/**
 * The processors' notifications (0017): each event a processor told the gateway about, by its
 * own key, written in the transaction of the change it made (processed once however often it
 * comes, across restarts and processes), and the index that finds a payment by the processor's
 * id of it (`resultDetails.ConnectorTxID1`), which is inside the payment's `details` document.
 */
import { type Kysely, PostgresAdapter, type RawBuilder, sql } from 'kysely';
import { createIndex, createTable, type EpochMs } from '../core/columns';

export interface ProcessorEventsTable {
  /** The channel whose connector verified the notification (its entityId in the address). */
  channel_id: string;
  /** The processor's key of the event (NotificationNotice.eventId: Stripe's evt_…, Adyen's code:psp:success). */
  event_id: string;
  /** The payment it was about, when the gateway knew it. */
  payment_id: string | null;
  /**
   * What it did: `applied` (it changed the payment), `unchanged`, `waiting` (about a payment of
   * the gateway's not written yet: applied when it is, 0020) or `expired` (it never was).
   */
  outcome: string;
  /** When the gateway first received it, on its clock: what retention prunes by (0020). */
  received_at: EpochMs;
  /** While `waiting`: the verified answer to apply (JSON, account data sealed); null after (0020). */
  answer: string | null;
}

/** The outcome of an event kept until its payment is written: said word for word by its index and readers. */
export const WAITING = sql<boolean>`outcome = 'waiting'`;

/**
 * The processor's id of a payment, as an expression over `details` both databases index: the
 * reader and the index must say it the same way (its `details` is JSON text in both).
 */
export function connectorTxIdExpression(db: Kysely<unknown>): RawBuilder<string> {
  return db.getExecutor().adapter instanceof PostgresAdapter
    ? sql<string>`(details::jsonb #>> '{resultDetails,ConnectorTxID1}')`
    : sql<string>`json_extract(details, '$.resultDetails.ConnectorTxID1')`;
}

/**
 * Only payments that have one are in the index (a connector's; none of the simulator's): a cheap
 * text test, so a create without one parses nothing for it. A reader repeats it word for word, so
 * that both planners see the partial index applies.
 */
export const HAS_CONNECTOR_TX_ID = sql<boolean>`details LIKE '%"ConnectorTxID1"%'`;

/**
 * 0020: an event may wait for its payment (Adyen notifies while the gateway is still writing the
 * capture it answered `received` for): the answer it will apply, the waiting ones by age (a
 * partial index, cheap however many are done), and every one by age for retention.
 */
export async function waitingProcessorEventsMigration(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('processor_events').addColumn('answer', 'text').execute();
  await sql`CREATE INDEX processor_events_waiting ON processor_events (received_at) WHERE ${WAITING}`.execute(
    db,
  );
  await createIndex(db, 'processor_events_received', 'processor_events', ['received_at']).execute();
}

/** 0017: processor_events, and payments_connector_tx (channel, the processor's id). */
export async function processorEventsMigration(db: Kysely<unknown>): Promise<void> {
  await createTable(db, 'processor_events', {
    channel_id: 'text not null',
    event_id: 'text not null',
    payment_id: 'text',
    outcome: 'text not null',
    received_at: 'bigint not null',
  })
    .addPrimaryKeyConstraint('processor_events_key', ['channel_id', 'event_id'])
    .execute();
  await sql`CREATE INDEX payments_connector_tx ON payments (channel_id, ${connectorTxIdExpression(db)}) WHERE ${HAS_CONNECTOR_TX_ID}`.execute(
    db,
  );
}
