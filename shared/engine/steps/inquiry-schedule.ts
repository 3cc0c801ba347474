/**
 * When a processor is asked again about an outcome it has not told yet (inquiry.ts: an uncertain
 * payment or registration; processor-verdict.ts: a shopper's payment still open at the processor
 * when its 30 minutes end): soon at first, then at most hourly, daily after a day, never after a
 * week.
 */
import type { PaymentSessionStore } from '../core/ports';
import { INQUIRY_FIRST_MS } from './processor-uncertain';

const HOUR_MS = 60 * 60_000;
const DAY_MS = 24 * HOUR_MS;
/** The longest wait between two inquiries in a payment's first day. */
export const INQUIRY_MAX_WAIT_MS = HOUR_MS;
/** After its first day a payment is asked about once a day. */
export const INQUIRY_DAILY_AFTER_MS = DAY_MS;
/**
 * The gateway stops asking a week after the payment was sent. Why a week: a processor that has
 * not answered its own status API by then will not on the next try either, it is an operator's
 * matter with the processor's support; the card schemes' authorisations lapse in about that time
 * (mostly 7 days), so a capture decided later is moot; and the processor's settlement reports of
 * the days in between (daily) have told the operator by then whether it was processed.
 */
export const INQUIRY_STOP_AFTER_MS = 7 * DAY_MS;

/** The wait before the next ask of a payment `age` ms old; undefined once the gateway stops asking. */
function nextAskAfter(age: number): number | undefined {
  if (age >= INQUIRY_STOP_AFTER_MS) return undefined;
  return age >= INQUIRY_DAILY_AFTER_MS
    ? DAY_MS
    : Math.min(INQUIRY_MAX_WAIT_MS, Math.max(INQUIRY_FIRST_MS, age));
}

/**
 * The session of a payment `age` ms old made due at its next ask, or never once the gateway stops
 * asking (the payment stays pending: an operator's matter). False when it stopped.
 */
export async function askAgain(
  store: Pick<PaymentSessionStore, 'postponePaymentSession'>,
  sessionId: string,
  age: number,
  now: Date,
): Promise<boolean> {
  const wait = nextAskAfter(age);
  await store.postponePaymentSession(sessionId, wait === undefined ? null : new Date(now.getTime() + wait));
  return wait !== undefined;
}
