/**
 * The simulator's test data as named constants, read from the simulator's own tables (never
 * copied): the acquirer's declines (`DECLINED_CARDS`), the access control server's enrolled cards
 * (`ENROLLED_CARDS`, `CHALLENGE_CODE`), the redirect methods (`REDIRECT_METHODS`) and the wallet
 * sheets' cards (`WALLET_CARDS`). A row added there appears here, in the README's table
 * (simulator-table.ts) and in every QA suite using the kit.
 *
 * What the tables do not hold is the family's sample data (facts §6.2, §6.3): the expiry, CVV and
 * holder every documented card is typed with, and the sample IBANs.
 */

import { CHALLENGE_CODE, ENROLLED_CARDS } from '../../server/processors/simulator/access-control-server';
import { DECLINED_CARDS } from '../../server/processors/simulator/acquirer';
import { acceptedLater, REDIRECT_METHODS } from '../../server/processors/simulator/redirect-methods';
import { WALLET_CARDS, type WalletTestCard } from '../../server/processors/simulator/wallets';
import { BRANDS, detectBrand, validateIban } from '../../shared/brands';
import type { AuthenticationStatus, CardProfile } from '../../shared/engine/core/ports';
import { AuthenticationCodes, failureCodeOf } from '../../shared/engine/steps/three-d-secure';
import { ResultCodes } from '../../shared/result-codes';

export { CHALLENGE_CODE };

/** What a shopper types into the card form. */
export interface Card {
  readonly number: string;
  /** `MM/YY`, as the form's expiry field takes it. */
  readonly expiry: string;
  readonly cvv: string;
  readonly holder: string;
}

/** A card of the simulator's tables, with what paying with it gives. */
export interface TestCard extends Card {
  /** The brand the number is detected as (shared/brands). */
  readonly brand: string;
  /** The payment's result code on a channel with 3-D Secure on (a challenge: after the code). */
  readonly outcome: string;
  /** How 3-D Secure goes for it: not enrolled, frictionless (with its status), challenge. */
  readonly threeDSecure:
    | 'not enrolled'
    | 'not participating'
    | 'challenge'
    | `frictionless ${AuthenticationStatus}`;
}

/** The sample details every documented test card is typed with (facts §6.2). */
const SAMPLE = { expiry: '05/34', cvv: '123', holder: 'Jane Jones' } as const;

function cardOf(number: string, outcome: string, threeDSecure: TestCard['threeDSecure']): TestCard {
  const brand = detectBrand(number) ?? 'VISA';
  // AMEX takes a 4-digit security code (facts §6.2: 377777777777770 with CVV 1234).
  const cvv = brand === 'AMEX' ? '1234' : SAMPLE.cvv;
  return { number, expiry: SAMPLE.expiry, cvv, holder: SAMPLE.holder, brand, outcome, threeDSecure };
}

/** What an enrolled card's authentication ends in, then the acquirer's verdict. */
function enrolledOutcome(profile: CardProfile): Pick<TestCard, 'outcome' | 'threeDSecure'> {
  if (profile.flow === 'not-participating')
    return { outcome: AuthenticationCodes.NOT_PARTICIPATING, threeDSecure: 'not participating' };
  if (profile.flow === 'challenge')
    return { outcome: ResultCodes.SUCCESS_INTERNAL, threeDSecure: 'challenge' };
  const status = profile.status;
  const outcome = status === 'Y' || status === 'A' ? ResultCodes.SUCCESS_INTERNAL : failureCodeOf(status);
  return { outcome, threeDSecure: `frictionless ${status}` };
}

/** Every enrolled card of the access control server, in its table's order. */
export const threeDSecureCards: readonly TestCard[] = Object.entries(ENROLLED_CARDS).map(
  ([number, profile]) => {
    const { outcome, threeDSecure } = enrolledOutcome(profile);
    return cardOf(number, outcome, threeDSecure);
  },
);

const firstEnrolled = (kind: TestCard['threeDSecure']): TestCard => {
  const card = threeDSecureCards.find((c) => c.threeDSecure === kind && c.brand === 'VISA');
  if (card === undefined) throw new Error(`the access control server has no VISA card for ${kind}`);
  return card;
};

const walletCardNumber = (id: string): string => {
  const card = WALLET_CARDS.find((c) => c.id === id);
  if (card === undefined) throw new Error(`the simulated wallets have no card ${id}`);
  return card.number;
};

const [declinedNumber, declined] = Object.entries(DECLINED_CARDS)[0] ?? [];
if (declinedNumber === undefined || declined === undefined)
  throw new Error('the acquirer declines no test card');

/** A card the simulated issuer declines, with the scheme data the decline carries. */
export interface DeclinedCard extends TestCard {
  /** resultDetails.AcquirerResponse. */
  readonly acquirerResponse: string;
  /** resultDetails.MerchantAdviceCode (Mastercard's declines). */
  readonly merchantAdviceCode?: string;
}

