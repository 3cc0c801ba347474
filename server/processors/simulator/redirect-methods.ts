/**
 * The asynchronous (redirect) payment methods of test mode INTERNAL: each answers pending with a
 * redirect to a simulator page the gateway serves, where the shopper approves, declines or
 * cancels, as they would at their bank, wallet or pay-later provider, or pays a voucher.
 *
 * Derived from the payment-method catalogue: every brand whose flow is `redirect` has a provider
 * here, the one of its method (an online transfer's bank, a wallet's or account's login, a
 * pay-later provider, a voucher), so a redirect brand added to the catalogue is simulated at once.
 */

import {
  type CatalogueBrand,
  catalogueBrands,
  catalogueEntry,
  type MethodCode,
  PAYMENT_BRANDS,
} from '../../../shared/brands';
import type { RedirectMethod, RedirectMethodKind, ShopperAction } from '../../../shared/engine/core/ports';

export type { RedirectMethod, RedirectMethodKind, ShopperAction };

/**
 * A simulated provider; a voucher's provider issues the voucher (issue): its page shows the
 * shopper the reference to pay and its due date, and the payment's answer carries both.
 */
export type SimulatedRedirectMethod = RedirectMethod;

/**
 * What a voucher's provider issues at once, answered in resultDetails (the spec's name/value
 * enrichment; the family's spec names no voucher fields, so the smallest shape: two pairs):
 * the reference the shopper pays with and the date (yyyy-MM-dd, UTC) it is due, the day its
 * payment would time out. Where the shopper sees it is the answer's redirect.url.
 */
export function issuedVoucher(paymentId: string, dueBy: Date): Readonly<Record<string, string>> {
  return { VoucherReference: voucherReference(paymentId), VoucherDueDate: dueBy.toISOString().slice(0, 10) };
}

const ONLINE_TRANSFER: SimulatedRedirectMethod = {
  kind: 'onlineTransfer',
  title: 'Online bank transfer (simulated bank)',
  step: 'Log in to your bank and confirm the transfer.',
  declineCode: '800.100.152', // transaction declined by authorization system
};
const WALLET: SimulatedRedirectMethod = {
  kind: 'wallet',
  title: 'Wallet (simulated login)',
  step: 'Log in to your wallet and approve the payment.',
  declineCode: '800.100.170', // transaction declined (transaction not permitted)
};

/** The provider of each method a redirect brand has. */
const PROVIDERS: Partial<Readonly<Record<MethodCode, SimulatedRedirectMethod>>> = {
  OT: ONLINE_TRANSFER,
  WA: WALLET,
  VA: {
    kind: 'wallet',
    title: 'Account (simulated login)',
    step: 'Log in to your account with the provider and approve the payment.',
    declineCode: '800.100.170',
  },
  IV: {
    kind: 'payLater',
    title: 'Buy now, pay later (simulated provider)',
    step: 'Confirm that you will pay this amount within 30 days.',
    declineCode: '800.100.155', // transaction declined (amount exceeds credit)
  },
  PP: {
    kind: 'payLater',
    title: 'Voucher (simulated provider)',
    step: 'Pay this voucher at a bank, a lottery agency or in your online banking (approve: paid).',
    declineCode: '800.100.152',
    issue: issuedVoucher,
  },
};

/** Brands whose provider is their own rather than their method's. */
const OWN: Partial<Readonly<Record<CatalogueBrand, SimulatedRedirectMethod>>> = {
  WALLETD_CONTINUE: {
    ...WALLET,
    title: 'Wallet D (simulated login)',
    step: 'Log in to wallet D and continue with the payment.',
  },
};

export const REDIRECT_METHODS: Readonly<Record<string, SimulatedRedirectMethod>> = Object.fromEntries(
  catalogueBrands()
    .filter((brand) => PAYMENT_BRANDS[brand].flow === 'redirect')
    .map((brand) => {
      const method = OWN[brand] ?? PROVIDERS[PAYMENT_BRANDS[brand].method];
      if (method === undefined) throw new Error(`no simulated provider for the redirect brand ${brand}`);
      return [brand, method];
    }),
);

export const redirectMethodOf = (brand: string | undefined): SimulatedRedirectMethod | undefined =>
  brand === undefined || !Object.hasOwn(REDIRECT_METHODS, brand) ? undefined : REDIRECT_METHODS[brand];

/**
 * Whether the brand's provider accepts a payment later, after its own checks, without the
 * shopper: a `later` brand of the catalogue not paid to the merchant's own account (invoices and
 * instalments; a prepayment to the merchant is accepted at once). The simulator answers such a
 * payment pending; the pending-payments worker gives the provider's answer (asynchronous.ts).
 */
export function acceptedLater(brand: string | undefined): boolean {
  const entry = brand === undefined ? undefined : catalogueEntry(brand);
  return entry?.flow === 'later' && entry.toMerchantAccount !== true;
}

/**
 * A voucher's reference, as a boleto's typeable line is written (`00000.00000 00000.000000 …`):
 * 47 digits taken from the payment's id, so the same payment always shows the same voucher.
 */
export function voucherReference(paymentId: string): string {
  let digits = '';
  for (let i = 0; digits.length < 47; i++) {
    const c = paymentId.charCodeAt(i % paymentId.length);
    digits += String((c * (i + 7)) % 10);
  }
  const part = (from: number, to: number) => digits.slice(from, to);
  return `${part(0, 5)}.${part(5, 10)} ${part(10, 15)}.${part(15, 21)} ${part(21, 26)}.${part(26, 32)} ${part(32, 33)} ${part(33, 47)}`;
}
