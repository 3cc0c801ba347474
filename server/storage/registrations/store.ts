/** The RegistrationStore port: stored payment details, each change told through the outbox. */
import { registrationChange } from '../../../shared/engine/answers/notifications';
import type { RegistrationStore } from '../../../shared/engine/core/ports';
import type { StoreContext } from '../core/context';
import { ms } from '../core/rows';
import { writeOutbox } from '../webhooks/outbox';
import { registrationToRow, rowToRegistration } from './rows';
import type { RegistrationRow } from './tables';

export function registrationStore({ db, sealer }: StoreContext): RegistrationStore {
  const toRegistration = (r: RegistrationRow) => rowToRegistration(r, sealer);
  return {
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
  };
}
