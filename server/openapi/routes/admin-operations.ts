/**
 * The OpenAPI entries of the admin API's payments and back office, settlements, risk rules,
 * schedules, the test clock and the webhook inbox (server/http/routes/admin/payments.ts,
 * back-office.ts, operations.ts, clock.ts, inbox.ts; docs/admin-api.md is their prose contract).
 */

import { paymentListQuery } from '../../../shared/contract/admin-queries';
import { queryParameters } from '../../../shared/contract/json-schema';
import { NOTIFICATION_TYPES } from '../../../shared/engine/answers/notifications';
import { PROCESSED, type RouteDoc } from '../route-doc';
import { SAMPLE } from '../samples';
import { ADMIN_REFUSALS } from './admin-accounts';

const { merchantId, entityId, unknownId } = SAMPLE;
const M = '/admin/v1/merchants/:merchantId';
const OK = { status: 200, code: '000.000.100' } as const;

const entry = (doc: Omit<RouteDoc, 'tag' | 'auth'>): RouteDoc => ({
  tag: 'Administration',
  auth: 'admin',
  ...doc,
  answers: { ...doc.answers, ...ADMIN_REFUSALS },
});

const DAY = { type: 'string', pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}$', format: 'date' } as const;

const reference = (path: string, what: string, example: RouteDoc['examples']): RouteDoc =>
  entry({
    method: 'POST',
    path: `${M}/payments/:id/${path}`,
    schema: 'Payment',
    summary: `${what} a payment (back office)`,
    description: `The same referencing operation, workflow rules and codes as POST /v1/payments/{id}, on a payment of this address's environment; answered as that API answers.`,
    json: 'AdminReferenceInput',
    answers: {
      200: 'The new transaction (result.code as /v1/payments/{id}).',
      400: 'Invalid or refused by the workflow.',
      404: 'No such merchant or payment.',
    },
    ...(example === undefined ? {} : { examples: example }),
  });

const PAYMENT_ROUTES: readonly RouteDoc[] = [
  entry({
    method: 'GET',
    path: `${M}/payments`,
    schema: 'AdminPaymentList',
    summary: "A merchant's payments",
    description:
      "Newest first, in keyset pages, of this address's environment. Status: success (with review and chargebacks), pending, declined (bank, 3-D Secure, AVS, soft decline), rejected (the rest).",
    query: queryParameters(paymentListQuery),
    answers: {
      200: '`{payments: [{id, paymentType, paymentBrand, amount, currency, result, status, merchantTransactionId, shortId, last4, createdAt, entityId}], next}`.',
      400: 'Invalid filters, each named.',
      404: 'No such merchant.',
    },
    examples: [
      {
        name: 'adminPayments',
        summary: 'The successful ones',
        path: { merchantId },
        params: { status: 'success' },
        answer: OK,
      },
      {
        name: 'adminPaymentsBadStatus',
        summary: 'A status that is none',
        path: { merchantId },
        params: { status: 'paid' },
        answer: { status: 400, code: '200.300.404' },
      },
    ],
  }),
  entry({
    method: 'GET',
    path: `${M}/payments/:id`,
    schema: 'AdminPaymentStory',
    summary: "A payment's page",
    description:
      'The payment (the list row, referencedId and `response`: as GET /v1/payments/{id} answers it), its related transactions, 3-D Secure and risk results, webhook deliveries and the checkout it came from.',
    answers: {
      200: '`{payment, related, threeDSecure, risk, deliveries, checkout}`.',
      404: 'No such merchant or payment.',
    },
    examples: [
      {
        name: 'adminPayment',
        summary: 'A debit and what references it',
        path: { merchantId, id: { idOf: 'debit' } },
        answer: OK,
      },
    ],
  }),
  reference('captures', 'Capture', [
    {
      name: 'adminCapture',
      summary: 'Capture part of a pre-authorization',
      path: { merchantId, id: { idOf: 'preauthorizationForBackOffice' } },
      json: { amount: '20.00', currency: 'EUR' },
      answer: PROCESSED,
    },
  ]),
  reference('refunds', 'Refund', [
    {
      name: 'adminRefund',
      summary: 'Refund part of the capture',
      path: { merchantId, id: { idOf: 'adminCapture' } },
      json: { amount: '5.00', currency: 'EUR' },
      answer: PROCESSED,
    },
  ]),
  reference('reversals', 'Reverse', [
    {
      name: 'adminReversal',
      summary: 'Release a pre-authorization',
      path: { merchantId, id: { idOf: 'preauthorizationToRelease' } },
      json: {},
      answer: PROCESSED,
    },
    {
      name: 'adminReversalRefused',
      summary: 'A pre-authorization already captured',
      path: { merchantId, id: { idOf: 'preauthorizationForBackOffice' } },
      json: {},
      answer: { status: 400, code: '700.400.300' },
    },
  ]),
];

