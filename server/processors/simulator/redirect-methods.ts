/**
 * The asynchronous (redirect) payment methods of test mode INTERNAL: each answers pending with a
 * redirect to a simulator page the gateway serves, where the shopper approves, declines or
 * cancels, as they would at their bank, wallet or pay-later provider.
 */

import type { RedirectMethod, RedirectMethodKind, ShopperAction } from '../../../shared/engine/core/ports';

export type { RedirectMethod, RedirectMethodKind, ShopperAction };

export const REDIRECT_METHODS: Readonly<Record<string, RedirectMethod>> = {
  SOFORTUEBERWEISUNG: {
    kind: 'onlineTransfer',
    title: 'Online bank transfer (simulated bank)',
    step: 'Log in to your bank and confirm the transfer.',
    declineCode: '800.100.152', // transaction declined by authorization system
  },
  PAYPAL: {
    kind: 'wallet',
    title: 'Wallet (simulated login)',
    step: 'Log in to your wallet and approve the payment.',
    declineCode: '800.100.170', // transaction declined (transaction not permitted)
  },
  KLARNA_PAYMENTS_PAYLATER: {
    kind: 'payLater',
    title: 'Buy now, pay later (simulated provider)',
    step: 'Confirm that you will pay this amount within 30 days.',
    declineCode: '800.100.155', // transaction declined (amount exceeds credit)
  },
  WALLETD_CONTINUE: {
    kind: 'wallet',
    title: 'Wallet D (simulated login)',
    step: 'Log in to wallet D and continue with the payment.',
    declineCode: '800.100.170',
  },
};

export const redirectMethodOf = (brand: string | undefined): RedirectMethod | undefined =>
  brand === undefined || !Object.hasOwn(REDIRECT_METHODS, brand) ? undefined : REDIRECT_METHODS[brand];