/** Every card the simulated issuer declines (`DECLINED_CARDS`), in its table's order. */
export const declinedCards: readonly DeclinedCard[] = Object.entries(DECLINED_CARDS).map(
  ([number, decline]) => ({
    ...cardOf(number, decline.code, 'not enrolled'),
    acquirerResponse: decline.acquirerResponse,
    ...(decline.merchantAdviceCode === undefined ? {} : { merchantAdviceCode: decline.merchantAdviceCode }),
  }),
);

/**
 * The cards QA flows pay with. `success` is the family's standard card, the one the simulated
 * wallets also carry as "visa": not enrolled, so exactly 000.100.110 with or without 3-D Secure.
 */
export const cards = {
  success: cardOf(walletCardNumber('visa'), ResultCodes.SUCCESS_INTERNAL, 'not enrolled'),
  /** Passes every check and is declined by the simulated issuer. */
  declined: cardOf(declinedNumber, declined.code, 'not enrolled'),
  /** A 3-D Secure challenge (channel with 3-D Secure on): answer CHALLENGE_CODE to pay. */
  challenge: firstEnrolled('challenge'),
  /** Authenticated without a challenge (`Y`), then paid. */
  frictionless: firstEnrolled('frictionless Y'),
  /** A frictionless attempt (`A`), then paid. */
  frictionlessAttempt: firstEnrolled('frictionless A'),
  /** Rejected by the issuer's access control server (`R`). */
  authenticationRejected: firstEnrolled('frictionless R'),
  mastercard: cardOf(walletCardNumber('mastercard'), ResultCodes.SUCCESS_INTERNAL, 'not enrolled'),
  amex: cardOf(walletCardNumber('amex'), ResultCodes.SUCCESS_INTERNAL, 'not enrolled'),
} as const satisfies Record<string, TestCard>;

/** A challenge's answers and what each gives. */
export const challengeOutcomes = {
  code: CHALLENGE_CODE,
  answered: ResultCodes.SUCCESS_INTERNAL,
  failed: AuthenticationCodes.CHALLENGE_FAILED,
  cancelled: ResultCodes.CANCELLED_BY_USER,
  timedOut: ResultCodes.PENDING_TIMED_OUT,
} as const;

/** SEPA IBANs (facts §6.3's sample, and the same with a broken checksum). */
export const ibans = {
  /** DIRECTDEBIT_SEPA's sample account: a valid checksum, paid with 000.100.110. */
  success: 'DE23100000001234567890',
  /** The sample with two check digits swapped: refused by the widget, 100.100.101 by the API. */
  invalidChecksum: 'DE32100000001234567890',
} as const;
for (const [name, iban] of Object.entries(ibans)) {
  if (validateIban(iban).ok !== (name === 'success')) throw new Error(`ibans.${name} is not what it says`);
}

/** A wallet sheet's test card and what paying with it gives. */
export interface WalletCard {
  readonly id: string;
  /** The card's label in the sheet (its radio button's name). */
  readonly label: string;
  readonly outcome: string;
}

const walletOutcome = (card: WalletTestCard): string =>
  DECLINED_CARDS[card.number]?.code ?? ResultCodes.SUCCESS_INTERNAL;

/** The simulated wallet sheets' cards by id (`visa`, `mastercard`, `amex`, `visa-declined`). */
export const walletCards: Readonly<Record<string, WalletCard>> = Object.fromEntries(
  WALLET_CARDS.map((card) => [card.id, { id: card.id, label: card.label, outcome: walletOutcome(card) }]),
);

/** A redirect method's provider page and what each answer gives. */
export interface RedirectTrigger {
  readonly brand: string;
  /** The provider page's heading. */
  readonly title: string;
  readonly approved: string;
  readonly declined: string;
  readonly cancelled: string;
  readonly timedOut: string;
  /** A voucher: the answer carries `resultDetails.VoucherReference` and `VoucherDueDate`. */
  readonly voucher: boolean;
}

/** The simulated redirect methods (PAYPAL, SOFORTUEBERWEISUNG, …) by brand. */
export const redirectMethods: Readonly<Record<string, RedirectTrigger>> = Object.fromEntries(
  Object.entries(REDIRECT_METHODS).map(([brand, method]) => [
    brand,
    {
      brand,
      title: method.title,
      approved: ResultCodes.SUCCESS_INTERNAL,
      declined: method.declineCode,
      cancelled: ResultCodes.CANCELLED_BY_USER,
      timedOut: ResultCodes.PENDING_TIMED_OUT,
      voucher: method.issue !== undefined,
    },
  ]),
);

/**
 * The brands a provider accepts later without the shopper (invoices, instalments): answered
 * `000.200.000` without a redirect, then `000.100.110` about a minute later (or the code of
 * `customParameters[forceResultCode]`, the provider's refusal), with a PAYMENT UPDATED notification.
 */
export const acceptedLaterBrands: readonly string[] = Object.keys(BRANDS).filter((brand) =>
  acceptedLater(brand),
);
