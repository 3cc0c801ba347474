/**
 * The simulated wallets of test mode INTERNAL (decisions, Wallets): walletA, walletB and walletC
 * each have a sheet, served by the gateway, that lists these test cards and issues an encrypted
 * token only the gateway can open. The card inside decides the payment as any card does.
 */

import { WALLET_GROUPS, type WalletGroup } from '../../../shared/engine/steps/wallets';

export { WALLET_GROUPS, type WalletGroup };

/** The brand of each wallet group (decisions, Wallets). */
export const WALLET_BRANDS: Readonly<Record<WalletGroup, string>> = {
  walletA: 'WALLETA',
  walletB: 'WALLETB',
  walletC: 'WALLETC',
};

export const isWalletGroup = (value: string): value is WalletGroup =>
  (WALLET_GROUPS as readonly string[]).includes(value);

export interface WalletTestCard {
  /** What the sheet sends back to ask for a token. */
  readonly id: string;
  readonly label: string;
  readonly number: string;
  /** walletA.cardNetwork and cardType, as a wallet reports them. */
  readonly network: string;
  readonly type: 'CREDIT' | 'DEBIT';
  /** ECI of the cryptogram the token carries (Mastercard's family 02, others 05). */
  readonly eci: string;
}

export const WALLET_CARDS: readonly WalletTestCard[] = [
  {
    id: 'visa',
    label: 'Visa •••• 0000',
    number: '4200000000000000',
    network: 'VISA',
    type: 'CREDIT',
    eci: '05',
  },
  {
    id: 'mastercard',
    label: 'Mastercard •••• 5454',
    number: '5454545454545454',
    network: 'MASTERCARD',
    type: 'CREDIT',
    eci: '02',
  },
  {
    id: 'amex',
    label: 'Amex •••• 7770',
    number: '377777777777770',
    network: 'AMEX',
    type: 'CREDIT',
    eci: '05',
  },
  // Declined by the issuer (800.100.151), like the same card typed into a card form.
  {
    id: 'visa-declined',
    label: 'Visa •••• 0002 (declined)',
    number: '4000000000000002',
    network: 'VISA',
    type: 'CREDIT',
    eci: '05',
  },
];

export const walletCard = (id: string): WalletTestCard | undefined => WALLET_CARDS.find((c) => c.id === id);
