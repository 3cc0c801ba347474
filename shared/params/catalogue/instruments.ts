/**
 * Spec sections for payment instruments: card account, wallet payments, virtual account, bank
 * account, token account and gift card.
 */
import { group } from '../nodes';
import { atLeastOne, check, has, type Rule, str, together } from '../rules';
import { A, ALNUM, AN, COUNTRY, DATE, MONTH, N, oneOf, pattern, YEAR } from './dsl';

export const card = group({
  card: group({
    holder: A(3, 128),
    number: N(8, 32, { req: 'R', mask: 'pan', note: 'PAN or account number.' }),
    expiryMonth: MONTH({ req: 'R' }),
    expiryYear: YEAR({ req: 'R' }),
    cvv: N(3, 4, { req: 'C', mask: 'secret', note: 'Security code.' }),
    numberType: oneOf(['PAN', 'DPAN']),
  }),
});

/** The three wallet families; each has an encrypted-token and a decrypted-card variant. */
export const WALLETS = ['walletA', 'walletB', 'walletC'] as const;
export type Wallet = (typeof WALLETS)[number];

const PAYMENT_TOKEN = AN(1, 65_536, {
  // Required in the encrypted-token variant; the group's rule says which variant is sent.
  req: 'C',
  mask: 'secret',
  note: 'Encrypted token sent as received; the gateway decrypts it.',
});
const SOURCE = oneOf(['web', 'app'], { req: 'C', note: 'Required in the decrypted-card variant.' });

/** Within a wallet group: the token, or the source of a decrypted card, not both. */
const tokenOrSource: Rule = check({
  paths: ['paymentToken', 'source'],
  says: 'paymentToken (encrypted-token variant) or source (decrypted-card variant) is required, not both.',
  requiredness: true,
  apply(g, report) {
    const token = has(g, 'paymentToken');
    const source = has(g, 'source');
    if (!token && !source) report('paymentToken', 'is required, or source with the decrypted card', null);
    if (token && source) report('source', 'is only for the decrypted-card variant, not with paymentToken');
  },
});

/** The decrypted-card variant: the merchant decrypted the token and sends the card and 3-D Secure proof. */
const DECRYPTED_CARD = [
  'card.number',
  'card.expiryMonth',
  'card.expiryYear',
  'threeDSecure.verificationId',
  'threeDSecure.eci',
];

const decryptedCardVariant = (wallet: Wallet): Rule =>
  check({
    paths: [`${wallet}.source`, ...DECRYPTED_CARD],
    says: `${wallet}.source comes with ${DECRYPTED_CARD.join(', ')} (the decrypted-card variant).`,
    apply(root, report) {
      if (!has(root, `${wallet}.source`)) return;
      for (const p of DECRYPTED_CARD) {
        if (!has(root, p))
          report(p, `is required in the decrypted-card variant (${wallet}.source is sent)`, null);
      }
    },
  });

export const wallets = group(
  {
    walletA: group(
      {
        paymentToken: PAYMENT_TOKEN,
        cardNetwork: AN(1, 255, { note: 'Network name received from the wallet.' }),
        cardType: AN(1, 255, { note: 'Payment-method type received from the wallet.' }),
        source: SOURCE,
      },
      [tokenOrSource],
    ),
    walletB: group({ paymentToken: PAYMENT_TOKEN, source: SOURCE }, [tokenOrSource]),
    walletC: group({ paymentToken: PAYMENT_TOKEN, source: SOURCE }, [tokenOrSource]),
  },
  WALLETS.map(decryptedCardVariant),
);

export const virtualAccount = group({
  virtualAccount: group({
    accountId: AN(1, 100, { req: 'R', note: "Shopper's virtual-account identifier." }),
  }),
});

/**
 * The bank account. What it needs (holder, number or iban, bankCode or bic) depends on the brand:
 * a direct debit or credit transfer needs the account, while an online transfer takes only
 * `BANK_HINTS`, optional, passed to its provider (decisions, "Fidelity to the family"); the
 * request kinds' instrument rule says which (requests/account-data.ts, `bankAccountNeeds`).
 */
