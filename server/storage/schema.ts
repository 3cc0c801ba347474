/**
 * Table types for Kysely: the rows as both SQLite and PostgreSQL store them.
 *
 * Dates are BIGINT epoch milliseconds in both databases (`EpochMs`). SQLite has no date type
 * (ISO text would sort and compare as text), PostgreSQL's timestamptz has microsecond precision
 * and comes back as a Date only through the driver: one migration set and one query layer need
 * one representation that compares, indexes and round-trips identically in both. An integer
 * does: exact to the millisecond (like a JS Date), range comparisons are plain integer
 * comparisons, and no time zone or driver parsing is involved. PostgreSQL's int8 comes back as a
 * string from `pg` by default; `open.ts` gives the pool a parser that turns it into a number.
 *
 * Amounts are BIGINT minor units (safe integers in JS), JSON values are TEXT.
 */
import type { Generated, Insertable, Selectable } from 'kysely';
import type { RiskEventsTable } from './risk';
import type { ScheduleRunsTable, SchedulesTable } from './schedules';
import type { SettlementRecordsTable, SettlementRunsTable, SettlementsTable } from './settlements';

/** Milliseconds since the epoch (BIGINT). */
export type EpochMs = number;
/** A JSON document (TEXT). */
export type JsonText = string;

export interface MerchantsTable {
  id: string;
  name: string;
  /** Channel dispatching: 0 or 1 (0010_environments). */
  dispatching: Generated<number>;
  created_at: EpochMs;
}

export interface ChannelsTable {
  id: string;
  merchant_id: string;
  name: string;
  mode: string;
  /** ChannelSettings as JSON. */
  settings: JsonText;
  created_at: EpochMs;
}

export interface AccessTokensTable {
  id: string;
  merchant_id: string;
  user_id: string;
  secret_hash: string;
  /** string[] as JSON. */
  channel_ids: JsonText;
  /** `test` or `live` (0010_environments). */
  environment: Generated<string>;
  revoked_at: EpochMs | null;
  created_at: EpochMs;
}

export interface PaymentsTable {
  id: string;
  merchant_id: string;
  channel_id: string;
  payment_type: string;
  payment_brand: string | null;
  /** Minor units; null for requests without an amount. */
  amount: number | null;
  currency: string | null;
  result_code: string;
  result_description: string;
  referenced_id: string | null;
  registration_id: string | null;
  merchant_transaction_id: string | null;
  short_id: string;
  descriptor: string | null;
  ndc: string;
  test_mode: string | null;
  /** StoredCard as JSON (the number only encrypted). */
  card: JsonText | null;
  /** The answer's other fields as JSON, account numbers sealed (server/security/account-data.ts). */
  details: JsonText;
  created_at: EpochMs;
  /** The checkout whose submission made the payment (0004). */
  checkout_id?: string | null;
}

export interface RegistrationsTable {
  id: string;
  merchant_id: string;
  channel_id: string;
  payment_brand: string;
  card: JsonText | null;
  details: JsonText;
  initial_transaction_id: string | null;
  agreement_id: string | null;
  deleted_at: EpochMs | null;
  created_at: EpochMs;
}

export interface CheckoutsTable {
  id: string;
  merchant_id: string;
  channel_id: string;
  /** CheckoutKind: 'payment' or 'registration'. */
  kind: string;
  /** The validated creation parameters as JSON (no credentials, no instrument; account numbers sealed). */
  parameters: JsonText;
  /** Minor units. */
  amount: number;
  currency: string;
  shopper_result_url: string | null;
  created_at: EpochMs;
  expires_at: EpochMs;
  payment_id: string | null;
  registration_id: string | null;
  result_code: string | null;
  submitted_at: EpochMs | null;
  completed_at: EpochMs | null;
  status_fetched_at: EpochMs | null;
  notify_due_at: EpochMs | null;
  notify_attempts: Generated<number>;
  notified_at: EpochMs | null;
}

export interface PaymentSessionsTable {
  id: string;
  payment_id: string;
  merchant_id: string;
  /** PaymentSessionKind: challenge, decoupled or redirect. */
  kind: string;
  checkout_id: string | null;
  return_url: string | null;
  /** PendingPlan as JSON (never card data). */
  plan: JsonText;
  created_at: EpochMs;
  expires_at: EpochMs;
  due_at: EpochMs | null;
  finished_at: EpochMs | null;
  /** SessionOutcome once finished. */
  outcome: string | null;
}

