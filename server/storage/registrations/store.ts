/** The RegistrationStore port: stored payment details, each change told through the outbox. */
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
  };
}
