/**
 * The ProcessorEventStore: what the processors' notification route
 * (server/http/routes/connector-notifications.ts) reads and writes. A payment is found by the
 * processor's id of it through `payments_connector_tx` (tables.ts), never by a scan; an event is
 * recorded by its processor's key in the same transaction as the change it made (the payment
 * updated by a compare-and-set on the result code it had, and the outbox rows that tell the
 * merchant), so the same event again, after a restart or at another process on the same
 * PostgreSQL at the same moment, changes nothing: the second insert of its key waits for the
 * first's commit and then does nothing.
 *
 * An event about a payment of the gateway's not written yet is kept `waiting` with its verified
 * answer (holdProcessorEvent), read back by the route's sweep, and recorded like any other when
 * its payment appears: the same insert, which then takes over the waiting row (ON CONFLICT DO
 * UPDATE … WHERE it is waiting), so of several processes applying it at once one does. Every
 * event is pruned by age (pruneProcessorEvents: the retention worker), in batches.
 */

import { sql } from 'kysely';
import type { FinalState, Payment } from '../../../shared/engine/core/model';
import type { Change } from '../../../shared/engine/core/notification';
import type { StoreContext } from '../core/context';
import { date, ms, NothingChanged, parseObject } from '../core/rows';
import { rowToPayment } from '../payments/rows';
import { writeOutbox } from '../webhooks/outbox';
import { connectorTxIdExpression, HAS_CONNECTOR_TX_ID, WAITING } from './tables';

/** A notification of the processor's, by its key, as the route records it. */
export interface ProcessorEvent {
  readonly channelId: string;
  readonly eventId: string;
  /** The payment it is about, when one was found. */
  readonly paymentId?: string;
  readonly at: Date;
}

/** The change an event makes to a final payment: `final` replaces `from` (the result code it had). */
export interface ProcessorEventChange {
  readonly paymentId: string;
  readonly from: string;
  readonly final: Pick<FinalState, 'resultCode' | 'resultDescription' | 'details'>;
  /** What the merchant is told about it (the engine's rendering), written with it. */
  readonly changes: readonly Change[];
}

/** `applied`: it changed the payment; `unchanged`: recorded, the payment was not as expected; `seen`: recorded before. */
export type ProcessorEventOutcome = 'applied' | 'unchanged' | 'seen';

/** An event kept until its payment is written: its key, when it came, the verified answer it applies. */
export interface WaitingProcessorEvent {
  readonly channelId: string;
  readonly eventId: string;
  readonly receivedAt: Date;
  readonly answer: Readonly<Record<string, unknown>>;
}

export interface ProcessorEventStore {
  /** The channel's payment whose processor's id (resultDetails.ConnectorTxID1) is `theirId`; the latest if several. */
  paymentByConnectorId(channelId: string, theirId: string): Promise<Payment | undefined>;
  /** Whether an event of this key was recorded for the channel (one waiting for its payment is not). */
  processorEventSeen(channelId: string, eventId: string): Promise<boolean>;
  /** Records the event, with the change it makes (if any) in the same transaction; once per key. */
  recordProcessorEvent(event: ProcessorEvent, change?: ProcessorEventChange): Promise<ProcessorEventOutcome>;
  /** Keeps the event waiting for its payment with its verified `answer`; false when its key is known already. */
  holdProcessorEvent(event: ProcessorEvent, answer: object): Promise<boolean>;
  /** The oldest `limit` waiting events. */
  waitingProcessorEvents(limit: number): Promise<WaitingProcessorEvent[]>;
  /** Waiting events received before `before` given up (`expired`, their answer dropped); how many. */
  expireProcessorEvents(before: Date): Promise<number>;
  /** Deletes at most `limit` events received before `before` (any outcome); how many. */
  pruneProcessorEvents(before: Date, limit: number): Promise<number>;
}

