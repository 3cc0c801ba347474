/**
 * The OpenAPI entries of server/http/routes/simulators/shopper.ts, acquirer.ts and
 * acquirer-records.ts.
 */
import { WALLET_CARDS } from '../../processors/simulator/wallets';
import { PROCESSED, type RouteDoc } from '../route-doc';
import { SAMPLE } from '../samples';

const { entityId } = SAMPLE;
const HEX32 = { type: 'string', pattern: '^[0-9a-f]{32}$' } as const;

/** Their credentials: as the acquirer's chargebacks (none in test mode; the Bearer token in production). */
const ACQUIRER_ANSWERS = {
  401: 'In production, no credentials.',
  403: 'The token may not use the channel.',
} as const;

const TEST_ONLY = 'Test mode only (the simulated issuer and providers); see /docs/test-data.';

const pageRoutes = (path: string, what: string): RouteDoc[] =>
  (['GET', 'POST'] as const).map((method) => ({
    method,
    path,
    tag: 'Simulators',
    summary: `${what} (${method})`,
    description: `${TEST_ONLY} Where redirect.url of a pending payment sends the shopper, with redirect.parameters.`,
    auth: 'public',
    content: 'html',
    answers: { 200: 'The page.', 400: 'Unknown or finished session.' },
  }));

const answerRoute = (path: string, what: string): RouteDoc => ({
  method: 'POST',
  path,
  tag: 'Simulators',
  summary: what,
  description: `${TEST_ONLY} The page's form posts the shopper's answer; the payment ends and the shopper returns to shopperResultUrl.`,
  auth: 'public',
  content: 'html',
  answers: {
    303: 'To shopperResultUrl.',
    200: 'A page telling the widget (returnMode=message).',
    400: 'Unknown or finished session.',
  },
});

