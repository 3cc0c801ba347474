/**
 * What remains of a payment for the back office's money actions, as the dashboard's confirmation
 * shows it before the operator acts: capturable (a PA), refundable (a DB, CP, RB, RC), reversible
 * (a PA or DB not yet followed) and chargeable (a DB, CP, RB), in the payment's currency as decimal
 * strings. Each figure is the workflow's own verdict on a request for "the rest" (the engine's
 * `checkReference` with no amount), so the dashboard never counts differently from the API that
 * will refuse it; null where the action does not apply.
 */
import type { Payment } from '../../../shared/engine/core/model';
import {
  checkReference,
  type ReferencingType,
  standingChargebacks,
} from '../../../shared/engine/steps/workflow';
import { asMinor, fromMinor } from '../../../shared/money';
import { isSuccess } from '../../../shared/result-codes';

export interface Remaining {
  readonly currency: string | null;
  readonly capturable: string | null;
  readonly refundable: string | null;
  readonly reversible: string | null;
  readonly chargeable: string | null;
}

const APPLIES: { readonly [type in 'CP' | 'RF' | 'RV']: ReadonlySet<string> } = {
  CP: new Set(['PA']),
  RF: new Set(['DB', 'CP', 'RB', 'RC']),
  RV: new Set(['PA', 'DB']),
};
/** The chargeback engine's own list (shared/engine/operations/chargebacks.ts). */
const CHARGEABLE = new Set(['DB', 'CP', 'RB']);

const NOTHING: Remaining = {
  currency: null,
  capturable: null,
  refundable: null,
  reversible: null,
  chargeable: null,
};

/**
 * @param payment the payment shown
 * @param children every payment that references it directly (any outcome)
 */
export function remainingOf(payment: Payment, children: readonly Payment[]): Remaining {
  const currency = payment.currency;
  if (currency === undefined || payment.amount === null || !isSuccess(payment.resultCode)) return NOTHING;
  const shown = (minor: number) => fromMinor(asMinor(Math.max(0, minor)), currency);
  const rest = (paymentType: ReferencingType & keyof typeof APPLIES): string | null => {
    if (!APPLIES[paymentType].has(payment.paymentType)) return null;
    const verdict = checkReference(payment, children, {
      paymentType,
      amount: null,
      channelId: payment.channelId,
    });
    return shown(verdict.ok ? verdict.amount : 0);
  };
  const chargedBack = standingChargebacks(children).reduce((total, p) => total + (p.amount ?? 0), 0);
  return {
    currency,
    capturable: rest('CP'),
    refundable: rest('RF'),
    reversible: rest('RV'),
    chargeable: CHARGEABLE.has(payment.paymentType) ? shown(payment.amount - chargedBack) : null,
  };
}
