/**
 * Wallet payments, encrypted-token variant (spec: walletX.paymentToken "sent as received; the
 * service decrypts it"): the token is opened (the WalletTokens port) and the payment goes on as
 * the card payment it stands for, its cryptogram and ECI as external 3-D Secure values, so no
 * authentication of ours runs again. The decrypted-card variant needs nothing here: the merchant
 * sends card.*, threeDSecure.verificationId, threeDSecure.eci and walletX.source itself.
 */
import type { RequestOf } from '../../params/requests';
import type { Caller } from '../core/deps';
import { type Checked, invalid } from '../core/failure';
import type { WalletTokenRefusal, WalletTokens } from '../core/ports';

/** The parameter groups of the encrypted-token wallets (walletX.paymentToken). */
export const WALLET_GROUPS = ['walletA', 'walletB', 'walletC'] as const;
export type WalletGroup = (typeof WALLET_GROUPS)[number];

/** What a request with a wallet token has: the wallet groups, and the card and 3-D Secure it becomes. */
type WalletRequest = Pick<RequestOf<'payment'>, 'walletA' | 'walletB' | 'walletC' | 'card' | 'threeDSecure'>;

const REFUSALS: Readonly<Record<WalletTokenRefusal, string>> = {
  malformed: 'is not a payment token of this wallet',
  altered: "cannot be decrypted: it was altered, or not issued by this gateway's wallet",
  'other-wallet': 'was issued by another wallet',
  'other-merchant': 'was issued for another merchant (entityId)',
  expired: 'has expired: ask the wallet for a new one',
};

/** The request with its wallet token opened into card and 3-D Secure values, or why it cannot be. */
export function openWalletToken<R extends WalletRequest>(
  wallets: WalletTokens | undefined,
  caller: Caller,
  request: R,
  now: Date,
): Checked<{ request: R }> {
  const wallet = WALLET_GROUPS.find((g) => request[g]?.paymentToken !== undefined);
  if (wallet === undefined) return { kind: 'ok', request };
  const name = `${wallet}.paymentToken`;
  const token = request[wallet]?.paymentToken ?? '';
  if (wallets === undefined) {
    return invalid([{ name, value: null, message: 'cannot be decrypted: this gateway has no wallet keys' }]);
  }
  const opened = wallets.open(wallet, token, caller.channel.id, now);
  if ('refused' in opened) return invalid([{ name, value: null, message: REFUSALS[opened.refused] }]);
  return {
    kind: 'ok',
    request: {
      ...request,
      card: {
        ...request.card,
        number: opened.number,
        expiryMonth: opened.expiryMonth,
        expiryYear: opened.expiryYear,
      },
      threeDSecure: { ...request.threeDSecure, verificationId: opened.cryptogram, eci: opened.eci },
    },
  };
}
