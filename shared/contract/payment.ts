/**
 * A payment as the API answers it (shared/engine/answers/response.ts builds it): the fields
 * clients read (compat: "Responses clients read"), the echoed request groups (any group the
 * request sent, as text), the card as a mask (bin and last4Digits, never the number), and, on the
 * wire, the envelope's result, buildNumber, timestamp and ndc.
 */
import * as z from 'zod';
import { result, stamps } from './envelope';
import { answerTree, echoedGroup, group, named, optionalText } from './registry';

/** `card`: the echoed card group without its secrets, the mask, and the issuer's fields (test mode). */
export const answeredCard = named(
  'AnsweredCard',
  group({
    bin: optionalText().describe('The first six digits.'),
    last4Digits: optionalText().describe('The last four digits.'),
    holder: optionalText(),
    expiryMonth: optionalText(),
    expiryYear: optionalText(),
    type: optionalText().describe('CREDIT, DEBIT … (the issuer lookup).'),
    level: optionalText(),
    country: optionalText(),
    issuer: echoedGroup().optional().describe('The issuing bank: bank, website, phone …'),
    regulatedFlag: optionalText().describe('Y or N: a regulated (interchange-capped) debit card.'),
  }),
);

/** Where the shopper goes to finish a pending payment (3-D Secure, a redirect brand). */
export const redirect = named(
  'Redirect',
  group({
    url: optionalText(),
    method: optionalText().describe('GET or POST.'),
    parameters: z.array(z.object({ name: z.string(), value: z.string() })).optional(),
  }),
);

/** `merchant.bankAccount`: where the shopper transfers to (PREPAYMENT, SEPA). */
export const merchantBankAccount = z.object({
  holder: z.string(),
  number: z.string().describe('The IBAN.'),
  bic: z.string(),
  bankName: optionalText(),
  country: z.string(),
});

/** The fields of a payment the engine answers, up to `brandResult` (response.ts: writePaymentFields). */
export const paymentFields = {
  id: z.string(),
  paymentType: z.string(),
  paymentBrand: optionalText(),
  amount: optionalText().describe('Decimal, in the currency\u2019s exponent: "92.00".'),
  currency: optionalText(),
  descriptor: optionalText(),
  merchantTransactionId: optionalText(),
  referencedId: optionalText(),
  registrationId: optionalText(),
  card: answeredCard.optional(),
  bankAccount: echoedGroup().optional().describe('The echoed bank account (holder, iban, bic …).'),
  customer: echoedGroup().optional(),
  billing: echoedGroup().optional(),
  shipping: echoedGroup().optional(),
  threeDSecure: echoedGroup().optional(),
  redirect: redirect.optional(),
  risk: echoedGroup().optional(),
  resultDetails: echoedGroup().optional(),
  customParameters: echoedGroup().optional(),
  standingInstruction: echoedGroup().optional(),
  merchant: group({ bankAccount: merchantBankAccount.optional() }).optional(),
  brandResult: optionalText().describe('The brand the BIN belongs to.'),
} as const;

/** A payment as the engine answers it (before the HTTP layer's buildNumber and timestamp). */
export const paymentAnswer = group({ ...paymentFields, result, shortId: optionalText(), ndc: z.string() });

/** A payment on the wire: POST /v1/payments, GET /v1/payments/{id} and the references. */
export const payment = named(
  'Payment',
  group({ ...paymentFields, result, shortId: optionalText(), ...stamps }).describe(
    'A payment: its ids, type, brand, amount, the card as a mask, the echoed request groups, then the envelope.',
  ),
);

/**
 * GET /v1/query: transactions, each the payment's answer with the time it was made (its own
 * timestamp and ndc), then the envelope.
 */
export const paymentList = named(
  'PaymentList',
  z
    .object({
      payments: z.array(
        group({ ...paymentFields, result, shortId: optionalText(), timestamp: z.string(), ndc: z.string() }),
      ),
      result,
      ...stamps,
    })
    .describe(
      'Transactions of the token\u2019s channels: `payments`, each with its own timestamp, then the envelope.',
    ),
);

export type PaymentList = z.infer<typeof paymentList>;
export type AnsweredCard = z.infer<typeof answeredCard>;
export type Redirect = z.infer<typeof redirect>;
export type PaymentAnswer = z.infer<typeof paymentAnswer>;
export type Payment = z.infer<typeof payment>;
export { answerTree };
