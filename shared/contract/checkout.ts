/**
 * What someone holding only a checkout id is shown: the widget's session, and a payment's or a
 * registration's public view (decisions, Outcomes; built by shared/engine/answers/public-view.ts),
 * an allow-list of their fields, so these objects are closed: a field the full answer gains stays
 * out until added here.
 */
import * as z from 'zod';
import { result, resultCode, stamps } from './envelope';
import { redirect } from './payment';
import { named, optionalText } from './registry';

const maskedCard = z.object({ bin: optionalText(), last4Digits: optionalText() });

export const publicPaymentView = z.object({
  id: optionalText(),
  paymentType: optionalText(),
  paymentBrand: optionalText(),
  amount: optionalText(),
  currency: optionalText(),
  merchantTransactionId: optionalText(),
  referencedId: optionalText(),
  registrationId: optionalText(),
  card: maskedCard.optional(),
  /** The submission's answer only: its sender (the widget) follows it to finish a pending payment. */
  redirect: redirect.optional(),
  result: z.object({ code: resultCode, description: z.string() }).optional(),
  shortId: optionalText(),
  ndc: optionalText(),
});

export const publicRegistrationView = z.object({
  id: optionalText(),
  paymentBrand: optionalText(),
  merchantTransactionId: optionalText(),
  card: maskedCard.optional(),
});

export type PublicPaymentView = z.infer<typeof publicPaymentView>;
export type PublicRegistrationView = z.infer<typeof publicRegistrationView>;

/** A stored card the session offers: its brand and last four digits, nothing that names its owner. */
export const offeredRegistration = z.object({
  id: z.string(),
  paymentBrand: z.string(),
  card: z.object({ last4Digits: z.string() }).optional(),
  cvvRequired: z.literal(true).optional().describe('The submission must carry the card\u2019s CVV.'),
});

const sessionFields = {
  id: z.string(),
  kind: z.enum(['payment', 'registration']),
  state: z.enum(['open', 'completed', 'expired']),
  expiresAt: z.string(),
  amount: optionalText().describe('As the merchant sent it: "92.00".'),
  currency: optionalText(),
  paymentType: optionalText(),
  shopperResultUrl: optionalText(),
  resourcePath: z.string(),
  brands: z.array(z.string()).optional().describe('The brands the channel accepts, when it restricts them.'),
  authenticationBillingFields: z
    .array(z.string())
    .optional()
    .describe('The billing fields the checkout lacks for 3-D Secure (names only).'),
  registrations: z.array(offeredRegistration),
  lastResult: z.object({ code: resultCode, description: z.string() }).optional(),
} as const;

/**
 * The widget's view of a checkout (GET /v1/checkouts/{id}/session, built by
 * shared/engine/operations/checkout/session.ts): public, so no customer or card data.
 */
export const checkoutSessionAnswer = z.object(sessionFields);

export const checkoutSession = named(
  'CheckoutSession',
  z
    .object({ ...sessionFields, result, ...stamps })
    .describe("The widget's view of a checkout: state, amount as sent, the offered registrations masked."),
);

export type OfferedRegistration = z.infer<typeof offeredRegistration>;
export type CheckoutSessionAnswer = z.infer<typeof checkoutSessionAnswer>;
export type CheckoutSession = z.infer<typeof checkoutSession>;

/** POST /v1/checkouts: the checkout's id (also its ndc), and the widget build's hash when asked. */
export const checkoutCreated = named(
  'CheckoutCreated',
  z
    .object({
      id: z.string().describe('The checkout id: the widget\u2019s `checkoutId` and the paths\u2019 {id}.'),
      integrity: optionalText().describe(
        'The SRI hash of paymentWidgets.js (integrity=true): the script tag\u2019s `integrity`.',
      ),
      result,
      ...stamps,
    })
    .describe('A checkout created: its id, then the envelope (its ndc is the id).'),
);

export type CheckoutCreated = z.infer<typeof checkoutCreated>;