export interface IdempotentResponsesTable {
  merchant_id: string;
  key: string;
  request_hash: string;
  /** 0 (CLAIMED): the key is taken by payment_id, the response is not stored yet. */
  status: number;
  /** The response sealed by the vault (plain JSON in rows written before 0008); '' while claimed. */
  body: string;
  created_at: EpochMs;
  /** The payment that took the key, written in its transaction (0008). */
  payment_id: string | null;
  /** The schedule that took the key, written in its transaction (0008). */
  schedule_id: string | null;
}

/** A merchant's webhook (0004): where notifications go, and how. */
export interface WebhooksTable {
  id: string;
  merchant_id: string;
  url: string;
  /** The 64-hex key, sealed by the vault (it must be read back to encrypt with it). */
  secret: string;
  /** 1: AES-256-GCM (the default); 0: plain JSON. */
  encrypted: number;
  /** NotificationType[] as JSON. */
  types: JsonText;
  /** string[] as JSON, or null for every payment type. */
  payment_types: JsonText | null;
  created_at: EpochMs;
  deleted_at: EpochMs | null;
}

/**
 * The transactional outbox (0004): one row per notification and target, written in the
 * transaction of the change it tells; the dispatcher's delivery state lives on the same row.
 */
export interface WebhookDeliveriesTable {
  /** Ascending in the order the changes were committed (for changes that depend on each other). */
  seq: Generated<number>;
  merchant_id: string;
  /** The webhook, or null for a notificationUrl callback. */
  webhook_id: string | null;
  /** The GET of a notificationUrl callback (null for webhooks). */
  callback_url: string | null;
  /** Webhook id, or `callback`: deliveries are ordered per target and order_key. */
  target: string;
  order_key: string;
  type: string;
  action: string | null;
  /** The notification's payload as JSON, account numbers sealed (the store opens them for the dispatcher). */
  payload: JsonText;
  /** pending, delivered or dead. */
  status: string;
  attempts: number;
  /** Due time while pending (a claim moves it to the end of its lease); null otherwise. */
  next_attempt_at: EpochMs | null;
  created_at: EpochMs;
  /** Start of the retry schedule: created_at, or the last redelivery. */
  retry_from: EpochMs;
  last_attempt_at: EpochMs | null;
  /** HTTP status of the last attempt, when one came back. */
  last_status: number | null;
  last_error: string | null;
  delivered_at: EpochMs | null;
}

export interface Database {
  merchants: MerchantsTable;
  channels: ChannelsTable;
  access_tokens: AccessTokensTable;
  payments: PaymentsTable;
  registrations: RegistrationsTable;
  checkouts: CheckoutsTable;
  payment_sessions: PaymentSessionsTable;
  idempotent_responses: IdempotentResponsesTable;
  webhooks: WebhooksTable;
  webhook_deliveries: WebhookDeliveriesTable;
  settlement_runs: SettlementRunsTable;
  settlements: SettlementsTable;
  settlement_records: SettlementRecordsTable;
  schedules: SchedulesTable;
  schedule_runs: ScheduleRunsTable;
  risk_events: RiskEventsTable;
}

export type MerchantRow = Selectable<MerchantsTable>;
export type ChannelRow = Selectable<ChannelsTable>;
export type AccessTokenRow = Selectable<AccessTokensTable>;
export type PaymentRow = Selectable<PaymentsTable>;
export type NewPaymentRow = Insertable<PaymentsTable>;
export type NewIdempotentResponseRow = Insertable<IdempotentResponsesTable>;
export type RegistrationRow = Selectable<RegistrationsTable>;
export type CheckoutRow = Selectable<CheckoutsTable>;
export type PaymentSessionRow = Selectable<PaymentSessionsTable>;
export type IdempotentResponseRow = Selectable<IdempotentResponsesTable>;
export type WebhookRow = Selectable<WebhooksTable>;
export type WebhookDeliveryRow = Selectable<WebhookDeliveriesTable>;
export type NewWebhookDeliveryRow = Insertable<WebhookDeliveriesTable>;
