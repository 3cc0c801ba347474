/**
 * The OpenAPI entries of the admin API's webhooks, deliveries, channels and chargebacks
 * (server/http/routes/admin/webhooks.ts, channels.ts, back-office.ts; JSON in and out;
 * docs/admin-api.md is its contract). A route added there gets its entry here or in
 * admin-accounts.ts / admin-operations.ts; the role it needs is the route table's.
 */
import { deliveryQuery } from '../../../shared/contract/admin-queries';
import { queryParameters } from '../../../shared/contract/json-schema';
import { DONE, PROCESSED, type RouteDoc } from '../route-doc';
import { SAMPLE } from '../samples';
import { ADMIN_REFUSALS } from './admin-accounts';

const { merchantId, entityId, unknownId } = SAMPLE;
const M = '/admin/v1/merchants/:merchantId';

const OPERATOR = ADMIN_REFUSALS;

export const ADMIN_ROUTES: readonly RouteDoc[] = [
  {
    method: 'POST',
    path: `${M}/webhooks`,
    schema: 'AdminWebhookRegistered',
    tag: 'Administration',
    summary: 'Register a webhook',
    auth: 'admin',
    json: 'AdminWebhookInput',
    answers: {
      201: 'Registered: the webhook and its key (shown once).',
      400: 'Invalid, or the URL did not answer the test notification.',
      404: 'No such merchant.',
      ...OPERATOR,
    },
    examples: [
      {
        name: 'webhookInbox',
        summary: "Into the gateway's inbox (test channels)",
        path: { merchantId },
        json: { inbox: true, types: ['PAYMENT'] },
        answer: { status: 201, code: '000.000.100' },
      },
      {
        name: 'webhookWithoutUrl',
        summary: 'A webhook without its URL',
        path: { merchantId },
        json: { types: ['PAYMENT'] },
        answer: { status: 400, code: '200.300.404' },
      },
    ],
  },
  {
    method: 'GET',
    path: `${M}/webhooks`,
    schema: 'AdminWebhookList',
    tag: 'Administration',
    summary: "A merchant's webhooks",
    auth: 'admin',
    answers: { 200: '`webhooks`.', 404: 'No such merchant.', ...OPERATOR },
    examples: [
      {
        name: 'webhooks',
        summary: 'List them',
        path: { merchantId },
        answer: DONE,
      },
    ],
  },
  {
    method: 'GET',
    path: `${M}/webhooks/:id`,
    schema: 'AdminWebhook',
    tag: 'Administration',
    summary: 'A webhook',
    auth: 'admin',
    answers: { 200: 'The webhook (never its key).', 404: 'No such merchant or webhook.', ...OPERATOR },
    examples: [
      {
        name: 'webhook',
        summary: 'The inbox webhook',
        path: { merchantId, id: { idOf: 'webhookInbox' } },
        answer: DONE,
      },
      {
        name: 'unknownWebhook',
        summary: 'An id no webhook has',
        path: { merchantId, id: unknownId },
        answer: { status: 404, code: '200.300.406' },
      },
    ],
  },
  {
    method: 'DELETE',
    path: `${M}/webhooks/:id`,
    tag: 'Administration',
    summary: 'Delete a webhook',
    auth: 'admin',
    answers: { 200: 'Deleted.', 404: 'No such merchant or webhook.', ...OPERATOR },
    examples: [
      {
        name: 'webhookDelete',
        summary: 'Delete the inbox webhook',
        path: { merchantId, id: { idOf: 'webhookInbox' } },
        answer: DONE,
      },
    ],
  },
  {
    method: 'GET',
    path: `${M}/channels`,
    schema: 'AdminChannelList',
    tag: 'Administration',
    summary: "A merchant's channels",
    auth: 'admin',
    answers: { 200: '`channels`: each with its mode and settings.', 404: 'No such merchant.', ...OPERATOR },
    examples: [
      {
        name: 'channels',
        summary: 'List them',
        path: { merchantId },
        answer: DONE,
      },
    ],
  },
  {
    method: 'POST',
    path: `${M}/channels`,
    schema: 'AdminChannel',
    tag: 'Administration',
    summary: 'Create a channel',
    auth: 'admin',
    json: 'AdminChannelInput',
    answers: {
      201: 'Created: the channel (its entityId).',
      400: 'Invalid fields, each named.',
      404: 'No such merchant.',
      ...OPERATOR,
    },
    examples: [
      {
        name: 'channelCreate',
        summary: 'A test channel taking EUR cards',
        path: { merchantId },
        json: { name: 'Web shop EUR', currencies: ['EUR'] },
        answer: { status: 201, code: '000.000.100' },
      },
    ],
  },
  {
    method: 'GET',
    path: '/admin/v1/channels/:entityId',
    schema: 'AdminChannel',
    tag: 'Administration',
    summary: 'A channel',
    auth: 'admin',
    answers: { 200: 'The channel and its settings.', 404: 'No such channel.', ...OPERATOR },
    examples: [
      {
        name: 'channel',
        summary: 'Read it',
        path: { entityId },
        answer: DONE,
      },
    ],
  },
  ...(['PATCH', 'POST'] as const).map(
    (method): RouteDoc => ({
      method,
      path: '/admin/v1/channels/:entityId',
      schema: 'AdminChannel',
      tag: 'Administration',
      summary: `Change a channel's settings${method === 'POST' ? ' (for clients without PATCH)' : ''}`,
      auth: 'admin',
      json: 'AdminChannelChangeInput',
      answers: {
        200: 'The channel as changed (with `connectorSetup` once, when the change set its connector).',
        400: 'Invalid fields, each named.',
        404: 'No such channel.',
        ...OPERATOR,
      },
      ...(method === 'PATCH'
        ? {
            examples: [
              {
                name: 'channelUpdate',
                summary: 'Turn 3-D Secure on',
                path: { entityId },
                json: { threeDSecure: true },
                answer: DONE,
              },
            ],
          }
        : {}),
    }),
  ),
  {
    method: 'POST',
    path: '/admin/v1/channels/:entityId/connector/check',
    schema: 'AdminConnectorCheck',
    tag: 'Administration',
    summary: "Check the connection of a channel's connector",
    description:
      "One harmless call to the channel's processor with its credentials (nothing is charged or changed there): whether it answered, whether it accepted the credentials, and how long it took. Audited as channel.connector-check.",
    auth: 'admin',
    answers: {
      200: '`connectorCheck`: `{kind, baseUrl, reachable, credentials, latencyMs, status?, detail}`.',
      400: 'The channel has no connector (parameterErrors name `connector`).',
      404: 'No such channel.',
      ...OPERATOR,
    },
    examples: [
      {
        name: 'connectorCheckNone',
        summary: 'A channel on the simulator',
        path: { entityId },
        answer: { status: 400, code: '200.300.404' },
      },
    ],
  },
  {
    method: 'GET',
    path: `${M}/webhook-deliveries`,
    schema: 'AdminDeliveryList',
    tag: 'Administration',
    summary: "A merchant's notification log",
    description: 'Newest first, in pages (`before`: the last id seen).',
    query: queryParameters(deliveryQuery),
    auth: 'admin',
    answers: {
      200: '`deliveries`, newest first.',
      400: 'Invalid query.',
      404: 'No such merchant.',
      ...OPERATOR,
    },
    examples: [
      {
        name: 'deliveries',
        summary: 'The latest',
        path: { merchantId },
        answer: DONE,
      },
    ],
  },
  {
    method: 'GET',
    path: `${M}/webhook-deliveries/:id`,
    schema: 'AdminDelivery',
    tag: 'Administration',
    summary: 'One delivery and its attempts',
    auth: 'admin',
    answers: { 200: 'The delivery.', 404: 'No such merchant or delivery.', ...OPERATOR },
    examples: [
      {
        name: 'unknownDelivery',
        summary: 'An id no delivery has',
        path: { merchantId, id: '999999' },
        answer: { status: 404, code: '200.300.406' },
      },
    ],
  },
  {
    method: 'POST',
    path: `${M}/webhook-deliveries/:id/redeliver`,
    schema: 'AdminDelivery',
    tag: 'Administration',
    summary: 'Send a delivery again',
    description:
      'A finished delivery (delivered or dead-lettered) whose webhook was not removed; 400 with the reason otherwise.',
    auth: 'admin',
    answers: {
      200: 'Queued again.',
      400: 'Not dead-lettered.',
      404: 'No such merchant or delivery.',
      ...OPERATOR,
    },
    examples: [
      {
        name: 'redeliverUnknown',
        summary: 'An id no delivery has',
        path: { merchantId, id: '999999' },
        answer: { status: 404, code: '200.300.406' },
      },
    ],
  },
  {
    method: 'POST',
    path: `${M}/payments/:id/chargebacks`,
    schema: 'Payment',
    tag: 'Administration',
    summary: 'Book a chargeback',
    description: 'A CB against a DB, CP or RB (the whole amount unless `amount` says less).',
    auth: 'admin',
    json: 'AdminChargebackInput',
    answers: {
      200: 'The chargeback as a payment.',
      400: 'Invalid or refused.',
      404: 'No such merchant or payment.',
      ...OPERATOR,
    },
    examples: [
      {
        name: 'chargeback',
        summary: 'Charge back a debit',
        path: { merchantId, id: { idOf: 'debit' } },
        json: {},
        answer: { status: 200, code: '000.100.200' },
      },
    ],
  },
  {
    method: 'POST',
    path: `${M}/payments/:id/inquiry`,
    schema: 'AdminInquiryAgain',
    tag: 'Administration',
    summary: 'Ask the processor again',
    description:
      'An uncertain payment (its processor\u2019s answer lost, pending since) is asked about now, also after the gateway stopped asking by itself a week on; the verdict ends it with a PAYMENT UPDATED notification. As `gateway payment inquire`.',
    auth: 'admin',
    answers: {
      200: 'Made due now.',
      400: 'The payment is not uncertain.',
      404: 'No such merchant or payment.',
      ...OPERATOR,
    },
    examples: [
      {
        name: 'inquiryOfCertain',
        summary: 'A payment whose outcome is known',
        path: { merchantId, id: { idOf: 'debit' } },
        answer: { status: 400, code: '200.300.404' },
      },
    ],
  },
  {
    method: 'POST',
    path: `${M}/payments/:id/chargeback-reversals`,
    schema: 'Payment',
    tag: 'Administration',
    summary: 'Reverse a chargeback',
    auth: 'admin',
    answers: {
      200: 'The reversal (CR) as a payment.',
      400: 'Refused.',
      404: 'No such merchant or payment.',
      ...OPERATOR,
    },
    examples: [
      {
        name: 'chargebackReversal',
        summary: 'Reverse the chargeback',
        path: { merchantId, id: { idOf: 'chargeback' } },
        answer: PROCESSED,
      },
    ],
  },
];