export const bankAccount = group({
  bankAccount: group({
    holder: AN(4, 128, {
      req: 'C',
      note: 'Required for a bank account (not for the hints of an online transfer).',
    }),
    bankName: AN(1, 255, { req: 'C' }),
    number: ALNUM(3, 64, { req: 'C', mask: 'account', note: 'Either number or iban is required.' }),
    iban: pattern(
      /^[A-Za-z]{2}[0-9]{2}[A-Za-z0-9]{11,27}$/,
      'an IBAN: 2 letters, 2 digits, then 11 to 27 letters or digits',
      { req: 'C', mask: 'account', note: 'Either number or iban is required.' },
    ),
    bankCode: ALNUM(1, 12, { req: 'C', note: 'Either bankCode or bic is required.' }),
    bic: pattern(/^[A-Za-z0-9]{8}([A-Za-z0-9]{3})?$/, '8 or 11 letters or digits', {
      req: 'C',
      note: 'Either bankCode or bic is required.',
    }),
    country: COUNTRY({ req: 'C' }),
    mandate: group({
      // real mandate references carry digits (decisions, "Addresses")
      id: pattern(/^[A-Za-z0-9-]{1,256}$/, 'up to 256 letters, digits and hyphens', { req: 'C' }),
      dateOfSignature: DATE({ req: 'C' }),
    }),
  }),
  transactionDueDate: DATE({ req: 'C', note: 'Due date of the direct debit.' }),
});

/** What an online transfer takes of the bank account: optional hints for its provider. */
export const BANK_HINTS = ['country', 'bankName', 'iban', 'bic'] as const;

/**
 * The account itself (a direct debit's, a credit transfer's, a registration's): its holder, its
 * number or IBAN, its bank code or BIC. Relative to the bankAccount group.
 */
export const BANK_ACCOUNT_RULES: readonly Rule[] = [
  check({
    paths: ['holder'],
    says: 'holder is required for a bank account.',
    requiredness: true,
    apply(g, report) {
      if (!has(g, 'holder')) report('holder', 'is required', null);
    },
  }),
  atLeastOne('number', 'iban'),
  atLeastOne('bankCode', 'bic'),
];

/**
 * A network token is only as good as its cryptogram: the scheme checks it instead of a CVV, so a
 * NETWORK token without one could not be authorized anywhere. EXTERNAL (provider) tokens have none.
 */
const networkTokenCryptogram: Rule = check({
  paths: ['type', 'cryptogram'],
  says: 'cryptogram is required when type is NETWORK.',
  requiredness: true,
  apply(g, report) {
    if (str(g, 'type') === 'NETWORK' && !has(g, 'cryptogram'))
      report('cryptogram', 'is required when type is NETWORK', null);
  },
});

export const tokenAccount = group({
  tokenAccount: group(
    {
      number: N(12, 19, { req: 'R', mask: 'pan', note: 'Token created by an external provider.' }),
      type: oneOf(['EXTERNAL', 'NETWORK'], { req: 'R' }),
      expiryMonth: MONTH(),
      expiryYear: YEAR(),
      cryptogram: pattern(/^[A-Za-z0-9+/=]{28,32}$/, '28 to 32 base64 characters', {
        req: 'C',
        mask: 'secret',
        note: 'EMV-based dynamic data.',
      }),
      dtvc: N(3, 4, { req: 'C', mask: 'secret', note: 'Dynamic token verification code.' }),
    },
    // An expiry is optional, but a month without its year (or the reverse) cannot be checked.
    [networkTokenCryptogram, together('expiryMonth', 'expiryYear')],
  ),
});

export const GIFT_CARD_TYPES = [
  'ANNIVERSARY',
  'BIRTHDAY',
  'CONGRATULATIONS',
  'APRIL_FOOLS_DAY',
  'EASTER',
  'FATHERS_DAY',
  'GRADUATION',
  'HOLIDAY',
  'SEASONS_GREETINGS',
  'PASSOVER',
  'KWANZAA',
  'HALLOWEEN',
  'MOTHERS_DAY',
  'NEW_YEARS_DAY',
  'BOSSES_DAY',
  'ST_PATRICKS_DAY',
  'SWEETEST_DAY',
  'CHRISTMAS',
  'BABY_SHOWER',
  'THANKSGIVING',
  'OTHER',
  'VALENTINES_DAY',
  'WEDDING',
  'SECRETARYS_DAY',
  'CHINESE_NEW_YEAR',
  'HANUKKAH',
  'CELEBRATE_FALL',
  'GRANDPARENTS_DAY',
  'INDEPENDENCE_DAY',
] as const;

export const giftCard = group({
  giftCard: group({
    number: AN(2, 255, { mask: 'pan' }),
    pin: AN(2, 255, { mask: 'secret' }),
    holder: AN(2, 255),
    message: AN(2, 160),
    type: oneOf(GIFT_CARD_TYPES),
  }),
});

/** The groups that carry a payment instrument; a payment sends one of them (wallet + card: decrypted variant). */
export const INSTRUMENT_GROUPS = [
  'card',
  'bankAccount',
  'virtualAccount',
  'tokenAccount',
  ...WALLETS,
  'giftCard',
] as const;
export type InstrumentGroup = (typeof INSTRUMENT_GROUPS)[number];
