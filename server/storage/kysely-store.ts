/**
 * The one query layer: `Store` over Kysely, the same code for SQLite and PostgreSQL. Rows map to
 * records here (JSON columns, epoch-millisecond dates, minor amounts, null ↔ absent).
 *
 * Payments are written with group commit: `insertPayment` queues the row; one writer flushes
 * everything queued in ONE transaction as soon as the previous flush has finished, and each
 * caller's promise resolves only after the transaction holding its row has committed. One fsync
 * (SQLite) or one commit round trip (PostgreSQL) thus covers every payment that arrived
 * meanwhile. When a batch fails, its rows are retried one by one, so only a row that fails on its
 * own is refused; the batches after it are unaffected.
 */

import type BetterSqlite3 from 'better-sqlite3';
import { type Compilable, CompiledQuery, type Kysely } from 'kysely';
import {
  type Change,
  type NotificationAction,
  type NotificationType,
  paymentChange,
  paymentChanges,
  registrationChange,
} from '../../shared/engine/answers/notifications';
import type { IssuerLookup } from '../../shared/engine/answers/response';
import { keyedLock } from '../../shared/engine/core/keyed-lock';
import type {
  AccessToken,
  Channel,
  ChannelMode,
  ChannelSettings,
  Checkout,
  CheckoutKind,
  IdempotentResponse,
  Merchant,
  Payment,
  PaymentSession,
  PaymentSessionKind,
  Registration,
  SessionOutcome,
  StoredCard,
  TestMode,
} from '../../shared/engine/core/model';
import { IDEMPOTENCY_CLAIMED } from '../../shared/engine/core/model';
import type { Store } from '../../shared/engine/core/ports';
import { asMinor } from '../../shared/money';
import type { AccountSealer } from '../security/account-data';
import type { Delivery, DeliveryStatus, Webhook, WebhookStore } from '../webhooks/model';
import { outboxRows } from '../webhooks/outbox';
import { CLAIM_COLUMNS, type ClaimWrite, claimInsert, claimWrite, KeyTaken } from './idempotency-claims';
import { outboxOf, writeOutbox } from './outbox';
import { type RiskStore, riskStore } from './risk';
import { date, dateOrNull, insertAll, int, ms, msOrNull, ROWS_PER_STATEMENT } from './rows';
import { type ScheduleStore, scheduleStore } from './schedules';
import type {
  AccessTokenRow,
  ChannelRow,
  CheckoutRow,
  Database,
  IdempotentResponseRow,
  MerchantRow,
  NewIdempotentResponseRow,
  NewPaymentRow,
  NewWebhookDeliveryRow,
  PaymentRow,
  PaymentSessionRow,
  RegistrationRow,
  WebhookDeliveryRow,
  WebhookRow,
} from './schema';
import { type SettlementStore, settlementStore } from './settlements';

/**
 * A payment row and the changes it notifies (the payment, and RISK for some), and the
 * Idempotency-Key it takes when its request sent one: written together, in one transaction.
 */
export interface PaymentWrite {
  readonly row: NewPaymentRow;
  readonly changes: readonly Change[];
  readonly claim?: ClaimWrite;
}

/**
 * Writes one batch of payments atomically (all or none), durably, before it settles: the
 * payment rows and their outbox rows (notifications for the merchant's webhooks at that time).
 */
export type PaymentBatchWriter = (writes: readonly PaymentWrite[]) => void | Promise<void>;

