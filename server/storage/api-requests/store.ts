/**
 * The recent API requests: written in batches by the recorder (server/backoffice/requests/),
 * each merchant's kept to the newest RETAINED (older ones deleted in the batch's transaction,
 * one index range per merchant), read newest first.
 */
import type { StoreContext } from '../core/context';
import { date, int } from '../core/rows';
import type { ApiRequestRow } from './tables';

/** What is kept of one request. */
export interface ApiRequestRecord {
  readonly merchantId: string;
  readonly method: string;
  readonly route: string;
  readonly status: number;
  readonly resultCode: string | null;
  readonly durationMs: number;
  readonly requestId: string;
  readonly at: Date;
}

/** Each merchant's newest requests kept; older ones are deleted as new ones are written. */
export const RETAINED_API_REQUESTS = 500;

export interface ApiRequestStore {
  insertApiRequests(records: readonly ApiRequestRecord[]): Promise<void>;
  /** The merchant's newest requests, newest first. */
  listApiRequests(merchantId: string, limit: number): Promise<ApiRequestRecord[]>;
}

const toRecord = (r: ApiRequestRow): ApiRequestRecord => ({
  merchantId: r.merchant_id,
  method: r.method,
  route: r.route,
  status: int(r.status),
  resultCode: r.result_code,
  durationMs: int(r.duration_tenths) / 10,
  requestId: r.request_id,
  at: date(r.at),
});

export function apiRequestStore({ db }: StoreContext): ApiRequestStore {
  return {
    async insertApiRequests(records) {
      if (records.length === 0) return;
      await db.transaction().execute(async (trx) => {
        await trx
          .insertInto('api_requests')
          .values(
            records.map((r) => ({
              merchant_id: r.merchantId,
              method: r.method,
              route: r.route,
              status: r.status,
              result_code: r.resultCode,
              duration_tenths: Math.round(r.durationMs * 10),
              request_id: r.requestId,
              at: r.at.getTime(),
            })),
          )
          .execute();
        for (const merchantId of new Set(records.map((r) => r.merchantId))) {
          // the oldest row kept; everything of the merchant before it goes
          const oldestKept = await trx
            .selectFrom('api_requests')
            .select('seq')
            .where('merchant_id', '=', merchantId)
            .orderBy('seq', 'desc')
            .offset(RETAINED_API_REQUESTS - 1)
            .limit(1)
            .executeTakeFirst();
          if (oldestKept !== undefined)
            await trx
              .deleteFrom('api_requests')
              .where('merchant_id', '=', merchantId)
              .where('seq', '<', oldestKept.seq)
              .execute();
        }
      });
    },

    async listApiRequests(merchantId, limit) {
      const rows = await db
        .selectFrom('api_requests')
        .selectAll()
        .where('merchant_id', '=', merchantId)
        .orderBy('seq', 'desc')
        .limit(limit)
        .execute();
      return rows.map(toRecord);
    },
  };
}
