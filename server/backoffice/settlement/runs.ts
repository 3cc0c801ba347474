/**
 * A settlement run by hand: a past UTC day settled now (the settlement worker does it after the
 * day's cut-off), for every merchant or one, through the reporting module's `settleDay`; never
 * twice (a settled day answers `already-settled`). Audited as `settlement.run` on the day.
 */
import { z } from 'zod';
import { settleDay } from '../../reporting/settlement-run';
import type { GatewayStore } from '../../storage';
import type { BackofficeContext } from '../context';
import { parsed, refused } from '../errors';
import { requireMerchant } from '../merchants/merchants';
import { ID } from '../names';

export type SettlementContext = BackofficeContext<GatewayStore> & {
  /** The gateway's data folder: the reconciliation files go under it. */
  readonly dataDir: string;
};

const DAY = /^[0-9]{4}-[0-9]{2}-[0-9]{2}$/;

export const settlementRunInput = z.object({
  date: z
    .string({ error: 'is required: a day as yyyy-MM-dd' })
    .refine((d) => DAY.test(d) && !Number.isNaN(Date.parse(`${d}T00:00:00Z`)), {
      error: 'must be a day as yyyy-MM-dd',
    }),
  merchantId: z
    .string({ error: 'must be a merchant id' })
    .regex(ID, { error: 'must be a merchant id' })
    .optional(),
});
export type SettlementRunInput = z.infer<typeof settlementRunInput>;
export const parseSettlementRun = (input: unknown): SettlementRunInput => parsed(settlementRunInput, input);

/** One merchant account's day as every face shows it. */
export interface SettledAccountView {
  readonly merchantId: string;
  readonly entityId: string;
  readonly date: string;
  readonly status: 'settled' | 'already-settled';
  /** Settlements of the day (one per settlement currency). */
  readonly settlements: number;
  /** The reconciliation file, when the day had records. */
  readonly file: string | null;
}

/** Settles the day (a day not over yet is `refused`, naming `date`); each account's outcome. */
export async function runSettlement(
  ctx: SettlementContext,
  input: SettlementRunInput,
): Promise<SettledAccountView[]> {
  if (input.merchantId !== undefined) await requireMerchant(ctx.store, input.merchantId);
  let accounts: Awaited<ReturnType<typeof settleDay>>;
  try {
    accounts = await settleDay(
      { store: ctx.store, clock: ctx.clock, dataDir: ctx.dataDir },
      input.date,
      input.merchantId === undefined ? {} : { merchantId: input.merchantId },
    );
  } catch (error) {
    // settleDay's word for a day that is not over yet (UTC)
    if (error instanceof RangeError)
      throw refused(error.message, [{ name: 'date', value: input.date, message: error.message }]);
    throw error;
  }
  await ctx.audit('settlement.run', input.date, input.merchantId ?? null);
  return accounts.map((a) => ({
    merchantId: a.merchantId,
    entityId: a.channelId,
    date: a.date,
    status: a.status,
    settlements: a.settlements.length,
    file: a.file ?? null,
  }));
}
