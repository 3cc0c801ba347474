/**
 * The public answers besides payments, registrations, schedules and checkouts: a stand-alone 3-D
 * Secure authentication, a checkout's payment or registration status, the result-code list, the
 * Reporting API's aggregations and the simulators' answers, each derived from what the routes
 * answer (server/openapi/contract-reads.test.ts parses real answers with them).
 */
import * as z from 'zod';
import { result, resultCode, stamps } from './envelope';
import { payment } from './payment';
import { echoedGroup, group, INPUT_CONTRACT, named, optionalText, text } from './registry';

/** An authentication's outcome as the issuer (or the directory server) gave it. */
export const threeDSecureResult = group({
  eci: optionalText().describe('The electronic commerce indicator.'),
  verificationId: optionalText().describe('The CAVV (authentication value).'),
  authenticationStatus: optionalText().describe('Y, A, N, U, R, C …: the ARes/RReq transStatus.'),
  dsTransactionId: optionalText().describe("The directory server's transaction id."),
  acsTransactionId: optionalText().describe("The access control server's transaction id."),
  version: optionalText().describe('The 3-D Secure protocol version: 2.2.0 …'),
});

/**
 * POST /v1/threeDSecure and GET /v1/threeDSecure/{id}: answered as a payment of type 3D (nothing
 * paid), its `threeDSecure` the values a later payment passes on.
 */
export const threeDSecureAuthentication = named(
  'ThreeDSecureAuthentication',
  payment
    .extend({
      paymentType: z.literal('3D'),
      threeDSecure: threeDSecureResult.optional().describe('Once authenticated (or attempted).'),
    })
    .describe(
      'A stand-alone 3-D Secure authentication: a payment of type 3D (nothing paid) whose threeDSecure values a later payment passes on; redirect while the shopper is to be challenged.',
    ),
);

/** Before the checkout's payment (or registration) is made: only the envelope, its code pending or refused. */
const checkoutStatusOnly = z
  .object({ result, ...stamps })
  .describe('No attempt yet (000.200.000), the checkout expired or not found (200.300.404).');

export const checkoutStatus = named(
  'CheckoutStatus',
  z
    .union([payment, checkoutStatusOnly])
    .describe(
      "GET /v1/checkouts/{id}/payment (or /registration): the payment once made (its latest declined attempt while open), before that only the envelope's result.",
    ),
);

export const resultCodeList = named(
  'ResultCodeList',
  z
    .object({
      resultCodes: z.array(z.object({ code: resultCode, description: z.string() })),
      result,
      ...stamps,
    })
    .describe('Every result code with its description.'),
);

/** The settlement of one merchant account's day in one currency, as the Reporting API shows it. */
export const aggregation = named(
  'Aggregation',
  group({
    id: text(),
    entityId: text(),
    date: text().describe('The settlement day, yyyy-MM-dd.'),
    currency: text(),
    status: text(),
    recordCount: text(),
    counts: echoedGroup().describe('Records by type, as text.'),
    totals: group({
      positive: text(),
      negative: text(),
      fees: text(),
      net: text(),
    }).describe('Decimal amounts in the currency, signed.'),
  }),
);

export const aggregationList = named(
  'AggregationList',
  z
    .object({ aggregations: z.array(aggregation), result, ...stamps })
    .describe('Aggregations by day, then currency.'),
);

export const aggregationDetail = named(
  'AggregationDetail',
  z
    .object({
      aggregation,
      records: z.array(echoedGroup()).describe("The reconciliation records, in the spec's API names."),
      result,
      ...stamps,
    })
    .describe('One aggregation and its records.'),
);

/** The simulated wallets' test cards (outside the envelope: the wallet sheet reads them). */
export const walletCards = named(
  'WalletCards',
  z.object({
    cards: z.array(z.object({ id: z.string(), label: z.string(), network: z.string(), type: z.string() })),
  }),
);

const HEX32 = /^[0-9a-f]{32}$/;

/**
 * POST /simulators/wallets/token's form: a simulated wallet's token for one of its test cards,
 * for a checkout (the widget's wallet sheet) or for a test channel (server-to-server).
 */
export const walletTokenRequest = z
  .object({
    wallet: z.enum(['walletA', 'walletB', 'walletC']).describe('The wallet group the token is for.'),
    card: z.string().describe("A card's `id` of GET /simulators/wallets/cards."),
    checkoutId: z
      .string()
      .regex(HEX32)
      .optional()
      .describe("An open checkout: the token is for its channel (the widget's sheet)."),
    entityId: z
      .string()
      .regex(HEX32)
      .optional()
      .describe("Without a checkout: the test channel (in production with the merchant's Bearer token)."),
  })
  .describe('checkoutId, or entityId.');
INPUT_CONTRACT.add(walletTokenRequest, { id: 'WalletTokenRequest' });

/** Its answer (outside the envelope: the wallet sheet reads it), or why not. */
export const walletToken = named(
  'WalletToken',
  z.object({
    paymentToken: z.string().describe("The payment's walletX.paymentToken (X the wallet group)."),
    cardNetwork: z.string().describe("The card's network: VISA, MASTERCARD, AMEX …"),
    cardType: z.string().describe('CREDIT or DEBIT.'),
    last4: z
      .string()
      .regex(/^[0-9]{4}$/)
      .describe("The card number's last four digits."),
  }),
);

export const walletTokenRefusal = named(
  'WalletTokenRefusal',
  z
    .object({
      error: z.string().describe('What is wrong: the wallet, the card, the checkout or the channel.'),
    })
    .describe(
      'No token: a wrong wallet or card (400), no credentials in production (401), a channel the token may not use (403).',
    ),
);

/** The simulated acquirer's record of a transaction (a transfer failure, or one the gateway did not make). */
export const acquirerRecord = named(
  'AcquirerRecord',
  group({
    id: text(),
    entityId: text(),
    paymentId: optionalText(),
    date: text(),
    status: text().describe('SUCCESS, or FAILED for a failed transfer.'),
    paymentType: text(),
    amount: text(),
    currency: text(),
    result,
    ...stamps,
  }).describe("The simulated acquirer's record, then the envelope."),
);

export type ThreeDSecureAuthentication = z.infer<typeof threeDSecureAuthentication>;
export type CheckoutStatus = z.infer<typeof checkoutStatus>;
export type ResultCodeList = z.infer<typeof resultCodeList>;
export type Aggregation = z.infer<typeof aggregation>;
export type AggregationList = z.infer<typeof aggregationList>;
export type AggregationDetail = z.infer<typeof aggregationDetail>;
export type WalletCards = z.infer<typeof walletCards>;
export type AcquirerRecord = z.infer<typeof acquirerRecord>;
export type WalletTokenRequest = z.input<typeof walletTokenRequest>;
export type WalletToken = z.infer<typeof walletToken>;
export type WalletTokenRefusal = z.infer<typeof walletTokenRefusal>;
