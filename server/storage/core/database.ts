/**
 * The database as Kysely sees it: every aggregate's tables, as both SQLite and PostgreSQL store
 * them. Each aggregate keeps its table types and their migrations in its own `tables.ts`; this
 * file only names them together.
 *
 * Dates are BIGINT epoch milliseconds in both databases (`EpochMs`, core/columns.ts). SQLite has
 * no date type (ISO text would sort and compare as text), PostgreSQL's timestamptz has
 * microsecond precision and comes back as a Date only through the driver: one migration set and
 * one query layer need one representation that compares, indexes and round-trips identically in
 * both. An integer does: exact to the millisecond (like a JS Date), range comparisons are plain
 * integer comparisons, and no time zone or driver parsing is involved. PostgreSQL's int8 comes
 * back as a string from `pg` by default; `open.ts` gives the pool a parser that turns it into a
 * number.
 *
 * Amounts are BIGINT minor units (safe integers in JS), JSON values are TEXT.
 */
import type { AcquirerRecordsTable } from '../acquirer-records/tables';
import type { AdminAuditTable, AdminSessionsTable, AdminUsersTable } from '../admin-users/tables';
import type { ApiRequestsTable } from '../api-requests/tables';
import type { CheckoutsTable } from '../checkouts/tables';
import type { ConnectorAttemptsTable } from '../connector-attempts/tables';
import type { IdempotentResponsesTable } from '../idempotency/tables';
import type { WebhookInboxTable } from '../inbox/tables';
import type { AccessTokensTable, ChannelsTable, MerchantsTable } from '../merchants/tables';
import type { PaymentsTable } from '../payments/tables';
import type { ProcessorEventsTable } from '../processor-events/tables';
import type { RegistrationsTable } from '../registrations/tables';
import type { RiskEventsTable } from '../risk/tables';
import type { ScheduleRunsTable, SchedulesTable } from '../schedules/tables';
import type { PaymentSessionsTable } from '../sessions/tables';
import type { SettlementRecordsTable, SettlementRunsTable, SettlementsTable } from '../settlements/tables';
import type { WebhookDeliveriesTable, WebhooksTable } from '../webhooks/tables';

export type { EpochMs, JsonText } from './columns';

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
  acquirer_records: AcquirerRecordsTable;
  webhook_inbox: WebhookInboxTable;
  admin_users: AdminUsersTable;
  admin_sessions: AdminSessionsTable;
  admin_audit: AdminAuditTable;
  processor_events: ProcessorEventsTable;
  connector_attempts: ConnectorAttemptsTable;
  api_requests: ApiRequestsTable;
}
