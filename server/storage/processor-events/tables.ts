/**
 * The processors' notifications (0017): each event a processor told the gateway about, by its
 * own key, written in the transaction of the change it made (processed once however often it
 * comes, across restarts and processes), and the index that finds a payment by the processor's
 * id of it (`resultDetails.ConnectorTxID1`), which is inside the payment's `details` document.
 */
import { type Kysely, PostgresAdapter, type RawBuilder, sql } from 'kysely';
import { createTable, type EpochMs } from '../core/columns';

export interface ProcessorEventsTable {
  /** The channel whose connector verified the notification (its entityId in the address). */
  channel_id: string;
  /** The processor's key of the event (NotificationNotice.eventId: Stripe's evt_…, Adyen's code:psp:success). */
  event_id: string;
  /** The payment it was about, when the gateway knew it. */
  payment_id: string | null;
  /** What it did: `applied` (it changed the payment) or `unchanged`. */
  outcome: string;
  received_at: EpochMs;
}

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