export function processorEventStore({ db, sealer }: StoreContext): ProcessorEventStore {
  const theirIdOf = connectorTxIdExpression(db as never);
  return {
    ...waitingEventStore({ db, sealer }),
    async paymentByConnectorId(channelId, theirId) {
      const row = await db
        .selectFrom('payments')
        .selectAll()
        .where('channel_id', '=', channelId)
        .where(HAS_CONNECTOR_TX_ID)
        .where(theirIdOf, '=', theirId)
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(1)
        .executeTakeFirst();
      return row && rowToPayment(row, sealer);
    },

    async processorEventSeen(channelId, eventId) {
      const row = await db
        .selectFrom('processor_events')
        .select('event_id')
        .where('channel_id', '=', channelId)
        .where('event_id', '=', eventId)
        .where('outcome', '<>', 'waiting')
        .executeTakeFirst();
      return row !== undefined;
    },

    async recordProcessorEvent(event, change) {
      let outcome: ProcessorEventOutcome = 'seen';
      try {
        await db.transaction().execute(async (trx) => {
          const inserted = await trx
            .insertInto('processor_events')
            .values({
              channel_id: event.channelId,
              event_id: event.eventId,
              payment_id: event.paymentId ?? null,
              outcome: change === undefined ? 'unchanged' : 'applied',
              received_at: ms(event.at),
            })
            // a new key, or one that waited for its payment: taken over once (the WHERE on the row locked)
            .onConflict((c) =>
              c
                .columns(['channel_id', 'event_id'])
                .doUpdateSet({
                  outcome: change === undefined ? 'unchanged' : 'applied',
                  payment_id: event.paymentId ?? null,
                  answer: null,
                })
                .where(sql<boolean>`processor_events.outcome = 'waiting'`),
            )
            .returning('event_id')
            .executeTakeFirst();
          if (inserted === undefined) throw new NothingChanged();
          outcome = 'unchanged';
          if (change === undefined) return;
          const updated = await trx
            .updateTable('payments')
            .set({
              result_code: change.final.resultCode,
              result_description: change.final.resultDescription,
              details: JSON.stringify(sealer.seal(change.final.details)),
            })
            .where('id', '=', change.paymentId)
            .where('result_code', '=', change.from)
            .returning('id')
            .executeTakeFirst();
          if (updated === undefined) {
            // someone else's change came first (another event telling the same): nothing to tell
            await trx
              .updateTable('processor_events')
              .set({ outcome: 'unchanged' })
              .where('channel_id', '=', event.channelId)
              .where('event_id', '=', event.eventId)
              .execute();
            return;
          }
          await writeOutbox(trx, change.changes, sealer);
          outcome = 'applied';
        });
      } catch (error) {
        if (!(error instanceof NothingChanged)) throw error;
      }
      return outcome;
    },
  };
}

/** The events that wait for their payment, and retention's deletes (the store's part the sweep and the retention worker use). */
function waitingEventStore({
  db,
  sealer,
}: StoreContext): Pick<
  ProcessorEventStore,
  'holdProcessorEvent' | 'waitingProcessorEvents' | 'expireProcessorEvents' | 'pruneProcessorEvents'
> {
  return {
    async holdProcessorEvent(event, answer) {
      const inserted = await db
        .insertInto('processor_events')
        .values({
          channel_id: event.channelId,
          event_id: event.eventId,
          payment_id: null,
          outcome: 'waiting',
          received_at: ms(event.at),
          answer: JSON.stringify(sealer.seal(answer)),
        })
        .onConflict((c) => c.columns(['channel_id', 'event_id']).doNothing())
        .returning('event_id')
        .executeTakeFirst();
      return inserted !== undefined;
    },

    async waitingProcessorEvents(limit) {
      const rows = await db
        .selectFrom('processor_events')
        .select(['channel_id', 'event_id', 'received_at', 'answer'])
        .where(WAITING)
        .orderBy('received_at')
        .limit(limit)
        .execute();
      return rows.map((row) => ({
        channelId: row.channel_id,
        eventId: row.event_id,
        receivedAt: date(row.received_at),
        answer: sealer.open(parseObject(row.answer ?? '{}')),
      }));
    },

    async expireProcessorEvents(before) {
      const result = await db
        .updateTable('processor_events')
        .set({ outcome: 'expired', answer: null })
        .where(WAITING)
        .where('received_at', '<', ms(before))
        .executeTakeFirst();
      return Number(result.numUpdatedRows);
    },

    async pruneProcessorEvents(before, limit) {
      // one batch, by the age index: a short write however many are due
      const result = await db
        .deleteFrom('processor_events')
        .where((eb) =>
          eb(
            eb.refTuple('channel_id', 'event_id'),
            'in',
            eb
              .selectFrom('processor_events')
              .select(['channel_id', 'event_id'])
              .where('received_at', '<', ms(before))
              .limit(limit)
              .$asTuple('channel_id', 'event_id'),
          ),
        )
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}