export const SIMULATOR_ROUTES: readonly RouteDoc[] = [
  ...pageRoutes('/simulators/acs/challenge', "The simulated issuer's 3-D Secure challenge page"),
  answerRoute('/simulators/acs/challenge/answer', "The shopper's answer to the challenge"),
  ...pageRoutes('/simulators/redirect', "A simulated redirect method's provider page"),
  answerRoute('/simulators/redirect/answer', "The shopper's answer on the provider page"),
  {
    method: 'POST',
    path: '/simulators/acs/app/challenge',
    tag: 'Simulators',
    summary: "App-based 3-D Secure: the SDK's challenge with the access control server",
    description: `${TEST_ONLY} A CReq (JSON) naming acsTransID with challengeDataEntry or challengeCancel; the CRes says transStatus.`,
    auth: 'public',
    answers: { 200: 'The CRes.', 400: 'Unknown transaction or malformed CReq.' },
  },
  {
    method: 'GET',
    path: '/simulators/simulator.css',
    tag: 'Simulators',
    summary: "The simulators' pages' style",
    auth: 'public',
    content: 'css',
    answers: { 200: 'The style sheet.' },
    examples: [{ name: 'simulatorStyle', summary: 'The style sheet', answer: { status: 200 } }],
  },
  {
    method: 'GET',
    path: '/simulators/return.js',
    tag: 'Simulators',
    summary: "The simulators' return page script",
    auth: 'public',
    content: 'javascript',
    answers: { 200: 'The script.' },
    examples: [{ name: 'simulatorReturnScript', summary: 'The script', answer: { status: 200 } }],
  },
  {
    method: 'GET',
    path: '/simulators/wallets/cards',
    tag: 'Simulators',
    summary: "The simulated wallets' test cards",
    description: TEST_ONLY,
    auth: 'public',
    content: 'data',
    data: { $ref: '#/components/schemas/WalletCards' },
    answers: { 200: 'The cards a simulated wallet sheet offers.' },
    examples: [
      {
        name: 'walletCards',
        summary: 'The cards',
        // what the route answers, from the same table (no card number: the sheet shows labels)
        answer: {
          status: 200,
          body: { cards: WALLET_CARDS.map(({ id, label, network, type }) => ({ id, label, network, type })) },
        },
      },
    ],
  },
  {
    method: 'POST',
    path: '/simulators/wallets/token',
    tag: 'Simulators',
    summary: 'A simulated wallet payment token',
    description: `${TEST_ONLY} What the wallet sheet returns for the payment's walletX.paymentToken.`,
    auth: 'public',
    content: 'data',
    form: { $ref: '#/components/schemas/WalletTokenRequest' },
    data: { $ref: '#/components/schemas/WalletToken' },
    // the route's own refusals, or the envelope of a refused token (401) or admission
    dataRefused: {
      anyOf: [{ $ref: '#/components/schemas/WalletTokenRefusal' }, { $ref: '#/components/schemas/Envelope' }],
    },
    answers: {
      200: 'The token.',
      400: 'Unknown wallet or card, or no open checkout.',
      401: "In production, without a checkout: no merchant's Bearer token.",
      403: 'The token may not use the channel.',
    },
  },
  {
    method: 'POST',
    path: '/simulators/acquirer/chargebacks',
    schema: 'Payment',
    tag: 'Simulators',
    summary: 'The simulated acquirer raises a chargeback',
    description: `${TEST_ONLY} Form: entityId, id (the payment), optional amount and chargebackResultCode. In production the merchant's Bearer token is required.`,
    auth: 'public',
    form: {
      type: 'object',
      required: ['entityId', 'id'],
      properties: {
        entityId: { ...HEX32, description: 'The test-mode channel.' },
        id: { ...HEX32, description: 'The payment charged back.' },
        amount: {
          type: 'string',
          pattern: '^[0-9]{1,10}\\.[0-9]{2}$',
          description: 'Less than the whole amount.',
        },
        chargebackResultCode: { type: 'string', pattern: '^[0-9]{3}\\.[0-9]{3}\\.[0-9]{3}$' },
      },
    },
    answers: {
      200: 'The chargeback (CB) as a payment.',
      400: 'Refused (not a simulated payment, amount too large …).',
      401: 'In production, no credentials.',
      403: 'The token may not use the channel.',
      404: 'No payment of the simulated acquirer with this id on this entity.',
    },
    examples: [
      {
        name: 'acquirerChargebackUnknown',
        summary: 'A payment id that names none',
        params: { entityId, id: SAMPLE.unknownId },
        answer: { status: 404, code: '200.300.406' },
      },
    ],
  },
  {
    method: 'POST',
    path: '/simulators/acquirer/transfer-failures',
    schema: 'AcquirerRecord',
    tag: 'Simulators',
    summary: "The simulated acquirer reports a payment's transfer failed",
    description: `${TEST_ONLY} A successful test-mode bank-account payment (DB, CP, RB, RF or CD with bankAccount.*): its day settles it FAILED (no fee, not in the totals). Reported once per payment: a repeat answers the first report. A day already settled takes no more records.`,
    auth: 'public',
    form: {
      type: 'object',
      required: ['entityId', 'id'],
      properties: {
        entityId: { ...HEX32, description: 'The test-mode channel.' },
        id: { ...HEX32, description: 'The payment.' },
      },
    },
    answers: {
      200: 'The acquirer record `{id, entityId, paymentId, date, status: FAILED, paymentType, amount, currency, …}` (000.100.110).',
      400: 'Not a transfer (a card payment, or one that moved no money), or its day is settled already.',
      404: 'No payment of the simulated acquirer with this id on this entity.',
      ...ACQUIRER_ANSWERS,
    },
    examples: [
      {
        name: 'transferFailureOfCard',
        summary: 'A card payment: only a bank transfer can fail',
        params: { entityId, id: { idOf: 'debit' } },
        answer: { status: 400, code: '200.300.404' },
      },
    ],
  },
  {
    method: 'POST',
    path: '/simulators/acquirer/records',
    schema: 'AcquirerRecord',
    tag: 'Simulators',
    summary: 'The simulated acquirer reports a transaction the gateway did not make',
    description: `${TEST_ONLY} Settled NOT_MATCHED on its day, unless its merchantTransactionId finds a payment of that day. A day already settled takes no more records.`,
    auth: 'public',
    form: {
      type: 'object',
      required: ['entityId', 'amount', 'currency'],
      properties: {
        entityId: { ...HEX32, description: 'The test-mode channel.' },
        amount: { type: 'string', pattern: '^[0-9]{1,10}(\\.[0-9]{2})?$' },
        currency: { type: 'string', pattern: '^[A-Z]{3}$' },
        paymentType: { enum: ['DB', 'CD', 'RF'], default: 'DB' },
        paymentBrand: { type: 'string', maxLength: 32, description: 'A brand the gateway knows.' },
        merchantTransactionId: { type: 'string', minLength: 8, maxLength: 255 },
        date: { type: 'string', format: 'date', description: 'yyyy-MM-dd (default: today, UTC).' },
      },
    },
    answers: {
      200: 'The acquirer record `{id, entityId, date, status: SUCCESS, paymentType, amount, currency, …}` (000.100.110).',
      400: 'Invalid parameters, each named, or its day is settled already.',
      404: 'No test-mode entity with this entityId.',
      ...ACQUIRER_ANSWERS,
    },
    examples: [
      {
        name: 'acquirerRecord',
        summary: 'A debit only the acquirer knows',
        params: {
          entityId,
          amount: '12.50',
          currency: 'EUR',
          paymentBrand: 'VISA',
          merchantTransactionId: 'acquirer-only-0001',
        },
        answer: PROCESSED,
      },
      {
        name: 'acquirerRecordWithoutAmount',
        summary: 'A missing amount',
        params: { entityId, currency: 'EUR' },
        answer: { status: 400, code: '200.300.404' },
      },
    ],
  },
];