export interface KyselyStoreOptions {
  /**
   * Seals the account numbers (IBANs, bank account numbers) of every JSON document written, and
   * opens them when read (server/security/account-data.ts): payments' and registrations'
   * details, checkouts' parameters, sessions' plans, webhook payloads.
   */
  readonly sealer: AccountSealer;
  /** The issuer lookup of the notifications' card.type, card.level, card.issuer.* (the processors). */
  readonly issuers?: IssuerLookup;
  /** The batch writer for payments; default: multi-row INSERTs through Kysely (PostgreSQL). */
  readonly writePayments?: PaymentBatchWriter;
  /** A lock that also holds between processes sharing the database (PostgreSQL advisory locks). */
  readonly lockAcrossProcesses?: <T>(key: string, task: () => Promise<T>) => Promise<T>;
  /** PostgreSQL: velocity keys are also locked across processes, in their transaction (risk.ts). */
  readonly advisoryLocks?: boolean;
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

type WebhookHookRow = Pick<WebhookRow, 'id' | 'merchant_id' | 'types' | 'payment_types'>;

/** The outbox columns the SQLite hot path binds, in a fixed order (seq is assigned by the database). */
const DELIVERY_COLUMNS = [
  'merchant_id',
  'webhook_id',
  'callback_url',
  'target',
  'order_key',
  'type',
  'action',
  'payload',
  'status',
  'attempts',
  'next_attempt_at',
  'created_at',
  'retry_from',
  'last_attempt_at',
  'last_status',
  'last_error',
  'delivered_at',
] as const satisfies readonly (keyof NewWebhookDeliveryRow)[];

// ---------------------------------------------------------------------------------------------
// Row mapping

/** Only the StoredCard fields: whatever else a caller's object carries never reaches the disk. */
function cardToJson(card: StoredCard | undefined): string | null {
  if (card === undefined) return null;
  const stored: StoredCard = {
    bin: card.bin,
    last4Digits: card.last4Digits,
    ...(card.holder !== undefined ? { holder: card.holder } : {}),
    expiryMonth: card.expiryMonth,
    expiryYear: card.expiryYear,
    encryptedNumber: card.encryptedNumber,
  };
  return JSON.stringify(stored);
}

function parseObject(text: string): Record<string, unknown> {
  return JSON.parse(text) as Record<string, unknown>;
}

/** All payment columns, in a fixed order (the SQLite hot path binds parameters by this order). */
export const PAYMENT_COLUMNS = [
  'id',
  'merchant_id',
  'channel_id',
  'payment_type',
  'payment_brand',
  'amount',
  'currency',
  'result_code',
  'result_description',
  'referenced_id',
  'registration_id',
  'merchant_transaction_id',
  'short_id',
  'descriptor',
  'ndc',
  'test_mode',
  'card',
  'details',
  'created_at',
  'checkout_id',
] as const satisfies readonly (keyof NewPaymentRow)[];

export function paymentToRow(p: Payment, sealer: AccountSealer): NewPaymentRow {
  return {
    id: p.id,
    merchant_id: p.merchantId,
    channel_id: p.channelId,
    payment_type: p.paymentType,
    payment_brand: p.paymentBrand ?? null,
    amount: p.amount,
    currency: p.currency ?? null,
    result_code: p.resultCode,
    result_description: p.resultDescription,
    referenced_id: p.referencedId ?? null,
    registration_id: p.registrationId ?? null,
    merchant_transaction_id: p.merchantTransactionId ?? null,
    short_id: p.shortId,
    descriptor: p.descriptor ?? null,
    ndc: p.ndc,
    test_mode: p.testMode ?? null,
    card: cardToJson(p.card),
    details: JSON.stringify(sealer.seal(p.details)),
    created_at: ms(p.createdAt),
    checkout_id: p.checkoutId ?? null,
  };
}

function rowToPayment(r: PaymentRow, sealer: AccountSealer): Payment {
  const p: Mutable<Payment> = {
    id: r.id,
    merchantId: r.merchant_id,
    channelId: r.channel_id,
    paymentType: r.payment_type,
    amount: r.amount === null ? null : asMinor(int(r.amount)),
    resultCode: r.result_code,
    resultDescription: r.result_description,
    shortId: r.short_id,
    ndc: r.ndc,
    details: sealer.open(parseObject(r.details)),
    createdAt: date(r.created_at),
  };
  if (r.payment_brand !== null) p.paymentBrand = r.payment_brand;
  if (r.currency !== null) p.currency = r.currency;
  if (r.referenced_id !== null) p.referencedId = r.referenced_id;
  if (r.registration_id !== null) p.registrationId = r.registration_id;
  if (r.merchant_transaction_id !== null) p.merchantTransactionId = r.merchant_transaction_id;
  if (r.descriptor !== null) p.descriptor = r.descriptor;
  if (r.test_mode !== null) p.testMode = r.test_mode as TestMode;
  if (r.card !== null) p.card = JSON.parse(r.card) as StoredCard;
  if (r.checkout_id != null) p.checkoutId = r.checkout_id;
  return p;
}

const registrationToRow = (r: Registration, sealer: AccountSealer) => ({
  id: r.id,
  merchant_id: r.merchantId,
  channel_id: r.channelId,
  payment_brand: r.paymentBrand,
  card: cardToJson(r.card),
  details: JSON.stringify(sealer.seal(r.details)),
  initial_transaction_id: r.initialTransactionId ?? null,
  agreement_id: r.agreementId ?? null,
  deleted_at: r.deletedAt === null ? null : ms(r.deletedAt),
  created_at: ms(r.createdAt),
});

function rowToRegistration(r: RegistrationRow, sealer: AccountSealer): Registration {
  const reg: Mutable<Registration> = {
    id: r.id,
    merchantId: r.merchant_id,
    channelId: r.channel_id,
    paymentBrand: r.payment_brand,
    details: sealer.open(parseObject(r.details)),
    deletedAt: dateOrNull(r.deleted_at),
    createdAt: date(r.created_at),
  };
  if (r.card !== null) reg.card = JSON.parse(r.card) as StoredCard;
  if (r.initial_transaction_id !== null) reg.initialTransactionId = r.initial_transaction_id;
  if (r.agreement_id !== null) reg.agreementId = r.agreement_id;
  return reg;
}

function rowToWebhook(r: WebhookRow): Webhook {
  const w: Mutable<Webhook> = {
    id: r.id,
    merchantId: r.merchant_id,
    url: r.url,
    secret: r.secret,
    encrypted: int(r.encrypted) === 1,
    types: JSON.parse(r.types) as NotificationType[],
    createdAt: date(r.created_at),
    deletedAt: dateOrNull(r.deleted_at),
  };
  if (r.payment_types !== null) w.paymentTypes = JSON.parse(r.payment_types) as string[];
  return w;
}

function rowToDelivery(r: WebhookDeliveryRow, sealer: AccountSealer): Delivery {
  const d: Mutable<Delivery> = {
    seq: int(r.seq),
    merchantId: r.merchant_id,
    orderKey: r.order_key,
    notification: {
      type: r.type as NotificationType,
      ...(r.action === null ? {} : { action: r.action as NotificationAction }),
      payload: sealer.open(parseObject(r.payload)),
    },
    status: r.status as DeliveryStatus,
    attempts: int(r.attempts),
    nextAttemptAt: dateOrNull(r.next_attempt_at),
    createdAt: date(r.created_at),
    retryFrom: date(r.retry_from),
    lastAttemptAt: dateOrNull(r.last_attempt_at),
    lastStatus: r.last_status === null ? null : int(r.last_status),
    lastError: r.last_error,
    deliveredAt: dateOrNull(r.delivered_at),
  };
  if (r.webhook_id !== null) d.webhookId = r.webhook_id;
  if (r.callback_url !== null) d.callbackUrl = r.callback_url;
  return d;
}

function rowToCheckout(r: CheckoutRow, sealer: AccountSealer): Checkout {
  const c: Mutable<Checkout> = {
    id: r.id,
    merchantId: r.merchant_id,
    channelId: r.channel_id,
    kind: r.kind as CheckoutKind,
    parameters: sealer.open(parseObject(r.parameters)),
    amount: asMinor(int(r.amount)),
    currency: r.currency,
    createdAt: date(r.created_at),
    expiresAt: date(r.expires_at),
    submittedAt: dateOrNull(r.submitted_at),
    completedAt: dateOrNull(r.completed_at),
    statusFetchedAt: dateOrNull(r.status_fetched_at),
    notifyDueAt: dateOrNull(r.notify_due_at),
    notifyAttempts: int(r.notify_attempts),
    notifiedAt: dateOrNull(r.notified_at),
  };
  if (r.shopper_result_url !== null) c.shopperResultUrl = r.shopper_result_url;
  if (r.payment_id !== null) c.paymentId = r.payment_id;
  if (r.registration_id !== null) c.registrationId = r.registration_id;
  if (r.result_code !== null) c.resultCode = r.result_code;
  return c;
}

function rowToSession(r: PaymentSessionRow, sealer: AccountSealer): PaymentSession {
  const s: Mutable<PaymentSession> = {
    id: r.id,
    paymentId: r.payment_id,
    merchantId: r.merchant_id,
    kind: r.kind as PaymentSessionKind,
    plan: sealer.open(parseObject(r.plan)),
    createdAt: date(r.created_at),
    expiresAt: date(r.expires_at),
    dueAt: dateOrNull(r.due_at),
    finishedAt: dateOrNull(r.finished_at),
  };
  if (r.checkout_id !== null) s.checkoutId = r.checkout_id;
  if (r.return_url !== null) s.returnUrl = r.return_url;
  if (r.outcome !== null) s.outcome = r.outcome as SessionOutcome;
  return s;
}

/** Thrown inside a transaction to roll it back when a compare-and-set found nothing to change. */
class NothingChanged extends Error {}

const rowToMerchant = (r: MerchantRow): Merchant => ({
  id: r.id,
  name: r.name,
  ...(Number(r.dispatching) === 1 ? { dispatching: true } : {}),
  createdAt: date(r.created_at),
});

/** A channel's settings keep the merchant's bank account (bankAccount.iban): sealed like the shoppers'. */
const rowToChannel = (r: ChannelRow, sealer: AccountSealer): Channel => ({
  id: r.id,
  merchantId: r.merchant_id,
  name: r.name,
  mode: r.mode as ChannelMode,
  settings: sealer.open(JSON.parse(r.settings) as ChannelSettings),
  createdAt: date(r.created_at),
});

const rowToToken = (r: AccessTokenRow): AccessToken => ({
  id: r.id,
  merchantId: r.merchant_id,
  userId: r.user_id,
  secretHash: r.secret_hash,
  channelIds: JSON.parse(r.channel_ids) as string[],
  environment: r.environment === 'live' ? 'live' : 'test',
  revokedAt: dateOrNull(r.revoked_at),
  createdAt: date(r.created_at),
});

const rowToResponse = (r: IdempotentResponseRow): IdempotentResponse => ({
  merchantId: r.merchant_id,
  key: r.key,
  requestHash: r.request_hash,
  status: int(r.status),
  body: r.body,
  createdAt: date(r.created_at),
  ...(r.payment_id === null ? {} : { paymentId: r.payment_id }),
  ...(r.schedule_id === null ? {} : { scheduleId: r.schedule_id }),
});

// ---------------------------------------------------------------------------------------------
// Group commit

interface Pending<T> {
  readonly item: T;
  readonly resolve: () => void;
  readonly reject: (error: unknown) => void;
}

/**
 * Queues items and writes them in batches: a flush starts when the writer is idle (on the next
 * turn of the event loop, so that everything arriving in the current turn joins it) and takes
 * everything queued; items arriving while it runs wait for the next flush, which starts as soon
 * as this one has finished. No timers, no batch size to tune.
 */
export class GroupCommit<T> {
  #queue: Pending<T>[] = [];
  #busy = false;
  #idle: (() => void)[] = [];
  readonly #write: (items: readonly T[]) => void | Promise<void>;

