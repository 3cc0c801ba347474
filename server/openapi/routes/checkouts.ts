/** The OpenAPI entries of server/http/routes/checkouts.ts. */
import { DONE, onEntity, PROCESSED, type RouteDoc } from '../route-doc';
import { SAMPLE } from '../samples';

const { entityId, card, unknownId } = SAMPLE;
const checkout = { entityId, amount: '92.00', currency: 'EUR', paymentType: 'DB' };

const SUBMISSION =
  'What the widget submits, form-encoded, with the checkout id as its only credential (the card number never passes through the shop). The answer is that of /v1/payments (or /v1/registrations).';

const target = (kind: 'payment' | 'registration'): RouteDoc[] => [
  {
    method: 'OPTIONS',
    path: `/v1/checkouts/:id/${kind}`,
    tag: 'Checkouts',
    summary: `CORS preflight of the ${kind} submission`,
    auth: 'public',
    content: 'empty',
    answers: { 204: 'Allowed from any origin.' },
  },
  {
    method: 'POST',
    path: `/v1/checkouts/:id/${kind}`,
    tag: 'Checkouts',
    summary: `Submit the checkout's ${kind} (the widget)`,
    description: SUBMISSION,
    auth: 'checkout',
    kind: 'checkoutPayment',
    answers: {
      200: 'Processed or pending: the checkout is completed.',
      400: 'Declined (the checkout stays open for another attempt), invalid, completed (100.350.101) or expired (200.300.404).',
      404: 'No checkout has this id.',
      429: 'Too many submissions for this checkout.',
    },
    ...(kind === 'payment'
      ? {
          examples: [
            {
              name: 'checkoutSubmission',
              summary: 'The shopper pays the checkout by card',
              path: { id: { idOf: 'checkoutToPay' } },
              params: card,
              answer: PROCESSED,
            },
          ],
        }
      : {}),
  },
  {
    method: 'GET',
    path: `/v1/checkouts/:id/${kind}`,
    schema: 'CheckoutStatus',
    tag: 'Checkouts',
    summary: `The checkout's ${kind} status`,
    description:
      '000.200.000 before any attempt, the latest declined attempt while open, then the payment for 30 minutes after completion, then 200.300.404.',
    auth: 'checkout',
    kind: 'entity',
    answers: {
      200: 'Open, or the completed payment.',
      400: 'Declined, or no session (200.300.404): expired, or an id that names no checkout these credentials may see.',
    },
    ...(kind === 'payment'
      ? {
          examples: [
            onEntity(
              { name: 'checkoutStatus', summary: 'A checkout the shopper paid', idOf: 'checkoutToPay' },
              entityId,
            ),
          ],
        }
      : {}),
  },
];

export const CHECKOUT_ROUTES: readonly RouteDoc[] = [
  {
    method: 'POST',
    path: '/v1/checkouts',
    schema: 'CheckoutCreated',
    tag: 'Checkouts',
    summary: 'Create a checkout',
    description:
      'The merchant prepares a checkout (30 minutes) for the widget: amount, currency, payment type and anything a payment takes but the instrument, which the shopper types in the widget.',
    auth: 'merchant',
    kind: 'checkout',
    answers: {
      200: 'Created (000.200.100): `id` is the checkoutId the widget script takes.',
      400: 'Invalid, or refused for this channel (a brand or currency it does not accept).',
      401: 'No or wrong credentials.',
      403: 'The token may not use this channel.',
    },
    examples: [
      {
        name: 'checkout',
        summary: 'A checkout of 92.00 EUR',
        params: checkout,
        answer: { status: 200, code: '000.200.100' },
      },
      {
        name: 'checkoutToPay',
        summary: 'A checkout the shopper pays (the submission example)',
        params: { ...checkout, merchantTransactionId: 'order-1234' },
        answer: { status: 200, code: '000.200.100' },
      },
    ],
  },
  {
    method: 'POST',
    path: '/v1/checkouts/:id',
    tag: 'Checkouts',
    summary: 'Update an open checkout',
    description:
      'What is sent replaces the stored parameter (a group as a whole); the checkout so updated is checked as a creation.',
    auth: 'merchant',
    kind: 'checkoutUpdate',
    answers: {
      200: 'Updated (000.200.101).',
      400: 'Invalid, completed (100.350.101) or expired (200.300.404).',
      404: 'No checkout has this id.',
    },
    examples: [
      {
        name: 'checkoutUpdate',
        summary: 'Change the amount',
        path: { id: { idOf: 'checkout' } },
        params: { entityId, amount: '95.00', currency: 'EUR' },
        answer: { status: 200, code: '000.200.101' },
      },
    ],
  },
  {
    method: 'GET',
    path: '/v1/checkouts/:id/session',
    tag: 'Checkouts',
    summary: "The widget's view of a checkout",
    description:
      'Public and readable from any origin (CORS): state, amount as sent, offered registrations masked.',
    auth: 'checkout',
    schema: 'CheckoutSession',
    answers: { 200: 'The session.', 404: 'No checkout has this id (200.300.404).' },
    examples: [
      {
        name: 'session',
        summary: 'The session of an open checkout',
        path: { id: { idOf: 'checkout' } },
        answer: DONE,
      },
      {
        name: 'noSession',
        summary: 'An id no checkout has',
        path: { id: `${unknownId.toUpperCase()}.local01` },
        answer: { status: 404, code: '200.300.404' },
      },
    ],
  },
  ...target('payment'),
  ...target('registration'),
];
