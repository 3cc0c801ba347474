/**
 * The amount the widget shows, which must be the amount it charges. With a checkout that is the
 * checkout's (the session's amount and currency); `wpwlOptions.checkout.amount` (and a wallet
 * block's `amount` / `currencyCode`) only stand in before one exists, in fast checkout. When the
 * checkout createCheckout made, or the total a wallet sheet ended with, differs from what was
 * shown, the payment stops (submit.ts, Wallet/host.ts).
 */
import type { Session } from './api';
import type { Settings } from './options';

export interface Money {
  readonly amount: string | undefined;
  readonly currency: string | undefined;
}

/** What the forms show: the checkout's amount once there is one, else the page's fast-checkout amount. */
export function shownMoney(
  settings: Pick<Settings, 'checkoutAmount' | 'checkoutCurrency'>,
  session: Pick<Session, 'amount' | 'currency'> | undefined,
): Money {
  return session
    ? { amount: session.amount, currency: session.currency }
    : { amount: settings.checkoutAmount, currency: settings.checkoutCurrency };
}

/** A decimal string without leading zeros or trailing fractional zeros ("092.50" → "92.5"); no floats. */
function canonical(amount: string): string | undefined {
  const m = /^\s*0*(\d*)(?:\.(\d*?)0*)?\s*$/.exec(amount);
  if (m === null) return undefined;
  return `${m[1] || '0'}${m[2] ? `.${m[2]}` : ''}`;
}

/**
 * Whether the checkout charges what was shown: the same amount (as decimals: "92" is "92.00") and,
 * when both name one, the same currency. Nothing shown: nothing to differ from.
 */
export function charges(shown: Money, checkout: Money): boolean {
  if (shown.amount === undefined) return true;
  const a = canonical(shown.amount);
  if (a === undefined || checkout.amount === undefined || a !== canonical(checkout.amount)) return false;
  return (
    shown.currency === undefined ||
    checkout.currency === undefined ||
    shown.currency.toUpperCase() === checkout.currency.toUpperCase()
  );
}
