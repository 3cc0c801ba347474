/**
 * The recent API requests of each merchant (the dashboard's "Recent API requests"): what the
 * access log says of a request (method, route pattern, status, result code, duration, request
 * id), never its body, parameters, credentials or card data. The table, and migration 0019.
 */
import type { Generated, Kysely, Selectable } from 'kysely';
import { createIndex, createTable, type EpochMs } from '../core/columns';

export interface ApiRequestsTable {
  /** Ascending: the order the recorder wrote them in. */
  seq: Generated<number>;
  merchant_id: string;
  method: string;
  /** The route pattern that answered (`/v1/payments/:id`), never the raw path with its ids. */
  route: string;
  status: number;
  result_code: string | null;
  /** Tenths of a millisecond: an integer, as every stored number here is. */
  duration_tenths: number;
  request_id: string;
  at: EpochMs;
}

export type ApiRequestRow = Selectable<ApiRequestsTable>;

/**
 * 0019: api_requests, read newest first per merchant (`api_requests_merchant`: merchant_id, seq).
 * The same migration adds the two indexes the dashboard's records need and the tables lacked:
 * a merchant's registrations newest first (`registrations_merchant_created`), and a merchant by
 * name for the operator's search (`merchants_name`); without them both would scan their table.
 */
export async function apiRequestsMigration(db: Kysely<unknown>): Promise<void> {
  await createTable(db, 'api_requests', {
    seq: 'ascending key',
    merchant_id: 'text not null',
    method: 'text not null',
    route: 'text not null',
    status: 'integer not null',
    result_code: 'text',
    duration_tenths: 'integer not null',
    request_id: 'text not null',
    at: 'bigint not null',
  }).execute();
  await createIndex(db, 'api_requests_merchant', 'api_requests', ['merchant_id', 'seq']).execute();
  await createIndex(db, 'registrations_merchant_created', 'registrations', [
    'merchant_id',
    'created_at',
    'id',
  ]).execute();
  await createIndex(db, 'merchants_name', 'merchants', ['name']).execute();
}
