/**
 * Idempotency-Key claims: the key of a keyed request is written in the transaction of what the
 * request makes — a payment (the group commit's batch) or a schedule —, as an `idempotent_responses`
 * row with status IDEMPOTENCY_CLAIMED naming it (payment_id, schedule_id; migration 0008). The
 * response follows once answered (server/http/middleware/idempotency). A crash in between leaves the claim, and a
 * retry with the key answers what it names instead of acting again.
 */
import type { Kysely } from 'kysely';
import { IDEMPOTENCY_CLAIMED } from '../../../shared/engine/core/model';
import type { IdempotencyClaim } from '../../../shared/engine/core/ports';
import type { EpochMs } from '../core/columns';
import type { Database } from '../core/database';
import { ms } from '../core/rows';
import type { NewIdempotentResponseRow } from './tables';

/**
 * A claim row to write. It replaces a row of the key created before `replaceBefore` (expired); a
 * live row of the key refuses the whole write, so nothing is committed without its key.
 */
export interface ClaimWrite {
  readonly row: NewIdempotentResponseRow;
  readonly replaceBefore: EpochMs;
}

/** The claim columns the SQLite hot path binds, in a fixed order. */
export const CLAIM_COLUMNS = [
  'merchant_id',
  'key',
  'request_hash',
  'status',
  'body',
  'created_at',
  'payment_id',
  'schedule_id',
] as const satisfies readonly (keyof NewIdempotentResponseRow)[];

/** The claim row of what `merchantId`'s request made: a payment or a schedule. */
export function claimWrite(
  claim: IdempotencyClaim,
  merchantId: string,
  made: { readonly payment_id: string } | { readonly schedule_id: string },
): ClaimWrite {
  if (claim.merchantId !== merchantId) throw new Error("An Idempotency-Key of another merchant's request");
  return {
    row: {
      merchant_id: claim.merchantId,
      key: claim.key,
      request_hash: claim.requestHash,
      status: IDEMPOTENCY_CLAIMED,
      body: '',
      created_at: ms(claim.createdAt),
      payment_id: null,
      schedule_id: null,
      ...made,
    },
    replaceBefore: ms(claim.replaceBefore),
  };
}

/** INSERT of claims, replacing expired rows of their keys (those created before `replaceBefore`). */
export function claimInsert(
  db: Kysely<Database>,
  rows: readonly NewIdempotentResponseRow[],
  replaceBefore: EpochMs,
) {
  return db
    .insertInto('idempotent_responses')
    .values([...rows])
    .onConflict((oc) =>
      oc
        .columns(['merchant_id', 'key'])
        .doUpdateSet((eb) => ({
          request_hash: eb.ref('excluded.request_hash'),
          status: eb.ref('excluded.status'),
          body: eb.ref('excluded.body'),
          created_at: eb.ref('excluded.created_at'),
          payment_id: eb.ref('excluded.payment_id'),
          schedule_id: eb.ref('excluded.schedule_id'),
        }))
        .where('idempotent_responses.created_at', '<', replaceBefore),
    );
}

/** Writes one claim in the transaction `trx`; throws KeyTaken (rolling it back) when a live response holds the key. */
export async function writeClaim(trx: Kysely<Database>, claim: ClaimWrite): Promise<void> {
  const taken = await claimInsert(trx, [claim.row], claim.replaceBefore).returning('key').execute();
  if (taken.length === 0) throw new KeyTaken(claim.row.key);
}

/** A live response holds the key: what claimed it must not be written. */
export class KeyTaken extends Error {
  constructor(key: string) {
    super(`Idempotency-Key ${JSON.stringify(key)} is held by another live response`);
  }
}
