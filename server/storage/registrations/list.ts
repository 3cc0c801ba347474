/**
 * A merchant's registrations for the dashboard, newest first, in keyset pages over the
 * `registrations_merchant_created` index (0019: merchant_id, created_at, id): the range starts at
 * the cursor, so no page sorts or skips rows however deep it is. Deleted ones are listed too (the
 * dashboard says so); only those of the channels given (an environment's).
 */
import { sql } from 'kysely';
import type { Registration } from '../../../shared/engine/core/model';
import { CONNECTOR_REGISTRATION_ID } from '../../../shared/engine/core/processor';
import type { StoreContext } from '../core/context';
import { parseObject } from '../core/rows';
import { rowToRegistration } from './rows';

export interface RegistrationListQuery {
  readonly merchantId: string;
  readonly channelIds: readonly string[];
  readonly limit: number;
  /** Strictly older than this position (the previous page's last row). */
  readonly before?: { readonly at: number; readonly id: string };
}

export interface RegistrationListStore {
  listRegistrationsPage(query: RegistrationListQuery): Promise<Registration[]>;
  /**
   * A registration moved to another of its channel's routes (server/backoffice/registrations/move.ts):
   * its connector id (details.connectorRegistrationId, never answered) set to `to`, only while it
   * is active and still `from` (a compare-and-set: false, nothing changed, when it changed meanwhile).
   */
  retagRegistration(merchantId: string, id: string, from: string, to: string): Promise<boolean>;
}

export function registrationListStore({ db, sealer }: StoreContext): RegistrationListStore {
  return {
    async listRegistrationsPage(q) {
      if (q.channelIds.length === 0) return [];
      let query = db
        .selectFrom('registrations')
        .selectAll()
        .where('merchant_id', '=', q.merchantId)
        .where('channel_id', 'in', [...q.channelIds]);
      if (q.before !== undefined)
        query = query.where(sql<boolean>`(created_at, id) < (${q.before.at}, ${q.before.id})`);
      const rows = await query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(q.limit).execute();
      return rows.map((r) => rowToRegistration(r, sealer));
    },

    async retagRegistration(merchantId, id, from, to) {
      return db.transaction().execute(async (trx) => {
        const row = await trx
          .selectFrom('registrations')
          .select(['details'])
          .where('id', '=', id)
          .where('merchant_id', '=', merchantId)
          .where('deleted_at', 'is', null)
          .executeTakeFirst();
        if (row === undefined) return false;
        const details = sealer.open(parseObject(row.details));
        if (details[CONNECTOR_REGISTRATION_ID] !== from) return false;
        const moved = JSON.stringify(sealer.seal({ ...details, [CONNECTOR_REGISTRATION_ID]: to }));
        const done = await trx
          .updateTable('registrations')
          .set({ details: moved })
          .where('id', '=', id)
          .where('details', '=', row.details)
          .executeTakeFirst();
        return Number(done.numUpdatedRows) === 1;
      });
    },
  };
}
