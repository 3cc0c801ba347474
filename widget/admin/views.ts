/**
 * The dashboard's own views of admin answers that types.ts does not carry yet (types.ts is being
 * turned into imports of shared/contract/; these join it there).
 */

/** What remains of a payment for the money actions (server/backoffice/payments/remaining.ts). */
export interface Remaining {
  readonly currency: string | null;
  readonly capturable: string | null;
  readonly refundable: string | null;
  readonly reversible: string | null;
  readonly chargeable: string | null;
}

/** GET /admin/v1/environment: the banner's facts. */
export interface EnvironmentView {
  readonly environment: 'test' | 'live';
  readonly clock: { readonly now: string; readonly testClock: true; readonly frozen: boolean } | null;
}