  constructor(write: (items: readonly T[]) => void | Promise<void>) {
    this.#write = write;
  }

  add(item: T): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.#queue.push({ item, resolve, reject });
      if (!this.#busy) {
        this.#busy = true;
        setImmediate(() => void this.#run());
      }
    });
  }

  /** Resolves once everything queued so far has been written (or has failed). */
  drained(): Promise<void> {
    if (!this.#busy) return Promise.resolve();
    return new Promise((resolve) => this.#idle.push(resolve));
  }

  async #run(): Promise<void> {
    while (this.#queue.length > 0) {
      const batch = this.#queue;
      this.#queue = [];
      try {
        await this.#write(batch.map((p) => p.item));
        for (const p of batch) p.resolve();
      } catch (error) {
        if (batch.length === 1) batch[0]!.reject(error);
        // One bad row must not fail the payments that merely shared its batch: write each
        // alone, so only the row that fails again is refused.
        else for (const p of batch) await this.#writeAlone(p);
      }
    }
    this.#busy = false;
    for (const resolve of this.#idle.splice(0)) resolve();
  }

  async #writeAlone(p: Pending<T>): Promise<void> {
    try {
      await this.#write([p.item]);
      p.resolve();
    } catch (error) {
      p.reject(error);
    }
  }
}

/**
 * Default batch writer: multi-row INSERTs of the payments and their outbox rows, in one
 * transaction. The webhooks are read first: a webhook registered while the batch commits may
 * or may not get its notifications, as it would if read inside the transaction (read committed).
 */