const OPERATION_ROUTES: readonly RouteDoc[] = [
  entry({
    method: 'GET',
    path: `${M}/settlements`,
    schema: 'AdminSettlementFiles',
    summary: "A merchant's settlement files",
    description: "Newest first, of this address's environment.",
    query: {
      from: { ...DAY, description: 'The first day (default: 93 days before `to`).' },
      to: { ...DAY, description: 'The last day (default: today, UTC).' },
    },
    answers: {
      200: '`{files: [{date, entityId, records, createdAt}]}`.',
      400: 'A day that is no date.',
      404: 'No such merchant.',
    },
    examples: [{ name: 'settlements', summary: 'The last 93 days', path: { merchantId }, answer: OK }],
  }),
  entry({
    method: 'GET',
    path: `${M}/settlements/:date/file`,
    summary: 'A settlement file (the reconciliation CSV)',
    description:
      'Rebuilt from the stored records exactly as the settlement run wrote it; see /docs/reconciliation.',
    query: { entityId: { type: 'string', description: 'Required when several channels settled that day.' } },
    content: 'csv',
    answers: {
      200: 'The CSV (Content-Disposition: attachment).',
      400: 'No date, or several channels settled that day without entityId.',
      404: 'No settlement file that day.',
    },
    examples: [
      {
        name: 'settlementFileNone',
        summary: 'A day nothing was settled',
        path: { merchantId, date: '2026-01-15' },
        answer: { status: 404, code: '200.300.406' },
      },
    ],
  }),
  entry({
    method: 'POST',
    path: `${M}/settlement-runs`,
    schema: 'AdminSettlementRun',
    summary: 'Settle a past day now',
    description:
      "As `gateway settlement run`: the merchant's channels' UTC day settled (the gateway does it after 02:00 the next day); never twice.",
    json: 'AdminSettlementRunInput',
    answers: {
      200: '`{accounts: [{merchantId, entityId, date, status, settlements, file}]}` (status `settled`, `already-settled`, or `not-settled` with its `reason`; a connector channel settled from its processor’s records adds `processor`: what did not agree).',
      400: 'A day that is no date, or not over yet.',
      404: 'No such merchant.',
    },
    examples: [
      {
        name: 'settlementRunUnknownMerchant',
        summary: 'An unknown merchant',
        path: { merchantId: unknownId },
        json: { date: '2026-01-15' },
        answer: { status: 404, code: '200.300.406' },
      },
    ],
  }),
  entry({
    method: 'GET',
    path: '/admin/v1/channels/:entityId/risk-rules',
    schema: 'AdminRiskRules',
    summary: "A channel's risk rules",
    answers: { 200: '`{rules}` (null: none).', 404: 'No such channel.' },
    examples: [{ name: 'riskRules', summary: 'Read them', path: { entityId }, answer: OK }],
  }),
  entry({
    method: 'PUT',
    path: '/admin/v1/channels/:entityId/risk-rules',
    schema: 'AdminRiskRules',
    summary: "Replace a channel's risk rules",
    json: 'AdminRiskRulesInput',
    answers: { 200: '`{rules}` as stored.', 400: 'Each faulty rule field, named.', 404: 'No such channel.' },
    examples: [
      {
        name: 'riskRulesSet',
        summary: 'At most 20 payments per card an hour',
        path: { entityId },
        json: { rules: { velocity: [{ per: 'card', windowSeconds: 3600, maxCount: 20 }] } },
        answer: OK,
      },
      {
        name: 'riskRulesInvalid',
        summary: 'A velocity window of 0 seconds',
        path: { entityId },
        json: { rules: { velocity: [{ per: 'card', windowSeconds: 0, maxCount: 20 }] } },
        answer: { status: 400, code: '200.300.404' },
      },
    ],
  }),
  entry({
    method: 'GET',
    path: `${M}/schedules`,
    schema: 'AdminScheduleList',
    summary: "A merchant's scheduled payments",
    answers: {
      200: '`{schedules: [{id, state, paymentType, amount, currency, job, nextFireAt, registrationId, entityId}]}`, newest first.',
      404: 'No such merchant.',
    },
    examples: [{ name: 'adminSchedules', summary: 'List them', path: { merchantId }, answer: OK }],
  }),
  entry({
    method: 'DELETE',
    path: `${M}/schedules/:id`,
    schema: 'AdminDeschedule',
    summary: 'Deschedule',
    description: 'As DELETE /scheduling/v1/schedules/{id}.',
    answers: {
      200: '`{id, state}`.',
      400: 'Not active (100.360.303).',
      404: 'No such merchant or schedule.',
    },
    examples: [
      {
        name: 'adminUnknownSchedule',
        summary: 'An id no schedule has',
        path: { merchantId, id: unknownId },
        answer: { status: 404, code: '200.300.406' },
      },
    ],
  }),
];

const TEST_ONLY = 'Test only: 404 when the gateway runs on real time (started without GATEWAY_TEST_CLOCK).';

