/**
 * A settlement run by hand: a past UTC day settled now (the settlement worker does it after the
 * day's cut-off), for every merchant or one, through the reporting module's `settleDay`; never
 * twice (a settled day answers `already-settled`). Audited as `settlement.run` on the day.
 *
 * With the connectors' contracts (`contractOf`), a connector channel settles from its processor's
 * records (server/reporting/settlement-run/processor-day.ts): its view says what did not agree
 * (`processor`), and each such channel's day is audited as `settlement.discrepancy` on
 * `<entityId> <day>`; one whose processor cannot be asked now is `not-settled` with the reason.
 */
import type { z } from 'zod';
import { settlementRunInput } from '../../../shared/contract/admin-inputs';
import { type ContractOf, type ProcessorDiscrepancies, settleDay } from '../../reporting/settlement-run';
import type { GatewayStore } from '../../storage';
import type { BackofficeContext } from '../context';
import { parsed, refused } from '../errors';
import { requireMerchant } from '../merchants/merchants';

export type SettlementContext = BackofficeContext<GatewayStore> & {
  /** The gateway's data folder: the reconciliation files go under it. */
  readonly dataDir: string;
  /** A connector's contract by its settings: connector channels settle from their processors' records. */
  readonly contractOf?: ContractOf;
};

export { settlementRunInput };
export type SettlementRunInput = z.infer<typeof settlementRunInput>;
export const parseSettlementRun = (input: unknown): SettlementRunInput => parsed(settlementRunInput, input);

/** One merchant account's day as every face shows it. */
export interface SettledAccountView {
  readonly merchantId: string;
  readonly entityId: string;
  readonly date: string;
  readonly status: 'settled' | 'already-settled' | 'not-settled';
  /** Settlements of the day (one per settlement currency). */
  readonly settlements: number;
  /** The reconciliation file, when the day had records. */
  readonly file: string | null;
  /** Why a day is `not-settled` (its processor's records could not be read now). */
  readonly reason?: string;
  /** Settled from the processor's records: the payments it lacked, and what it had that the gateway lacks. */
  readonly processor?: ProcessorDiscrepancies;
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
      {
        store: ctx.store,
        clock: ctx.clock,
        dataDir: ctx.dataDir,
        ...(ctx.contractOf === undefined ? {} : { contractOf: ctx.contractOf }),
      },
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
  for (const a of accounts)
    if (a.processor !== undefined && a.processor.missingCount + a.processor.unknownCount > 0)
      await ctx.audit('settlement.discrepancy', `${a.channelId} ${a.date}`, a.merchantId);
  return accounts.map((a) => ({
    merchantId: a.merchantId,
    entityId: a.channelId,
    date: a.date,
    status: a.status,
    settlements: a.settlements.length,
    file: a.file ?? null,
    ...(a.reason === undefined ? {} : { reason: a.reason }),
    ...(a.processor === undefined ? {} : { processor: a.processor }),
  }));
}