export function kyselyPaymentWriter(db: Kysely<Database>, sealer: AccountSealer): PaymentBatchWriter {
  return async (writes) => {
    const outbox = await outboxOf(
      db,
      writes.flatMap((w) => w.changes),
      sealer,
    );
    const rows = writes.map((w) => w.row);
    const claims = writes.flatMap((w) => (w.claim === undefined ? [] : [w.claim]));
    if (outbox.length === 0 && claims.length === 0 && rows.length <= ROWS_PER_STATEMENT) {
      // One statement is one transaction.
      await db.insertInto('payments').values(rows).execute();
      return;
    }
    await db.transaction().execute(async (trx) => {
      await insertAll(trx, 'payments', rows);
      await insertAll(trx, 'webhook_deliveries', outbox);
      // The keys the payments took, in their transaction; an expired row of a key is replaced only
      // if expired for every claim of the batch (keys are unique within it: one request per key).
      for (let i = 0; i < claims.length; i += ROWS_PER_STATEMENT) {
        const chunk = claims.slice(i, i + ROWS_PER_STATEMENT);
        const replaceBefore = Math.min(...chunk.map((c) => c.replaceBefore));
        const taken = await claimInsert(
          trx,
          chunk.map((c) => c.row),
          replaceBefore,
        )
          .returning('key')
          .execute();
        if (taken.length !== chunk.length) {
          const held = new Set(taken.map((t) => t.key));
          throw new KeyTaken(chunk.find((c) => !held.has(c.row.key))?.row.key ?? '');
        }
      }
    });
  };
}

/**
 * SQLite hot path: one better-sqlite3 transaction of prepared single-row INSERTs, on the handle
 * Kysely itself uses. The SQL is generated once by Kysely from the same table definition. It
 * runs synchronously: nothing else can interleave on the connection while it runs.
 */
export function sqlitePaymentWriter(
  db: Kysely<Database>,
  raw: BetterSqlite3.Database,
  sealer: AccountSealer,
): PaymentBatchWriter {
  const template = Object.fromEntries(PAYMENT_COLUMNS.map((c) => [c, null])) as unknown as NewPaymentRow;
  const compiled = db.insertInto('payments').values(template).compile();
  const insert = raw.prepare(compiled.sql);
  const hooks = raw.prepare(
    db
      .selectFrom('webhooks')
      .select(['id', 'merchant_id', 'types', 'payment_types'])
      .where('merchant_id', '=', '')
      .where('deleted_at', 'is', null)
      .compile().sql,
  );
  const deliveryTemplate = Object.fromEntries(
    DELIVERY_COLUMNS.map((c) => [c, null]),
  ) as unknown as NewWebhookDeliveryRow;
  const insertDelivery = raw.prepare(
    db.insertInto('webhook_deliveries').values(deliveryTemplate).compile().sql,
  );
  const claimTemplate = Object.fromEntries(
    CLAIM_COLUMNS.map((c) => [c, null]),
  ) as unknown as NewIdempotentResponseRow;
  // Parameters: the claim's columns in CLAIM_COLUMNS order, then replaceBefore.
  const insertClaim = raw.prepare(claimInsert(db, [claimTemplate], 0).compile().sql);
  const insertAll = raw.transaction((writes: readonly PaymentWrite[]) => {
    const hooksOf = new Map<string, WebhookHookRow[]>();
    for (const { row, changes, claim } of writes) {
      insert.run(PAYMENT_COLUMNS.map((c) => row[c] ?? null));
      if (claim !== undefined) {
        const taken = insertClaim.run([
          ...CLAIM_COLUMNS.map((c) => claim.row[c] ?? null),
          claim.replaceBefore,
        ]);
        if (taken.changes === 0) throw new KeyTaken(claim.row.key);
      }
      for (const change of changes) {
        let merchantHooks = hooksOf.get(change.merchantId);
        if (merchantHooks === undefined) {
          merchantHooks = hooks.all(change.merchantId) as WebhookHookRow[];
          hooksOf.set(change.merchantId, merchantHooks);
        }
        for (const delivery of outboxRows(change, merchantHooks, sealer))
          insertDelivery.run(DELIVERY_COLUMNS.map((c) => delivery[c] ?? null));
      }
    }
  });
  return async (writes) => {
    // Never nest into a transaction someone else has open on this connection (it would only
    // become a savepoint, committed with theirs): wait until it has ended.
    while (raw.inTransaction) await new Promise((resolve) => setImmediate(resolve));
    insertAll(writes);
  };
}

/**
 * A hot query compiled once; Kysely would build and compile it on every call. The parameters
 * are given in the order the query's placeholders appear (the order of its `where`s).
 */
function compiledOnce<Row>(db: Kysely<Database>, query: Compilable<Row>) {
  const { sql, parameters } = query.compile();
  return async (values: readonly unknown[]): Promise<Row[]> => {
    if (values.length !== parameters.length) throw new RangeError('wrong number of query parameters');
    return (await db.executeQuery<Row>(CompiledQuery.raw(sql, [...values]))).rows;
  };
}

// ---------------------------------------------------------------------------------------------
// The store

/**
 * The engine's Store, the webhooks' outbox and the stores of the back-office features
 * (schedules, settlements, risk history), over one database.
 */
export type GatewayStore = Store & WebhookStore & ScheduleStore & SettlementStore & RiskStore;

