/**
 * Chargebacks, booked from the acquirer's side against a DB, CP or RB (CB), and reversed (CR):
 * the engine's operation (shared/engine/operations/chargebacks.ts) with the back office's input
 * check and audit entry (`payment.CB`, `payment.CR`, on the booked transaction). Its outcome is
 * the engine's: each face answers it its way (the admin API as the family, the CLI printed).
 */
import type { z } from 'zod';
import { chargebackInput } from '../../../shared/contract/admin-inputs';
import {
  bookChargeback,
  type ChargebackOutcome,
  reverseChargeback,
} from '../../../shared/engine/operations/chargebacks';
import type { BackofficeContext } from '../context';
import { parsed } from '../errors';

export { chargebackInput };
export type ChargebackInput = z.infer<typeof chargebackInput>;
export const parseChargeback = (input: unknown): ChargebackInput => parsed(chargebackInput, input);

/** What the engine's operation needs (the same store and clock as the back office's). */
type EngineDeps = Parameters<typeof bookChargeback>[0];
export type ChargebackContext = BackofficeContext & { readonly engine: EngineDeps };

async function audited(ctx: ChargebackContext, outcome: ChargebackOutcome): Promise<ChargebackOutcome> {
  if (outcome.kind === 'booked')
    await ctx.audit(`payment.${outcome.payment.paymentType}`, outcome.payment.id, outcome.payment.merchantId);
  return outcome;
}

export async function bookChargebackOn(
  ctx: ChargebackContext,
  merchantId: string,
  paymentId: string,
  input: ChargebackInput,
): Promise<ChargebackOutcome> {
  const terms = {
    ...(input.amount === undefined ? {} : { amount: input.amount }),
    ...(input.chargebackResultCode === undefined ? {} : { chargebackResultCode: input.chargebackResultCode }),
  };
  return audited(ctx, await bookChargeback(ctx.engine, merchantId, paymentId, terms));
}

export async function reverseChargebackOn(
  ctx: ChargebackContext,
  merchantId: string,
  chargebackId: string,
): Promise<ChargebackOutcome> {
  return audited(ctx, await reverseChargeback(ctx.engine, merchantId, chargebackId));
}
