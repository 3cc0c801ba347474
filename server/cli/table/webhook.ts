/**
 * `gateway webhook …`: add, list, remove, and the delivery log (deliveries, redeliver).
 */

import { booleanFlag, stringFlag, usageError } from '../args';
import {
  addWebhook,
  checkDeliveryQuery,
  listDeliveries,
  listWebhooks,
  redeliver,
  removeWebhook,
} from '../webhook-commands';
import { type CommandSpec, ID_HELP, MERCHANT, merchantCommand, positionalId } from './spec';

export const WEBHOOK_COMMANDS: Readonly<Record<string, CommandSpec>> = {
  add: {
    usage:
      'gateway webhook add --merchant ID (--url URL | --inbox) [--key HEX64]\n' +
      '                          [--types PAYMENT,REGISTRATION,SCHEDULE,RISK] [--payment-types DB,CP,...] [--plain]',
    summary:
      'Register a webhook: sends a test notification first; prints its id (and its key, once, on stderr).',
    options: {
      ...MERCHANT.option,
      url: { type: 'string' },
      key: { type: 'string' },
      types: { type: 'string' },
      'payment-types': { type: 'string' },
      plain: { type: 'boolean' },
      inbox: { type: 'boolean' },
    },
    help: [
      MERCHANT.help,
      ['--url URL', 'where notifications are posted (https for merchants with live channels)'],
      [
        '--inbox',
        'instead of a URL: into the gateway’s own inbox, read through the admin API (test channels only)',
      ],
      ['--key HEX64', 'the AES-256 key, 64 hex characters (default: a new random one)'],
      [
        '--types LIST',
        'notification types: PAYMENT, REGISTRATION, SCHEDULE, RISK (default: PAYMENT REGISTRATION)',
      ],
      ['--payment-types LIST', 'only payments of these types (default: all)'],
      ['--plain', 'plain JSON instead of AES-256-GCM (not recommended)'],
    ],
    positionals: [],
    prepare: (p) => {
      const merchantId = MERCHANT.of(p);
      const inbox = booleanFlag(p, 'inbox');
      const url = stringFlag(p, 'url');
      if (inbox && url !== undefined) throw usageError('--url and --inbox exclude each other');
      if (!inbox && url === undefined) throw usageError('missing --url URL (or --inbox)');
      const key = stringFlag(p, 'key');
      const types = stringFlag(p, 'types');
      const paymentTypes = stringFlag(p, 'payment-types');
      const input = {
        merchantId,
        ...(url === undefined ? {} : { url }),
        inbox,
        ...(key === undefined ? {} : { key }),
        ...(types === undefined ? {} : { types }),
        ...(paymentTypes === undefined ? {} : { paymentTypes }),
        plain: booleanFlag(p, 'plain'),
      };
      return (ctx) => addWebhook(ctx, input);
    },
  },
  list: merchantCommand(
    'gateway webhook list --merchant ID',
    'List a merchant’s webhooks (never their keys).',
    listWebhooks,
  ),
  remove: {
    usage: 'gateway webhook remove --merchant ID WEBHOOK_ID',
    summary: 'Delete a webhook; its pending deliveries are dead-lettered.',
    options: MERCHANT.option,
    help: [['WEBHOOK_ID', `the webhook’s id (${ID_HELP})`], MERCHANT.help],
    positionals: ['WEBHOOK_ID'],
    prepare: (p) => {
      const merchantId = MERCHANT.of(p);
      const webhookId = positionalId(p, 'webhook id');
      return (ctx) => removeWebhook(ctx, { merchantId, webhookId });
    },
  },
  deliveries: {
    usage:
      'gateway webhook deliveries --merchant ID [--status pending|delivered|dead] [--webhook ID] [--limit N]',
    summary: 'The delivery log, newest first: status, attempts, last error.',
    options: {
      ...MERCHANT.option,
      status: { type: 'string' },
      webhook: { type: 'string' },
      limit: { type: 'string' },
    },
    help: [
      MERCHANT.help,
      ['--status STATUS', 'only deliveries in this status'],
      ['--webhook ID', 'only deliveries to this webhook'],
      ['--limit N', 'at most N (1 to 500, default 50)'],
    ],
    positionals: [],
    prepare: (p) => {
      const merchantId = MERCHANT.of(p);
      const query: Record<string, string> = {};
      for (const [field, flag] of [
        ['status', 'status'],
        ['webhookId', 'webhook'],
        ['limit', 'limit'],
      ] as const) {
        const value = stringFlag(p, flag);
        if (value !== undefined) query[field] = value;
      }
      const input = { merchantId, query: checkDeliveryQuery(query) };
      return (ctx) => listDeliveries(ctx, input);
    },
  },
  redeliver: {
    usage: 'gateway webhook redeliver --merchant ID DELIVERY_ID',
    summary: 'Send a dead-lettered delivery again, its retry schedule restarted.',
    options: MERCHANT.option,
    help: [['DELIVERY_ID', 'the delivery’s id (from `webhook deliveries`)'], MERCHANT.help],
    positionals: ['DELIVERY_ID'],
    prepare: (p) => {
      const merchantId = MERCHANT.of(p);
      const text = p.positionals[0]!;
      if (!/^[0-9]{1,15}$/.test(text)) throw usageError('DELIVERY_ID must be a number');
      return (ctx) => redeliver(ctx, { merchantId, deliveryId: Number(text) });
    },
  },
};
