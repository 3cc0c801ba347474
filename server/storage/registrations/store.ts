/** The RegistrationStore port: stored payment details, each change told through the outbox; the Query API's search of them. */
import type { RegistrationStore } from '../../../shared/engine/core/ports';
import type { StoreContext } from '../core/context';
import { ms } from '../core/rows';
import { writeOutbox } from '../webhooks/outbox';
import { registrationToRow, rowToRegistration } from './rows';
import type { RegistrationRow } from './tables';

export function registrationStore({ db, sealer }: StoreContext): RegistrationStore {
  const toRegistration = (r: RegistrationRow) => rowToRegistration(r, sealer);
  return {
    async insertRegistration(r, changes = []) {
      await db.transaction().execute(async (trx) => {
        await trx.insertInto('registrations').values(registrationToRow(r, sealer)).execute();
        await writeOutbox(trx, changes, sealer);
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

    async deleteRegistration(merchantId, id, at, tell) {
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
        if (tell !== undefined) await writeOutbox(trx, tell(toRegistration(row)), sealer);
        return true;
      });
    },

    // The Query API's search: by merchantTransactionId over registrations_merchant_transaction
    // (0021), by a time frame over registrations_merchant_created (0019); deregistered ones too,
    // their registration having happened.
    async queryRegistrations(q) {
      if (q.channelIds?.length === 0 || q.paymentBrands?.length === 0) return [];
      let query = db.selectFrom('registrations').selectAll().where('merchant_id', '=', q.merchantId);
      if (q.channelIds !== undefined) query = query.where('channel_id', 'in', [...q.channelIds]);
      if (q.merchantTransactionId !== undefined)
        query = query.where('merchant_transaction_id', '=', q.merchantTransactionId);
      if (q.from !== undefined) query = query.where('created_at', '>=', ms(q.from));
      if (q.until !== undefined) query = query.where('created_at', '<', ms(q.until));
      if (q.paymentBrands !== undefined) query = query.where('payment_brand', 'in', [...q.paymentBrands]);
      const rows = await query.orderBy('created_at').orderBy('id').limit(q.limit).execute();
      return rows.map(toRegistration);
    },
  };
}
