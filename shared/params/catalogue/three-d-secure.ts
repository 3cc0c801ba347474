/** Spec section: 3-D Secure (authentication message, proof of external authentication, exemptions, scheme data). */
import type { Format } from '../formats';
import { dict, group } from '../nodes';
import { check, has, requires, str } from '../rules';
import { AN, BOOL, CURRENCY, decimal, N, oneOf, pattern } from './dsl';

/** The spec names "six card-network keys" for threeDSecure.v2.<network>.*; these are the six. */
export const THREE_DS_NETWORKS = ['visa', 'mastercard', 'amex', 'discover', 'jcb', 'unionpay'] as const;

const requestor = group({ requestorId: AN(1, 100), requestorName: AN(1, 100) });

const SCHEME_KEY: Format = {
  t: 'pattern',
  re: /^[A-Z0-9]{2}-(ITEMSNB|SCORE_MERCHANT|USECASE)$/,
  says: 'XX-ITEMSNB, XX-SCORE_MERCHANT or XX-USECASE, XX being a domestic scheme prefix',
};
const TWO_DIGITS: Format = { t: 'N', min: 2, max: 2 };
const schemeValue = (key: string): Format | undefined =>
  key.endsWith('-SCORE_MERCHANT') ? { t: 'AN', min: 1, max: 20 } : TWO_DIGITS;

/**
 * XX-USECASE is "required when message category is PA, or NPA with requestor authentication
 * indicator 02 or 03". The message category is PA unless threeDSecure.npa is true; indicators 02
 * and 03 are RECURRING and INSTALLMENT.
 */
const useCaseRequired = check({
  paths: ['schemeData', 'npa', 'authenticationInd'],
  says: 'schemeData[XX-USECASE] is required for a payment authentication, or a non-payment one for RECURRING or INSTALLMENT.',
  requiredness: true,
  apply(g, report) {
    const data = g.schemeData;
    if (data === undefined || typeof data !== 'object' || Array.isArray(data)) return;
    const npa = str(g, 'npa') === 'true';
    const ind = str(g, 'authenticationInd');
    if (npa && ind !== 'RECURRING' && ind !== 'INSTALLMENT') return;
    const schemes = new Set(Object.keys(data).map((k) => k.slice(0, 2)));
    for (const xx of schemes) {
      if (!(`${xx}-USECASE` in data))
        report(`schemeData[${xx}-USECASE]`, 'is required for this message category', null);
    }
  },
});

/**
 * challengeIndicator and exemptionFlag are "v2.2 or higher" (spec): beside a version before 2.2
 * they cannot be honoured, so they are refused; without a version the gateway's own (2.2.0) holds.
 */
const needs22 = check({
  paths: ['challengeIndicator', 'exemptionFlag', 'version'],
  says: 'threeDSecure.challengeIndicator and threeDSecure.exemptionFlag need threeDSecure.version 2.2 or higher when a version is sent.',
  apply(g, report) {
    const version = str(g, 'version');
    const parts = version === undefined ? undefined : /^([12])\.([0-9])\.[0-9]$/.exec(version);
    if (parts === undefined || parts === null) return;
    if (Number(parts[1]) > 2 || (Number(parts[1]) === 2 && Number(parts[2]) >= 2)) return;
    for (const name of ['challengeIndicator', 'exemptionFlag']) {
      const value = str(g, name);
      if (value !== undefined)
        report(name, `needs threeDSecure.version 2.2 or higher (sent: ${version})`, value);
    }
  },
});

export const threeDSecure = group({
  threeDSecure: group(
    {
      // Authentication-message fields.
      amount: decimal(9, 2, { exact: true }),
      currency: CURRENCY(),
      deviceInfo: AN(1, 65_536, {
        req: 'C',
        note: 'As returned by the mobile SDK; starts the app-based v2 flow.',
      }),
      merchant: group({
        name: AN(1, 100),
        url: AN(1, 2048),
        country: pattern(/^[A-Za-z]{3}$/, '3 letters'),
      }),
      v2: group(
        Object.fromEntries(THREE_DS_NETWORKS.map((n) => [n, requestor])) as Record<
          (typeof THREE_DS_NETWORKS)[number],
          typeof requestor
        >,
      ),
      channel: pattern(/^(0?[1-9]|[1-9][0-9])$/, 'a number 1 to 99 in up to 2 digits', {
        note: 'Marks a merchant-initiated (3RI) authentication request.',
      }),
      npa: BOOL({ note: 'Non-payment authentication.' }),
      decoupled: BOOL({ note: 'Decoupled authentication.' }),
      threeRIInd: oneOf(['RECURRING', 'SPLIT_SHIPMENT', 'DELAYED_SHIPMENT']),
      authenticationInd: oneOf([
        'PAYMENT',
        'RECURRING',
        'INSTALLMENT',
        'ADD_CARD',
        'MAINTAIN_CARD',
        'EMV_ID',
        'BILLING_AGREEMENT',
        'SPLIT_SHIPMENT',
        '_DELAYED_SHIPMENT',
        'SPLIT_PAYMENT',
      ]),
      disable: BOOL({ note: 'true bypasses 3-D Secure even when configured.' }),
      // Proof of authentication by an external server.
      xid: pattern(
        /^[A-Za-z0-9+/]{27}=$/,
        'the 3-D Secure 1 transaction id: 20 bytes in base64, 28 characters',
        {
          note: 'The external 3-D Secure 1 transaction id, passed through.',
        },
      ),
      eci: pattern(/^0[1-8]$/, '2 digits, 01 to 08', { req: 'C' }),
      verificationId: AN(28, 28, { req: 'C', mask: 'secret', note: 'CAVV or AAV.' }),
      authenticationStatus: oneOf(['Y', 'A', 'U', 'N'], { req: 'C' }),
      dsTransactionId: AN(36, 36),
      acsTransactionId: AN(36, 36),
      challengeMandatedIndicator: oneOf(['Y', 'N']),
      version: pattern(/^[12]\.[0-9]\.[0-9]$/, 'a version such as 2.2.0'),
      authType: pattern(/^0[1-4]$/, '01 to 04'),
      transactionStatusReason: N(2, 2),
      // Exemption requests, valid in either message.
      challengeIndicator: pattern(/^0[1-9]$/, '01 to 09'),
      exemptionFlag: pattern(/^0[1-4]$/, '01 to 04'),
      schemeData: dict(SCHEME_KEY, schemeValue, 'Domestic-scheme data.'),
    },
    [
      // A CAVV means nothing without the ECI that says what kind of authentication it proves.
      requires('verificationId', 'eci'),
      useCaseRequired,
      needs22,
    ],
  ),
});

/** Whether the request carries an external authentication server's values, to be passed through. */
export const hasExternalAuthentication = (root: Parameters<typeof has>[0]): boolean =>
  has(root, 'threeDSecure.eci') ||
  has(root, 'threeDSecure.verificationId') ||
  has(root, 'threeDSecure.xid') ||
  has(root, 'threeDSecure.dsTransactionId');
