/** The OpenAPI entries of server/http/routes/payments.ts, three-d-secure.ts and registrations.ts. */
import { onEntity, PROCESSED, type RouteDoc } from '../route-doc';
import { SAMPLE } from '../samples';

const { entityId, card, unknownId } = SAMPLE;
const debit = { entityId, amount: '92.00', currency: 'EUR', paymentType: 'DB', ...card };

const PAYMENT_ANSWERS = {
  200: 'Processed (result.code 000.x) or pending (000.200.x, with redirect.url for the shopper).',
  400: 'Declined or invalid: result.code says which; invalid parameters are listed in result.parameterErrors.',
  401: 'No or wrong credentials.',
  403: 'The token may not use this channel or environment.',
  413: 'The body is too large or has too many parameters.',
  429: 'Too many requests for this token and operation: Retry-After says when to try again.',
} as const;

export const PAYMENT_ROUTES: readonly RouteDoc[] = [
  {
    method: 'POST',
    path: '/v1/payments',
    tag: 'Payments',
    summary: 'Initial payment',
    description:
      'A debit (DB), pre-authorization (PA), credit (CD), risk-screened PA.CP or stand-alone risk check (RE, RI) with the instrument (`card.number` …, a wallet, a bank account, a virtual account, a gift card or a network token). Send an `Idempotency-Key` header to make retries safe.',
    auth: 'merchant',
    schema: 'Payment',
    kind: 'payment',
    answers: PAYMENT_ANSWERS,
    examples: [
      { name: 'debit', summary: 'A card debit', params: debit, answer: PROCESSED },
      {
        name: 'preauthorization',
        summary: 'A card pre-authorization, captured later',
        params: { ...debit, paymentType: 'PA' },
        answer: PROCESSED,
      },
      {
        name: 'preauthorizationForBackOffice',
        summary: 'A pre-authorization the admin API captures (Administration)',
        params: { ...debit, amount: '50.00', paymentType: 'PA' },
        answer: PROCESSED,
      },
      {
        name: 'preauthorizationToRelease',
        summary: 'A pre-authorization the admin API reverses (Administration)',
        params: { ...debit, amount: '30.00', paymentType: 'PA' },
        answer: PROCESSED,
      },
      {
        name: 'declined',
        summary: 'A card the simulated issuer declines',
        params: { ...debit, 'card.number': '4000000000000002' },
        answer: { status: 400, code: '800.100.151' },
      },
      {
        name: 'invalidAmount',
        summary: 'An invalid parameter, named in parameterErrors',
        params: { ...debit, amount: '92.0' },
        answer: { status: 400, code: '200.300.404' },
      },
    ],
  },
  {
    method: 'POST',
    path: '/v1/payments/:id',
    tag: 'Payments',
    summary: 'Capture, reverse, refund or rebill a payment',
    description: 'A referencing payment (CP, RV, RF, RB) on the payment the path names.',
    auth: 'merchant',
    schema: 'Payment',
    kind: 'referencing',
    answers: {
      ...PAYMENT_ANSWERS,
      400: 'Declined, refused by the workflow or invalid; an id no payment of this merchant has is answered as the family answers it: CP 700.400.510, RV 700.400.530, RF 600.200.500, RB 700.100.100.',
    },
    examples: [
      {
        name: 'capture',
        summary: 'Capture a pre-authorization',
        path: { id: { idOf: 'preauthorization' } },
        params: { entityId, amount: '92.00', currency: 'EUR', paymentType: 'CP' },
        answer: PROCESSED,
      },
      {
        name: 'refund',
        summary: 'Refund part of a debit',
        path: { id: { idOf: 'debit' } },
        params: { entityId, amount: '10.00', currency: 'EUR', paymentType: 'RF' },
        answer: PROCESSED,
      },
      {
        name: 'refundUnknown',
        summary: 'A refund of an id no payment has',
        path: { id: unknownId },
        params: { entityId, amount: '10.00', currency: 'EUR', paymentType: 'RF' },
        answer: { status: 400, code: '600.200.500' },
      },
    ],
  },
  {
    method: 'GET',
    path: '/v1/payments/:id',
    tag: 'Payments',
    summary: 'Payment status',
    auth: 'merchant',
    schema: 'Payment',
    kind: 'entity',
    answers: { 200: 'The payment as it was answered.', 404: 'No payment of this merchant has this id.' },
    examples: [
      onEntity({ name: 'paymentStatus', summary: 'The status of a debit', idOf: 'debit' }, entityId),
      {
        name: 'paymentStatusLegacy',
        summary: 'The same with the deprecated authentication.* parameters instead of the Bearer token',
        path: { id: { idOf: 'debit' } },
        params: {
          entityId,
          'authentication.userId': SAMPLE.userId,
          'authentication.password': SAMPLE.password,
        },
        answer: PROCESSED,
      },
      {
        name: 'unknownPayment',
        summary: 'An id no payment has',
        path: { id: unknownId },
        params: { entityId },
        answer: { status: 404, code: '700.400.580' },
      },
    ],
  },
  {
    method: 'POST',
    path: '/v1/threeDSecure',
    schema: 'ThreeDSecureAuthentication',
    tag: '3-D Secure',
    summary: 'Stand-alone 3-D Secure authentication',
    description:
      'Authenticates the card with its issuer, nothing paid. A challenge answers 000.200.000 with redirect.url for the shopper; the result values (eci, verificationId …) are then passed on by a payment.',
    auth: 'merchant',
    kind: 'threeDSecure',
    answers: PAYMENT_ANSWERS,
    examples: [
      {
        name: 'authentication',
        summary: 'A frictionless authentication (test card 4200000000000091)',
        params: {
          entityId,
          amount: '92.00',
          currency: 'EUR',
          paymentBrand: 'VISA',
          'card.number': '4200000000000091',
          'card.expiryMonth': '05',
          'card.expiryYear': '2034',
          'card.holder': 'Jane Jones',
          ...SAMPLE.browser,
          ...SAMPLE.billing,
          shopperResultUrl: 'https://shop.example/return',
        },
        answer: PROCESSED,
      },
    ],
  },
  {
    method: 'GET',
    path: '/v1/threeDSecure/:id',
    schema: 'ThreeDSecureAuthentication',
    tag: '3-D Secure',
    summary: 'Authentication status',
    auth: 'merchant',
    kind: 'entity',
    answers: {
      200: 'The authentication and its values.',
      404: 'No authentication of this merchant has this id.',
    },
    examples: [
      onEntity(
        { name: 'authenticationStatus', summary: 'The result of an authentication', idOf: 'authentication' },
        entityId,
      ),
    ],
  },
  {
    method: 'POST',
    path: '/v1/registrations',
    tag: 'Registrations',
    summary: 'Store payment details',
    auth: 'merchant',
    schema: 'Registration',
    kind: 'registration',
    answers: PAYMENT_ANSWERS,
    examples: [
      {
        name: 'registration',
        summary: 'Store a card',
        params: { entityId, ...card },
        answer: PROCESSED,
      },
      {
        name: 'registrationToDelete',
        summary: 'Store another card (the one the DELETE example deletes)',
        params: { entityId, ...card, 'card.number': '5454545454545454', paymentBrand: 'MASTER' },
        answer: PROCESSED,
      },
    ],
  },
  {
    method: 'GET',
    path: '/v1/registrations/:id',
    tag: 'Registrations',
    summary: 'A registration',
    auth: 'merchant',
    schema: 'Registration',
    kind: 'entity',
    answers: {
      200: 'The registration, its card masked.',
      404: 'No registration of this merchant has this id.',
    },
    examples: [
      onEntity({ name: 'registrationStatus', summary: 'Read a stored card', idOf: 'registration' }, entityId),
    ],
  },
  {
    method: 'DELETE',
    path: '/v1/registrations/:id',
    tag: 'Registrations',
    summary: 'Delete a registration',
    auth: 'merchant',
    kind: 'entity',
    answers: { 200: 'Deleted.', 404: 'No registration of this merchant has this id.' },
    examples: [
      onEntity(
        { name: 'registrationDelete', summary: 'Delete a stored card', idOf: 'registrationToDelete' },
        entityId,
      ),
    ],
  },
  {
    method: 'POST',
    path: '/v1/registrations/:id/payments',
    tag: 'Registrations',
    summary: 'Pay with a registration',
    auth: 'merchant',
    schema: 'Payment',
    kind: 'registrationPayment',
    answers: { ...PAYMENT_ANSWERS, 404: 'No registration of this merchant has this id.' },
    examples: [
      {
        name: 'registrationPayment',
        summary: 'A debit with a stored card',
        path: { id: { idOf: 'registration' } },
        params: { entityId, amount: '15.00', currency: 'EUR', paymentType: 'DB' },
        answer: PROCESSED,
      },
    ],
  },
];
