/**
 * The one query layer: the engine's storage ports (and the server's: webhooks, schedules,
 * settlements, risk history) over Kysely, the same code for SQLite and PostgreSQL, composed from
 * one store per aggregate (payments/, sessions/, registrations/, checkouts/, merchants/,
 * idempotency/, webhooks/, schedules/, settlements/, risk/, admin-users/). Rows map to records in each
 * aggregate (JSON columns, epoch-millisecond dates, minor amounts, null ↔ absent).
 *
 * Payments are written with group commit (core/group-commit.ts): `insertPayment` queues the row;
 * one writer flushes everything queued in ONE transaction as soon as the previous flush has
 * finished, and each caller's promise resolves only after the transaction holding its row has
 * committed (payments/writers.ts: multi-row INSERTs through Kysely, or SQLite's prepared hot path).
 */
import type { Kysely } from 'kysely';
import { keyedLock } from '../../shared/engine/core/keyed-lock';
import type { Exclusive, Store } from '../../shared/engine/core/ports';
import type { AccountSealer } from '../../shared/sealing/account-data';
import { type AcquirerRecordStore, acquirerRecordStore } from './acquirer-records/store';
import { type AdminUserStore, adminUserStore } from './admin-users/store';
import { type ApiRequestStore, apiRequestStore } from './api-requests/store';
import { checkoutNotificationStore, checkoutStore } from './checkouts/store';
import { type ConnectorAttemptStore, connectorAttemptStore } from './connector-attempts/store';
import type { StoreContext } from './core/context';
import type { Database } from './core/database';
import { GroupCommit } from './core/group-commit';
import { type DueWorkStore, dueWorkStore } from './due/store';
import { idempotencyStore } from './idempotency/store';
import { type InboxStore, inboxStore } from './inbox/store';
import { channelStore, merchantDirectory, tokenStore } from './merchants/store';
import { pendingMigrations } from './migrations';
import { type PaymentListStore, paymentListStore } from './payments/list';
import { paymentStore } from './payments/store';
import {
  type BatchObserver,
  kyselyPaymentWriter,
  observedWriter,
  type PaymentBatchWriter,
  type PaymentWrite,
} from './payments/writers';
import { type ProcessorEventStore, processorEventStore } from './processor-events/store';
import { type RegistrationListStore, registrationListStore } from './registrations/list';
import { registrationStore } from './registrations/store';
import { type RiskStore, riskStore } from './risk/store';
import { type ScheduleStore, scheduleStore } from './schedules/store';
import { type RecordSearchStore, recordSearchStore } from './search/store';
import { paymentSessionStore } from './sessions/store';
import { type SettlementStore, settlementStore } from './settlements/store';
import type { WebhookStore } from './webhooks/model';
import { webhookStore } from './webhooks/store';

export interface KyselyStoreOptions {
  /**
   * Seals the account numbers (IBANs, bank account numbers) of every JSON document written, and
   * opens them when read (shared/sealing/account-data.ts): payments' and registrations'
   * details, checkouts' parameters, sessions' plans, webhook payloads.
   */
  readonly sealer: AccountSealer;
  /** The batch writer for payments; default: multi-row INSERTs through Kysely (PostgreSQL). */
  readonly writePayments?: PaymentBatchWriter;
  /** How many batches of payments may be written at once (default 1: SQLite's one writer). */
  readonly concurrentBatches?: number;
  /** A lock that also holds between processes sharing the database (PostgreSQL advisory locks). */
  readonly lockAcrossProcesses?: <T>(key: string, task: () => Promise<T>) => Promise<T>;
  /** PostgreSQL: velocity keys are also locked across processes, in their transaction (risk/store.ts). */
  readonly advisoryLocks?: boolean;
  /** Told each written batch of payments (the gateway's metrics); storage imports nothing of them. */
  readonly observeBatch?: BatchObserver;
}

/**
 * The engine's Store, the webhooks' outbox and the stores of the back-office features
 * (schedules, settlements, risk history, the simulated acquirer's records), over one database.
 */
export type GatewayStore = Store &
  WebhookStore &
  ScheduleStore &
  SettlementStore &
  RiskStore &
  AcquirerRecordStore &
  InboxStore &
  DueWorkStore &
  AdminUserStore &
  PaymentListStore &
  ProcessorEventStore &
  ConnectorAttemptStore &
  RegistrationListStore &
  RecordSearchStore &
  ApiRequestStore & {
    /** readyz: the migrations not applied (none when current); rejects when the storage is unreachable. */
    pendingMigrations(): Promise<string[]>;
  };

export function createKyselyStore(db: Kysely<Database>, options: KyselyStoreOptions): GatewayStore {
  const { sealer } = options;
  const context: StoreContext = { db, sealer };
  const payments = new GroupCommit<PaymentWrite>(
    observedWriter(options.writePayments ?? kyselyPaymentWriter(db, sealer), options.observeBatch),
    { concurrency: options.concurrentBatches ?? 1 },
  );
  let closing: Promise<void> | undefined;
  return {
    ...scheduleStore(db, sealer),
    ...settlementStore(db, sealer),
    ...acquirerRecordStore(db),
    ...riskStore(db, { advisoryLocks: options.advisoryLocks === true }),
    ...exclusive(options.lockAcrossProcesses),
    ...paymentStore(context, payments, () => closing !== undefined),
    ...paymentSessionStore(context),
    ...registrationStore(context),
    ...checkoutStore(context),
    ...checkoutNotificationStore(context),
    ...webhookStore(context),
    ...merchantDirectory(context),
    ...channelStore(context),
    ...tokenStore(context),
    ...idempotencyStore(context),
    ...inboxStore(context),
    ...dueWorkStore(context),
    ...adminUserStore(context),
    ...paymentListStore(context),
    ...processorEventStore(context),
    ...connectorAttemptStore(context),
    ...registrationListStore(context),
    ...recordSearchStore(context),
    ...apiRequestStore(context),
    pendingMigrations: () => pendingMigrations(db as Kysely<unknown>),
    close() {
      closing ??= (async () => {
        await payments.drained();
        await db.destroy();
      })();
      return closing;
    },
  };
}

/** Store.exclusive: one waiter per key in this process; the database lock then orders the processes. */
function exclusive(across: KyselyStoreOptions['lockAcrossProcesses']): Exclusive {
  const local = keyedLock();
  return {
    exclusive(key, task) {
      return local(key, () => (across === undefined ? task() : across(key, task)));
    },
  };
}