const TEST_ROUTES: readonly RouteDoc[] = [
  entry({
    method: 'GET',
    path: '/admin/v1/merchants/:merchantId/inbox',
    schema: 'AdminInbox',
    summary: "A merchant's webhook inbox",
    description:
      'What its inbox webhooks (`{"inbox": true}`, test channels only) received, decrypted, oldest first.',
    query: {
      type: { enum: [...NOTIFICATION_TYPES, 'test'] },
      after: { type: 'string', pattern: '^[0-9]{1,15}$', description: 'The last seq seen.' },
      limit: { type: 'integer', minimum: 1, maximum: 500, default: 100 },
    },
    answers: {
      200: '`{notifications: [{seq, webhookId, receivedAt, type, action?, payload}]}`.',
      400: 'Invalid query, each named.',
      404: 'No such merchant.',
    },
    examples: [
      {
        name: 'inbox',
        summary: 'Payment notifications',
        path: { merchantId },
        params: { type: 'PAYMENT' },
        answer: OK,
      },
    ],
  }),
  entry({
    method: 'DELETE',
    path: '/admin/v1/merchants/:merchantId/inbox',
    schema: 'AdminInboxCleared',
    summary: "Clear a merchant's webhook inbox",
    answers: { 200: '`{cleared}`: how many.', 404: 'No such merchant.' },
    examples: [{ name: 'inboxClear', summary: 'Clear it', path: { merchantId }, answer: OK }],
  }),
  entry({
    method: 'GET',
    path: '/admin/v1/figures',
    schema: 'AdminFigures',
    summary: "The day's figures",
    description:
      "The home page's figures: the day's initial payments (PA, DB) on this address's environment, hour by hour (UTC): the volume taken per currency (decimal strings), successes, declines and their rates, by brand. A merchant user's own merchant; an operator's every merchant, or the one `merchantId` names.",
    query: {
      day: { ...DAY, description: "yyyy-MM-dd (UTC); absent: the gateway's today, by its clock." },
      merchantId: { type: 'string', pattern: '^[0-9a-f]{32}$', description: 'Operators: one merchant.' },
    },
    answers: { 200: '`{figures}`.', 400: 'A bad day or merchant id.', 404: 'No such merchant.' },
    examples: [
      { name: 'figures', summary: "Today's", answer: OK },
      {
        name: 'figuresBadDay',
        summary: 'Not a date',
        params: { day: '2026-02-30' },
        answer: { status: 400, code: '200.300.404' },
      },
    ],
  }),
  entry({
    method: 'GET',
    path: '/admin/v1/channels/:entityId/circuits',
    schema: 'AdminCircuits',
    summary: "The circuit breaker's state of a channel's routes",
    description:
      'Each route in order: closed (in use), open (skipped for its cool-down after known failures), half-open (tried again). A route that has not failed is closed.',
    answers: { 200: '`{circuits: [{route, kind, state}]}`.', 404: 'No such channel.' },
    examples: [{ name: 'circuits', summary: 'A channel without routes', path: { entityId }, answer: OK }],
  }),
  entry({
    method: 'GET',
    path: '/admin/v1/environment',
    schema: 'AdminEnvironment',
    summary: 'The environment and the gateway\u2019s clock',
    answers: { 200: '`{environment, clock}`: clock null on real time.' },
    examples: [{ name: 'environment', summary: 'The banner\u2019s facts', answer: OK }],
  }),
  entry({
    method: 'GET',
    path: '/admin/v1/clock',
    schema: 'AdminClock',
    summary: "The test clock's time",
    description: TEST_ONLY,
    answers: { 200: '`{now, testClock: true, frozen}`.', 404: 'No test clock.' },
    examples: [{ name: 'clock', summary: 'Where it is', answer: OK }],
  }),
  entry({
    method: 'POST',
    path: '/admin/v1/clock',
    schema: 'AdminClockMove',
    summary: 'Move the test clock forward',
    description: `${TEST_ONLY} Answered once everything that fell due (checkout expiry, pending payments, shopperResultUrl notices, schedules, webhooks, settlement) ran, in time order.`,
    json: 'AdminClockMoveInput',
    answers: {
      200: '`{now, testClock, frozen, ran: {checkoutExpiry, pendingPayments, shopperResultUrl, schedules, webhooks, settlement}}`.',
      400: 'Backwards, both or neither field, or a live channel exists.',
      404: 'No test clock.',
    },
    examples: [
      { name: 'clockAdvance', summary: 'A minute on', json: { advance: '1m' }, answer: OK },
      {
        name: 'clockBackwards',
        summary: 'A time already past',
        json: { to: '2020-01-01T00:00:00Z' },
        answer: { status: 400, code: '200.300.404' },
      },
    ],
  }),
];

export const ADMIN_OPERATION_ROUTES: readonly RouteDoc[] = [
  ...PAYMENT_ROUTES,
  ...OPERATION_ROUTES,
  ...TEST_ROUTES,
];
