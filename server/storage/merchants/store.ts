/** The MerchantDirectory, ChannelStore and TokenStore ports: who may call, on which channels. */
import type {
  AccessToken,
  Channel,
  ChannelMode,
  ChannelSettings,
  Merchant,
} from '../../../shared/engine/core/model';
import type { ChannelStore, MerchantDirectory, TokenStore } from '../../../shared/engine/core/ports';
import type { AccountSealer } from '../../../shared/sealing/account-data';
import type { StoreContext } from '../core/context';
import { date, dateOrNull, ms } from '../core/rows';
import type { AccessTokenRow, ChannelRow, MerchantRow } from './tables';

export const rowToMerchant = (r: MerchantRow): Merchant => ({
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

export function merchantDirectory({ db }: StoreContext): MerchantDirectory {
  return {
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
  };
}

export function channelStore({ db, sealer }: StoreContext): ChannelStore {
  return {
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
  };
}

export function tokenStore({ db }: StoreContext): TokenStore {
  return {
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
  };
}
