/**
 * The operator's search (server/backoffice/search/): one typed text looked up where it could be,
 * each an index lookup, never a scan: a payment by id (primary key) or by merchantTransactionId
 * (`payments_merchant_transaction`, 0015: merchant_id first, so the merchants searched are named),
 * a registration or a checkout by id (primary keys), a merchant by id (primary key) or by the
 * start of its name (`merchants_name`, 0019: a range of the index).
 */
import type { Checkout, Merchant, Payment, Registration } from '../../../shared/engine/core/model';
import { rowToCheckout } from '../checkouts/store';
import type { StoreContext } from '../core/context';
import { rowToMerchant } from '../merchants/store';
import { rowToPayment } from '../payments/rows';
import { rowToRegistration } from '../registrations/rows';

/** At most this many of each kind found. */
export const SEARCH_FOUND = 20;

export interface RecordSearchStore {
  /** Payments with this id or merchantTransactionId, of these merchants. */
  findPayments(text: string, merchantIds: readonly string[]): Promise<Payment[]>;
  findRegistration(id: string): Promise<Registration | undefined>;
  findCheckout(id: string): Promise<Checkout | undefined>;
  /** Merchants with this id, or whose name starts with the text (case as typed). */
  findMerchants(text: string): Promise<Merchant[]>;
}

export function recordSearchStore({ db, sealer }: StoreContext): RecordSearchStore {
  return {
    async findPayments(text, merchantIds) {
      if (merchantIds.length === 0) return [];
      const [byId, byOrder] = await Promise.all([
        db
          .selectFrom('payments')
          .selectAll()
          .where('id', '=', text)
          .where('merchant_id', 'in', [...merchantIds])
          .execute(),
        db
          .selectFrom('payments')
          .selectAll()
          .where('merchant_id', 'in', [...merchantIds])
          .where('merchant_transaction_id', '=', text)
          .orderBy('created_at', 'desc')
          .limit(SEARCH_FOUND)
          .execute(),
      ]);
      return [...byId, ...byOrder].map((r) => rowToPayment(r, sealer));
    },

    async findRegistration(id) {
      const row = await db.selectFrom('registrations').selectAll().where('id', '=', id).executeTakeFirst();
      return row && rowToRegistration(row, sealer);
    },

    async findCheckout(id) {
      const row = await db.selectFrom('checkouts').selectAll().where('id', '=', id).executeTakeFirst();
      return row && rowToCheckout(row, sealer);
    },

    async findMerchants(text) {
      const rows = await db
        .selectFrom('merchants')
        .selectAll()
        .where((eb) =>
          eb.or([
            eb('id', '=', text),
            // a prefix as a range of the index: [text, text + the last code point)
            eb.and([eb('name', '>=', text), eb('name', '<', `${text}\u{10ffff}`)]),
          ]),
        )
        .orderBy('name')
        .limit(SEARCH_FOUND)
        .execute();
      return rows.map(rowToMerchant);
    },
  };
}
