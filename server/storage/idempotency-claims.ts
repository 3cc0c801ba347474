/**
 * Idempotency-Key claims: the key of a request is written in the transaction of the payment the
 * request makes, so the two commit together. http/idempotency.ts opens a claim around the request's
 * work; the store's insertPayment takes it (once, for the first payment of the claim's merchant)
 * and the group commit's batch writes it with the payment: an `idempotent_responses` row with the
 * payment's id and no response yet (status CLAIMED). Once answered, the row gets the (sealed)
 * response. A crash in between leaves the claim: a retry with the key finds it, and answers the
 * payment it names instead of charging again.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

/** The status of a claim row: the key is taken by a payment, its response is not stored yet. */
export const CLAIMED = 0;

export interface IdempotencyClaim {
  readonly merchantId: string;
  readonly key: string;
  /** Hash of method, path and body: the same key with another request is refused. */
  readonly requestHash: string;
  readonly createdAt: Date;
  /** A stored response created before this has expired: the claim replaces it. */
  readonly replaceBefore: Date;
  /** The payment that took the claim (set by takeIdempotencyClaim). */
  paymentId?: string;
}

const claims = new AsyncLocalStorage<IdempotencyClaim>();

/** Runs the request's work with its key open for the first payment it writes. */
export function withIdempotencyClaim<T>(claim: IdempotencyClaim, task: () => Promise<T>): Promise<T> {
  return claims.run(claim, task);
}

/**
 * The open claim of the request writing this payment, now taken by it; undefined outside a keyed
 * request, for another merchant's payment, or when an earlier payment of the request took it.
 */
export function takeIdempotencyClaim(merchantId: string, paymentId: string): IdempotencyClaim | undefined {
  const claim = claims.getStore();
  if (claim === undefined || claim.paymentId !== undefined || claim.merchantId !== merchantId)
    return undefined;
  claim.paymentId = paymentId;
  return claim;
}
