/**
 * Merchants: created, their channel dispatching switched, read and listed; one view for every
 * face (the admin API, the CLI's --json, the dashboard).
 */
import type { z } from 'zod';
import { merchantUpdateInput, newMerchantInput } from '../../../shared/contract/admin-inputs';
import { newId } from '../../../shared/engine/core/ids';
import type { Merchant } from '../../../shared/engine/core/model';
import type { MerchantDirectory } from '../../../shared/engine/core/ports';
import type { BackofficeContext } from '../context';
import { notFound, parsed } from '../errors';
import { ID } from '../names';

export interface MerchantView {
  readonly id: string;
  readonly name: string;
  /** Channel dispatching: entityId may be the merchant's id. */
  readonly dispatching: boolean;
  readonly createdAt: string;
}

export const merchantView = (m: Merchant): MerchantView => ({
  id: m.id,
  name: m.name,
  dispatching: m.dispatching === true,
  createdAt: m.createdAt.toISOString(),
});

export { merchantUpdateInput, newMerchantInput };
export type NewMerchant = z.infer<typeof newMerchantInput>;
export const parseNewMerchant = (input: unknown): NewMerchant => parsed(newMerchantInput, input);

export type MerchantUpdate = z.infer<typeof merchantUpdateInput>;
export const parseMerchantUpdate = (input: unknown): MerchantUpdate => parsed(merchantUpdateInput, input);

/** The merchant an id names, or `not-found`. */
export async function requireMerchant(
  store: Pick<MerchantDirectory, 'getMerchant'>,
  merchantId: string,
): Promise<Merchant> {
  const merchant = ID.test(merchantId) ? await store.getMerchant(merchantId) : undefined;
  if (merchant === undefined) throw notFound('merchant', merchantId);
  return merchant;
}

export async function createMerchant(ctx: BackofficeContext, input: NewMerchant): Promise<Merchant> {
  const merchant: Merchant = { id: newId(), name: input.name, createdAt: ctx.clock.now() };
  await ctx.store.insertMerchant(merchant);
  await ctx.audit('merchant.create', merchant.id, merchant.id);
  return merchant;
}

/** Changes only what is given; the rest keeps its value. */
export async function updateMerchant(
  ctx: BackofficeContext,
  merchantId: string,
  input: MerchantUpdate,
): Promise<Merchant> {
  const merchant = await requireMerchant(ctx.store, merchantId);
  if (input.dispatching !== undefined) await ctx.store.setMerchantDispatching(merchant.id, input.dispatching);
  await ctx.audit('merchant.update', merchant.id, merchant.id);
  return (await ctx.store.getMerchant(merchant.id)) ?? merchant;
}

/** Every merchant, or the one a merchant's user belongs to. */
export async function listMerchants(
  store: Pick<MerchantDirectory, 'listMerchants' | 'getMerchant'>,
  own: string | null = null,
): Promise<Merchant[]> {
  if (own === null) return store.listMerchants();
  const merchant = await store.getMerchant(own);
  return merchant === undefined ? [] : [merchant];
}