export function createKyselyStore(db: Kysely<Database>, options: KyselyStoreOptions): GatewayStore {
  const { sealer } = options;
  const payments = new GroupCommit<PaymentWrite>(options.writePayments ?? kyselyPaymentWriter(db, sealer));
  const toPayment = (r: PaymentRow) => rowToPayment(r, sealer);
  const toRegistration = (r: RegistrationRow) => rowToRegistration(r, sealer);
  const toDelivery = (r: WebhookDeliveryRow) => rowToDelivery(r, sealer);
  const toCheckout = (r: CheckoutRow) => rowToCheckout(r, sealer);
  const toSession = (r: PaymentSessionRow) => rowToSession(r, sealer);
  let closing: Promise<void> | undefined;
  const local = keyedLock();
  const across = options.lockAcrossProcesses;
  // Every status GET runs this one.
  const paymentById = compiledOnce<PaymentRow>(
    db,
    db.selectFrom('payments').selectAll().where('id', '=', '').where('merchant_id', '=', ''),
  );

  return {
    ...scheduleStore(db, sealer),
    ...settlementStore(db),
    ...riskStore(db, { advisoryLocks: options.advisoryLocks === true }),
    exclusive(key, task) {
      // One waiter per key in this process; the database lock then orders the processes.
      return local(key, () => (across === undefined ? task() : across(key, task)));
    },

    insertPayment(payment, idempotencyClaim) {
      if (closing) return Promise.reject(new Error('Store is closed'));
      let write: PaymentWrite;
      try {
        const claim =
          idempotencyClaim === undefined
            ? undefined
            : claimWrite(idempotencyClaim, payment.merchantId, { payment_id: payment.id });
        write = {
          row: paymentToRow(payment, sealer),
          changes: paymentChanges(payment, payment.createdAt, options.issuers),
          ...(claim === undefined ? {} : { claim }),
        };
      } catch (error) {
        return Promise.reject(error);
      }
      return payments.add(write);
    },

    async getPayment(merchantId, id) {
      const [row] = await paymentById([id, merchantId]);
      return row && toPayment(row);
    },

    async listReferencing(merchantId, id) {
      const rows = await db
        .selectFrom('payments')
        .selectAll()
        .where('merchant_id', '=', merchantId)
        .where('referenced_id', '=', id)
        .orderBy('created_at')
        .orderBy('id')
        .execute();
      return rows.map(toPayment);
    },

    async queryPayments(q) {
      if (q.channelIds?.length === 0 || q.paymentBrands?.length === 0 || q.paymentTypes?.length === 0) {
        return [];
      }
      let query = db.selectFrom('payments').selectAll().where('merchant_id', '=', q.merchantId);
      if (q.channelIds !== undefined) query = query.where('channel_id', 'in', [...q.channelIds]);
      if (q.merchantTransactionId !== undefined) {
        query = query.where('merchant_transaction_id', '=', q.merchantTransactionId);
      }
      if (q.from !== undefined) query = query.where('created_at', '>=', q.from.getTime());
      if (q.until !== undefined) query = query.where('created_at', '<', q.until.getTime());
      if (q.shortId !== undefined) query = query.where('short_id', '=', q.shortId);
      if (q.paymentTypes !== undefined) query = query.where('payment_type', 'in', [...q.paymentTypes]);
      if (q.paymentBrands !== undefined) query = query.where('payment_brand', 'in', [...q.paymentBrands]);
      const after = q.after;
      if (after !== undefined) {
        const t = after.createdAt.getTime();
        query = query.where((eb) =>
          eb.or([eb('created_at', '>', t), eb.and([eb('created_at', '=', t), eb('id', '>', after.id)])]),
        );
      }
      const rows = await query.orderBy('created_at').orderBy('id').limit(q.limit).execute();
      return rows.map(toPayment);
    },

    async listLinked(merchantId, ids) {
      if (ids.length === 0) return [];
      const rows = await db
        .selectFrom('payments')
        .selectAll()
        .where('merchant_id', '=', merchantId)
        .where((eb) =>
          eb.or([
            eb('referenced_id', 'in', [...ids]),
            eb(
              'id',
              'in',
              eb
                .selectFrom('payments as p')
                .select('p.referenced_id')
                .where('p.merchant_id', '=', merchantId)
                .where('p.id', 'in', [...ids])
                .where('p.referenced_id', 'is not', null),
            ),
          ]),
        )
        .orderBy('created_at')
        .orderBy('id')
        .execute();
      return rows.map(toPayment);
    },

    async insertPaymentSession(session) {
      await db
        .insertInto('payment_sessions')
        .values({
          id: session.id,
          payment_id: session.paymentId,
          merchant_id: session.merchantId,
          kind: session.kind,
          checkout_id: session.checkoutId ?? null,
          return_url: session.returnUrl ?? null,
          plan: JSON.stringify(sealer.seal(session.plan)),
          created_at: ms(session.createdAt),
          expires_at: ms(session.expiresAt),
          due_at: msOrNull(session.dueAt),
          finished_at: msOrNull(session.finishedAt),
          outcome: session.outcome ?? null,
        })
        .execute();
    },

    async getPaymentSession(id) {
      const row = await db.selectFrom('payment_sessions').selectAll().where('id', '=', id).executeTakeFirst();
      return row && toSession(row);
    },

    async getPaymentSessionOfPayment(paymentId) {
      const row = await db
        .selectFrom('payment_sessions')
        .selectAll()
        .where('payment_id', '=', paymentId)
        .executeTakeFirst();
      return row && toSession(row);
    },

    async finishPaymentSession(id, at, outcome, final, registration) {
      // A payment row may still sit in the group-commit queue; it is durable before its answer
      // is sent, so a session the shopper can finish always has its payment written.
      try {
        await db.transaction().execute(async (trx) => {
          const session = await trx
            .updateTable('payment_sessions')
            .set({ finished_at: ms(at), outcome, due_at: null })
            .where('id', '=', id)
            .where('finished_at', 'is', null)
            .returning('payment_id')
            .executeTakeFirst();
          if (session === undefined) throw new NothingChanged();
          const payment = await trx
            .updateTable('payments')
            .set({
              result_code: final.resultCode,
              result_description: final.resultDescription,
              details: JSON.stringify(sealer.seal(final.details)),
              ...(final.registrationId === undefined ? {} : { registration_id: final.registrationId }),
            })
            .where('id', '=', session.payment_id)
            .where('result_code', '=', '000.200.000')
            .returningAll()
            .executeTakeFirst();
          if (payment === undefined) throw new NothingChanged();
          const changes = [paymentChange(toPayment(payment), at, options.issuers)];
          if (registration !== undefined) {
            await trx.insertInto('registrations').values(registrationToRow(registration, sealer)).execute();
            changes.unshift(registrationChange(registration, 'CREATED', at));
          }
          await writeOutbox(trx, changes, sealer);
        });
        return true;
      } catch (error) {
        if (error instanceof NothingChanged) return false;
        throw error;
      }
    },

    async dropPaymentSession(id, at) {
      await db
        .updateTable('payment_sessions')
        .set({ finished_at: ms(at), outcome: 'timedOut', due_at: null })
        .where('id', '=', id)
        .where('finished_at', 'is', null)
        .execute();
    },

    async claimDuePaymentSessions(now, leaseUntil, limit) {
      const due = await db
        .selectFrom('payment_sessions')
        .selectAll()
        .where('finished_at', 'is', null)
        .where('due_at', '<=', ms(now))
        .orderBy('due_at')
        .orderBy('id')
        .limit(limit)
        .execute();
      const claimed: PaymentSession[] = [];
      for (const row of due) {
        // Compare-and-set on the due time just read: exactly one of several pollers wins a row.
        const result = await db
          .updateTable('payment_sessions')
          .set({ due_at: ms(leaseUntil) })
          .where('id', '=', row.id)
          .where('finished_at', 'is', null)
          .where('due_at', '=', row.due_at)
          .executeTakeFirst();
        if (result.numUpdatedRows > 0n) claimed.push(toSession({ ...row, due_at: ms(leaseUntil) }));
      }
      return claimed;
    },

    async insertRegistration(r) {
      await db.transaction().execute(async (trx) => {
        await trx.insertInto('registrations').values(registrationToRow(r, sealer)).execute();
        await writeOutbox(trx, [registrationChange(r, 'CREATED', r.createdAt)], sealer);
      });
    },

    async getRegistration(merchantId, id) {
      const row = await db
        .selectFrom('registrations')
        .selectAll()
        .where('id', '=', id)
        .where('merchant_id', '=', merchantId)
        .executeTakeFirst();
      return row && toRegistration(row);
    },

    async deleteRegistration(merchantId, id, at) {
      return db.transaction().execute(async (trx) => {
        const row = await trx
          .updateTable('registrations')
          .set({ deleted_at: ms(at) })
          .where('id', '=', id)
          .where('merchant_id', '=', merchantId)
          .where('deleted_at', 'is', null)
          .returningAll()
          .executeTakeFirst();
        if (row === undefined) return false;
        await writeOutbox(trx, [registrationChange(toRegistration(row), 'DELETED', at)], sealer);
        return true;
      });
    },

    async insertCheckout(c) {
      await db
        .insertInto('checkouts')
        .values({
          id: c.id,
          merchant_id: c.merchantId,
          channel_id: c.channelId,
          kind: c.kind,
          parameters: JSON.stringify(sealer.seal(c.parameters)),
          amount: c.amount,
          currency: c.currency,
          shopper_result_url: c.shopperResultUrl ?? null,
          created_at: ms(c.createdAt),
          expires_at: ms(c.expiresAt),
          payment_id: c.paymentId ?? null,
          registration_id: c.registrationId ?? null,
          result_code: c.resultCode ?? null,
          submitted_at: msOrNull(c.submittedAt),
          completed_at: msOrNull(c.completedAt),
          status_fetched_at: msOrNull(c.statusFetchedAt),
          notify_due_at: msOrNull(c.notifyDueAt),
          notify_attempts: c.notifyAttempts,
          notified_at: msOrNull(c.notifiedAt),
        })
        .execute();
    },

    async getCheckout(id) {
      const row = await db.selectFrom('checkouts').selectAll().where('id', '=', id).executeTakeFirst();
      return row && toCheckout(row);
    },

    async recordCheckoutSubmission(id, at, notifyDueAt) {
      // Every submission arms a notification: one already pending keeps its (earlier) due time
      // and its attempts; a fresh one starts from none. notifiedAt is cleared: the merchant has
      // not been told about this submission yet.
      await db
        .updateTable('checkouts')
        .set((eb) => ({
          submitted_at: ms(at),
          notify_due_at: eb.fn.coalesce('notify_due_at', eb.val(ms(notifyDueAt))),
          notify_attempts: eb
            .case()
            .when('notify_due_at', 'is', null)
            .then(0)
            .else(eb.ref('notify_attempts'))
            .end(),
          notified_at: null,
        }))
        .where('id', '=', id)
        .execute();
    },

    async recordCheckoutAttempt(id, paymentId, resultCode) {
      await db
        .updateTable('checkouts')
        .set({ payment_id: paymentId, result_code: resultCode })
        .where('id', '=', id)
        .where('completed_at', 'is', null)
        .execute();
    },

    async settleCheckoutPayment(id, paymentId, resultCode, at, completed) {
      await db
        .updateTable('checkouts')
        .set({ result_code: resultCode, completed_at: completed ? ms(at) : null })
        .where('id', '=', id)
        .where('payment_id', '=', paymentId)
        .execute();
    },

    async completeCheckout(id, completion) {
      const result = await db
        .updateTable('checkouts')
        .set({
          completed_at: ms(completion.at),
          result_code: completion.resultCode,
          payment_id: 'paymentId' in completion ? completion.paymentId : null,
          registration_id: 'registrationId' in completion ? completion.registrationId : null,
        })
        .where('id', '=', id)
        .where('completed_at', 'is', null)
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },

    async recordCheckoutStatusFetched(id, at) {
      await db
        .updateTable('checkouts')
        .set({ status_fetched_at: ms(at), notify_due_at: null })
        .where('id', '=', id)
        .execute();
    },

    async claimCheckoutNotifications(now, leaseUntil, limit) {
      const due = await db
        .selectFrom('checkouts')
        .selectAll()
        .where('notified_at', 'is', null)
        .where('notify_due_at', '<=', ms(now))
        .orderBy('notify_due_at')
        .orderBy('id')
        .limit(limit)
        .execute();
      const claimed: Checkout[] = [];
      for (const row of due) {
        // Compare-and-set on the due time just read: of several pollers (processes sharing one
        // PostgreSQL) that read the same row, exactly one UPDATE matches it.
        const result = await db
          .updateTable('checkouts')
          .set((eb) => ({
            notify_due_at: ms(leaseUntil),
            notify_attempts: eb('notify_attempts', '+', 1),
          }))
          .where('id', '=', row.id)
          .where('notified_at', 'is', null)
          .where('notify_due_at', '=', row.notify_due_at)
          .executeTakeFirst();
        if (result.numUpdatedRows > 0n) {
          claimed.push(
            toCheckout({
              ...row,
              notify_due_at: ms(leaseUntil),
              notify_attempts: int(row.notify_attempts) + 1,
            }),
          );
        }
      }
      return claimed;
    },

    async markCheckoutNotified(id, at) {
      await db
        .updateTable('checkouts')
        .set({ notified_at: ms(at), notify_due_at: null })
        .where('id', '=', id)
        .execute();
    },

    async cancelCheckoutNotification(id) {
      await db.updateTable('checkouts').set({ notify_due_at: null }).where('id', '=', id).execute();
    },

    // -- webhooks and their outbox

    async insertWebhook(w) {
      await db
        .insertInto('webhooks')
        .values({
          id: w.id,
          merchant_id: w.merchantId,
          url: w.url,
          secret: w.secret,
          encrypted: w.encrypted ? 1 : 0,
          types: JSON.stringify(w.types),
          payment_types: w.paymentTypes === undefined ? null : JSON.stringify(w.paymentTypes),
          created_at: ms(w.createdAt),
          deleted_at: msOrNull(w.deletedAt),
        })
        .execute();
    },

    async getWebhook(merchantId, id) {
      const row = await db
        .selectFrom('webhooks')
        .selectAll()
        .where('id', '=', id)
        .where('merchant_id', '=', merchantId)
        .executeTakeFirst();
      return row && rowToWebhook(row);
    },

    async listWebhooks(merchantId) {
      const rows = await db
        .selectFrom('webhooks')
        .selectAll()
        .where('merchant_id', '=', merchantId)
        .where('deleted_at', 'is', null)
        .orderBy('created_at')
        .orderBy('id')
        .execute();
      return rows.map(rowToWebhook);
    },

    async deleteWebhook(merchantId, id, at) {
      return db.transaction().execute(async (trx) => {
        const result = await trx
          .updateTable('webhooks')
          .set({ deleted_at: ms(at) })
          .where('id', '=', id)
          .where('merchant_id', '=', merchantId)
          .where('deleted_at', 'is', null)
          .executeTakeFirst();
        if (result.numUpdatedRows === 0n) return false;
        // Nowhere to send them any more; kept in the log, redeliverable if it comes back.
        await trx
          .updateTable('webhook_deliveries')
          .set({ status: 'dead', next_attempt_at: null, last_error: 'webhook deleted' })
          .where('webhook_id', '=', id)
          .where('status', '=', 'pending')
          .execute();
        return true;
      });
    },

    async claimDeliveries(now, leaseUntil, limit) {
      const due = await db
        .selectFrom('webhook_deliveries as d')
        .selectAll('d')
        .where('d.status', '=', 'pending')
        .where('d.next_attempt_at', '<=', ms(now))
        // in order: only the oldest pending delivery of its target and key may go
        .where(({ not, exists, selectFrom }) =>
          not(
            exists(
              selectFrom('webhook_deliveries as e')
                .select('e.seq')
                .where('e.status', '=', 'pending')
                .whereRef('e.target', '=', 'd.target')
                .whereRef('e.order_key', '=', 'd.order_key')
                .whereRef('e.seq', '<', 'd.seq'),
            ),
          ),
        )
        .orderBy('d.next_attempt_at')
        .orderBy('d.seq')
        .limit(limit)
        .execute();
      const claimed: Delivery[] = [];
      for (const row of due) {
        // Compare-and-set on the due time just read: exactly one of several dispatchers wins it.
        const result = await db
          .updateTable('webhook_deliveries')
          .set({ next_attempt_at: ms(leaseUntil), attempts: int(row.attempts) + 1, last_attempt_at: ms(now) })
          .where('seq', '=', row.seq)
          .where('status', '=', 'pending')
          .where('next_attempt_at', '=', row.next_attempt_at)
          .where('attempts', '=', row.attempts)
          .executeTakeFirst();
        if (result.numUpdatedRows > 0n)
          claimed.push(
            toDelivery({
              ...row,
              next_attempt_at: ms(leaseUntil),
              attempts: int(row.attempts) + 1,
              last_attempt_at: ms(now),
            }),
          );
      }
      return claimed;
    },

    async recordAttempt(claimed, result) {
      const outcome = result.delivered
        ? {
            status: 'delivered',
            next_attempt_at: null,
            delivered_at: ms(result.at),
            last_status: result.status,
            last_error: null,
          }
        : {
            status: result.retryAt === undefined ? 'dead' : 'pending',
            next_attempt_at: result.retryAt === undefined ? null : ms(result.retryAt),
            last_status: result.status ?? null,
            last_error: result.error.slice(0, 500),
          };
      const updated = await db
        .updateTable('webhook_deliveries')
        .set(outcome)
        .where('seq', '=', claimed.seq)
        .where('status', '=', 'pending')
        .where('attempts', '=', claimed.attempts)
        .executeTakeFirst();
      return updated.numUpdatedRows > 0n;
    },

    async getDelivery(merchantId, seq) {
      const row = await db
        .selectFrom('webhook_deliveries')
        .selectAll()
        .where('seq', '=', seq)
        .where('merchant_id', '=', merchantId)
        .executeTakeFirst();
      return row && toDelivery(row);
    },

    async listDeliveries(merchantId, filter) {
      let query = db.selectFrom('webhook_deliveries').selectAll().where('merchant_id', '=', merchantId);
      if (filter.webhookId !== undefined) query = query.where('webhook_id', '=', filter.webhookId);
      if (filter.status !== undefined) query = query.where('status', '=', filter.status);
      if (filter.beforeSeq !== undefined) query = query.where('seq', '<', filter.beforeSeq);
      const rows = await query.orderBy('seq', 'desc').limit(filter.limit).execute();
      return rows.map(toDelivery);
    },

    async redeliver(merchantId, seq, now) {
      const result = await db
        .updateTable('webhook_deliveries')
        .set({ status: 'pending', attempts: 0, next_attempt_at: ms(now), retry_from: ms(now) })
        .where('seq', '=', seq)
        .where('merchant_id', '=', merchantId)
        .where('status', '=', 'dead')
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },

    async insertMerchant(m) {
      await db
        .insertInto('merchants')
        .values({ id: m.id, name: m.name, dispatching: m.dispatching ? 1 : 0, created_at: ms(m.createdAt) })
        .execute();
    },

    async setMerchantDispatching(id, on) {
      const result = await db
        .updateTable('merchants')
        .set({ dispatching: on ? 1 : 0 })
        .where('id', '=', id)
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },

    async getMerchant(id) {
      const row = await db.selectFrom('merchants').selectAll().where('id', '=', id).executeTakeFirst();
      return row && rowToMerchant(row);
    },

    async listMerchants() {
      const rows = await db.selectFrom('merchants').selectAll().orderBy('created_at').orderBy('id').execute();
      return rows.map(rowToMerchant);
    },

    async insertChannel(c) {
      await db
        .insertInto('channels')
        .values({
          id: c.id,
          merchant_id: c.merchantId,
          name: c.name,
          mode: c.mode,
          settings: JSON.stringify(sealer.seal(c.settings)),
          created_at: ms(c.createdAt),
        })
        .execute();
    },

    async getChannel(id) {
      const row = await db.selectFrom('channels').selectAll().where('id', '=', id).executeTakeFirst();
      return row && rowToChannel(row, sealer);
    },

    async listChannels(merchantId) {
      const rows = await db
        .selectFrom('channels')
        .selectAll()
        .where('merchant_id', '=', merchantId)
        .orderBy('created_at')
        .orderBy('id')
        .execute();
      return rows.map((r) => rowToChannel(r, sealer));
    },

    async updateChannelSettings(id, settings) {
      await db
        .updateTable('channels')
        .set({ settings: JSON.stringify(sealer.seal(settings)) })
        .where('id', '=', id)
        .execute();
    },

    async insertToken(t) {
      await db
        .insertInto('access_tokens')
        .values({
          id: t.id,
          merchant_id: t.merchantId,
          user_id: t.userId,
          secret_hash: t.secretHash,
          channel_ids: JSON.stringify(t.channelIds),
          environment: t.environment ?? 'test',
          revoked_at: t.revokedAt === null ? null : ms(t.revokedAt),
          created_at: ms(t.createdAt),
        })
        .execute();
    },

    async getTokenByUserId(userId) {
      const row = await db
        .selectFrom('access_tokens')
        .selectAll()
        .where('user_id', '=', userId)
        .executeTakeFirst();
      return row && rowToToken(row);
    },

    async listTokens(merchantId) {
      const rows = await db
        .selectFrom('access_tokens')
        .selectAll()
        .where('merchant_id', '=', merchantId)
        .orderBy('created_at')
        .orderBy('id')
        .execute();
      return rows.map(rowToToken);
    },

    async revokeToken(id, at) {
      const result = await db
        .updateTable('access_tokens')
        .set({ revoked_at: ms(at) })
        .where('id', '=', id)
        .where('revoked_at', 'is', null)
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },

    async rememberResponse(r, replaceBefore) {
      // Insert, or replace an expired row or the claim the request's payment (schedule) left
      // (its response now follows it), or keep a live one: one statement (atomic in both
      // databases); then read whichever won.
      const fresh = {
        request_hash: r.requestHash,
        status: r.status,
        body: r.body,
        created_at: ms(r.createdAt),
        payment_id: r.paymentId ?? null,
        schedule_id: r.scheduleId ?? null,
      };
      const made = r.paymentId ?? r.scheduleId;
      await db
        .insertInto('idempotent_responses')
        .values({ merchant_id: r.merchantId, key: r.key, ...fresh })
        .onConflict((oc) =>
          oc
            .columns(['merchant_id', 'key'])
            .doUpdateSet(fresh)
            .where((eb) =>
              eb.or([
                eb('idempotent_responses.created_at', '<', ms(replaceBefore)),
                ...(made === undefined
                  ? []
                  : [
                      eb.and([
                        eb('idempotent_responses.status', '=', IDEMPOTENCY_CLAIMED),
                        eb(
                          r.paymentId === undefined
                            ? 'idempotent_responses.schedule_id'
                            : 'idempotent_responses.payment_id',
                          '=',
                          made,
                        ),
                      ]),
                    ]),
              ]),
            ),
        )
        .execute();
      const row = await db
        .selectFrom('idempotent_responses')
        .selectAll()
        .where('merchant_id', '=', r.merchantId)
        .where('key', '=', r.key)
        .executeTakeFirstOrThrow();
      return rowToResponse(row);
    },

    async getResponse(merchantId, key, notBefore) {
      const row = await db
        .selectFrom('idempotent_responses')
        .selectAll()
        .where('merchant_id', '=', merchantId)
        .where('key', '=', key)
        .where('created_at', '>=', ms(notBefore))
        .executeTakeFirst();
      return row && rowToResponse(row);
    },

    close() {
      closing ??= (async () => {
        await payments.drained();
        await db.destroy();
      })();
      return closing;
    },
  };
}
