/**
 * Dispatch for the operator CLI: argv to a command in `commands.ts`, with help texts and exit
 * codes (0 success, 1 failure, 2 usage error). Arguments are checked before the store is opened,
 * so a usage error never touches the data.
 */
import type { Clock } from '../../shared/engine/core/ports';
import { type AcceptanceChange, checkBankAccount, checkBrands, checkCurrencies } from '../channels/settings';
import type { Vault } from '../security/vault';
import type { GatewayStore } from '../storage';
import type { DeliveryStatus } from '../webhooks/model';
import {
  booleanFlag,
  CliError,
  checkId,
  checkName,
  listFlag,
  type OptionSpec,
  type Parsed,
  parseFlags,
  parseMode,
  parseSwitch,
  parseThrottle,
  requiredFlag,
  stringFlag,
  usageError,
} from './args';
import {
  checkSetChannel,
  createChannel,
  createMerchant,
  createToken,
  listChannels,
  listMerchants,
  listTokens,
  type Output,
  revokeToken,
  setChannel,
  setMerchant,
} from './commands';
import { riskCommand } from './risk-commands';
import {
  addWebhook,
  chargeback,
  chargebackReversal,
  listDeliveries,
  listWebhooks,
  redeliver,
  removeWebhook,
  settle,
  type WebhookCommandContext,
} from './webhook-commands';

/** The options that say what a channel accepts, for `channel create` and `channel set`. */
const ACCEPTS_OPTIONS = {
  brands: { type: 'string' },
  currencies: { type: 'string' },
  'bank-holder': { type: 'string' },
  'bank-iban': { type: 'string' },
  'bank-bic': { type: 'string' },
  'bank-name': { type: 'string' },
  'bank-country': { type: 'string' },
} as const satisfies Record<string, OptionSpec>;

const ACCEPTS_HELP: readonly (readonly [string, string])[] = [
  [
    '--brands "VISA MASTER …"|all',
    'the brands the channel accepts (default: every brand the gateway supports)',
  ],
  ['--currencies "EUR SAR …"|all', 'the currencies the channel accepts (ISO 4217; default: any)'],
  ['--bank-holder NAME', 'the merchant’s bank account for PREPAYMENT (with --bank-iban and --bank-bic)'],
  ['--bank-iban IBAN', 'its IBAN (stored sealed, shown masked)'],
  ['--bank-bic BIC', 'its BIC'],
  ['--bank-name NAME', 'its bank’s name (optional)'],
  ['--bank-country CC', 'its country, ISO 3166-1 alpha-2 (optional)'],
];

const BANK_FLAGS: Readonly<Record<string, string>> = {
  holder: 'bank-holder',
  iban: 'bank-iban',
  bic: 'bank-bic',
  bankName: 'bank-name',
  country: 'bank-country',
};

/** --brands, --currencies and the bank account flags, checked; `all` (and --no-bank-account) remove. */
function acceptsFlags(p: Parsed): AcceptanceChange {
  const change: { -readonly [K in keyof AcceptanceChange]: AcceptanceChange[K] } = {};
  const brands = stringFlag(p, 'brands');
  if (brands !== undefined) {
    const checked = brands.trim() === 'all' ? null : checkBrands(brands, '--brands');
    if (checked !== null && !Array.isArray(checked)) throw usageError(`--brands ${checked.message}`);
    change.brands = checked;
  }
  const currencies = stringFlag(p, 'currencies');
  if (currencies !== undefined) {
    const checked = currencies.trim() === 'all' ? null : checkCurrencies(currencies, '--currencies');
    if (checked !== null && !Array.isArray(checked)) throw usageError(`--currencies ${checked.message}`);
    change.currencies = checked;
  }
  const bank: Record<string, string> = {};
  for (const [field, flag] of Object.entries(BANK_FLAGS)) {
    const value = stringFlag(p, flag);
    if (value !== undefined) bank[field] = value;
  }
  const removeBank = booleanFlag(p, 'no-bank-account');
  if (Object.keys(bank).length > 0) {
    if (removeBank) throw usageError('--no-bank-account cannot be combined with the --bank-* options');
    const checked = checkBankAccount(bank);
    if (Array.isArray(checked))
      throw usageError(
        checked
          .map((e) => `--${BANK_FLAGS[e.name.split('.').pop() ?? ''] ?? e.name} ${e.message}`)
          .join('; '),
      );
    change.bankAccount = checked;
  } else if (removeBank) change.bankAccount = null;
  return change;
}

interface CommandSpec {
  readonly usage: string;
  readonly summary: string;
  readonly options: Readonly<Record<string, OptionSpec>>;
  readonly help: readonly (readonly [string, string])[];
  /** Names of the positional arguments, all required. */
  readonly positionals: readonly string[];
  /** Checks the arguments (usage errors) and returns the work to do with the store. */
  readonly prepare: (parsed: Parsed) => (ctx: WebhookCommandContext) => Promise<unknown>;
}

const GROUPS = {
  merchant: 'Merchants: the businesses the gateway serves.',
  channel: 'Channels: a merchant’s entityIds, each with its mode and settings.',
  token: 'Access tokens: what a merchant sends as `Authorization: Bearer <token>`.',
  webhook: 'Webhooks: where a merchant’s notifications go, and their delivery log.',
  chargeback: 'Chargebacks: booked from the acquirer’s side against a DB, CP or RB, and reversed.',
  settlement: 'Settlement: the daily run that writes reconciliation records and files.',
} as const;
type Group = keyof typeof GROUPS;

const ID_HELP = '32 lowercase hex characters';

const DELIVERY_STATUSES: readonly DeliveryStatus[] = ['pending', 'delivered', 'dead'];

function parseLimit(value: string | undefined): number {
  if (value === undefined) return 50;
  const n = Number(value);
  if (!/^[0-9]{1,3}$/.test(value) || n < 1 || n > 500) throw usageError('--limit must be 1 to 500');
  return n;
}

const WEBHOOK_COMMANDS: Readonly<Record<string, CommandSpec>> = {
  add: {
    usage:
      'gateway webhook add --merchant ID --url URL [--key HEX64] [--types PAYMENT,REGISTRATION,SCHEDULE,RISK]\n' +
      '                          [--payment-types DB,CP,...] [--plain]',
    summary:
      'Register a webhook: sends a test notification first; prints its id (and its key, once, on stderr).',
    options: {
      merchant: { type: 'string' },
      url: { type: 'string' },
      key: { type: 'string' },
      types: { type: 'string' },
      'payment-types': { type: 'string' },
      plain: { type: 'boolean' },
    },
    help: [
      ['--merchant ID', `the merchant’s id (${ID_HELP})`],
      ['--url URL', 'where notifications are posted (https for merchants with live channels)'],
      ['--key HEX64', 'the AES-256 key, 64 hex characters (default: a new random one)'],
      ['--types LIST', 'notification types: PAYMENT, REGISTRATION, SCHEDULE, RISK (default: PAYMENT REGISTRATION)'],
      ['--payment-types LIST', 'only payments of these types (default: all)'],
      ['--plain', 'plain JSON instead of AES-256-GCM (not recommended)'],
    ],
    positionals: [],
    prepare: (p) => {
      const merchantId = checkId(requiredFlag(p, 'merchant', 'ID'), 'merchant id');
      const url = requiredFlag(p, 'url', 'URL');
      const key = stringFlag(p, 'key');
      const types = stringFlag(p, 'types');
      const paymentTypes = stringFlag(p, 'payment-types');
      const input = {
        merchantId,
        url,
        ...(key === undefined ? {} : { key }),
        ...(types === undefined ? {} : { types }),
        ...(paymentTypes === undefined ? {} : { paymentTypes }),
        plain: booleanFlag(p, 'plain'),
      };
      return (ctx) => addWebhook(ctx, input);
    },
  },
  list: {
    usage: 'gateway webhook list --merchant ID',
    summary: 'List a merchant’s webhooks (never their keys).',
    options: { merchant: { type: 'string' } },
    help: [['--merchant ID', `the merchant’s id (${ID_HELP})`]],
    positionals: [],
    prepare: (p) => {
      const merchantId = checkId(requiredFlag(p, 'merchant', 'ID'), 'merchant id');
      return (ctx) => listWebhooks(ctx, { merchantId });
    },
  },
  remove: {
    usage: 'gateway webhook remove --merchant ID WEBHOOK_ID',
    summary: 'Delete a webhook; its pending deliveries are dead-lettered.',
    options: { merchant: { type: 'string' } },
    help: [
      ['WEBHOOK_ID', `the webhook’s id (${ID_HELP})`],
      ['--merchant ID', `the merchant’s id (${ID_HELP})`],
    ],
    positionals: ['WEBHOOK_ID'],
    prepare: (p) => {
      const merchantId = checkId(requiredFlag(p, 'merchant', 'ID'), 'merchant id');
      const webhookId = checkId(p.positionals[0]!, 'webhook id');
      return (ctx) => removeWebhook(ctx, { merchantId, webhookId });
    },
  },
  deliveries: {
    usage:
      'gateway webhook deliveries --merchant ID [--status pending|delivered|dead] [--webhook ID] [--limit N]',
    summary: 'The delivery log, newest first: status, attempts, last error.',
    options: {
      merchant: { type: 'string' },
      status: { type: 'string' },
      webhook: { type: 'string' },
      limit: { type: 'string' },
    },
    help: [
      ['--merchant ID', `the merchant’s id (${ID_HELP})`],
      ['--status STATUS', 'only deliveries in this status'],
      ['--webhook ID', 'only deliveries to this webhook'],
      ['--limit N', 'at most N (1 to 500, default 50)'],
    ],
    positionals: [],
    prepare: (p) => {
      const merchantId = checkId(requiredFlag(p, 'merchant', 'ID'), 'merchant id');
      const status = stringFlag(p, 'status');
      if (status !== undefined && !DELIVERY_STATUSES.includes(status as DeliveryStatus))
        throw usageError(`--status must be one of ${DELIVERY_STATUSES.join(', ')}`);
      const webhookId = stringFlag(p, 'webhook');
      const input = {
        merchantId,
        limit: parseLimit(stringFlag(p, 'limit')),
        ...(status === undefined ? {} : { status: status as DeliveryStatus }),
        ...(webhookId === undefined ? {} : { webhookId: checkId(webhookId, 'webhook id') }),
      };
      return (ctx) => listDeliveries(ctx, input);
    },
  },
  redeliver: {
    usage: 'gateway webhook redeliver --merchant ID DELIVERY_ID',
    summary: 'Send a dead-lettered delivery again, its retry schedule restarted.',
    options: { merchant: { type: 'string' } },
    help: [
      ['DELIVERY_ID', 'the delivery’s id (from `webhook deliveries`)'],
      ['--merchant ID', `the merchant’s id (${ID_HELP})`],
    ],
    positionals: ['DELIVERY_ID'],
    prepare: (p) => {
      const merchantId = checkId(requiredFlag(p, 'merchant', 'ID'), 'merchant id');
      const text = p.positionals[0]!;
      if (!/^[0-9]{1,15}$/.test(text)) throw usageError('DELIVERY_ID must be a number');
      return (ctx) => redeliver(ctx, { merchantId, deliveryId: Number(text) });
    },
  },
};

const CHARGEBACK_COMMANDS: Readonly<Record<string, CommandSpec>> = {
  book: {
    usage: 'gateway chargeback book --merchant ID PAYMENT_ID [--amount 10.00] [--code 000.100.2dd]',
    summary: 'Book a chargeback (CB) against a DB, CP or RB; prints its id.',
    options: { merchant: { type: 'string' }, amount: { type: 'string' }, code: { type: 'string' } },
    help: [
      ['PAYMENT_ID', `the payment charged back (${ID_HELP})`],
      ['--merchant ID', `the merchant’s id (${ID_HELP})`],
      ['--amount AMOUNT', 'in the payment’s currency (default: what is not charged back yet)'],
      ['--code CODE', 'chargebackResultCode, the acquirer’s reason (default 000.100.200)'],
    ],
    positionals: ['PAYMENT_ID'],
    prepare: (p) => {
      const merchantId = checkId(requiredFlag(p, 'merchant', 'ID'), 'merchant id');
      const paymentId = checkId(p.positionals[0]!, 'payment id');
      const amount = stringFlag(p, 'amount');
      const code = stringFlag(p, 'code');
      const input = {
        merchantId,
        paymentId,
        ...(amount === undefined ? {} : { amount }),
        ...(code === undefined ? {} : { chargebackResultCode: code }),
      };
      return (ctx) => chargeback(ctx, input);
    },
  },
  reverse: {
    usage: 'gateway chargeback reverse --merchant ID CHARGEBACK_ID',
    summary: 'Book a chargeback reversal (CR) of a CB; prints its id.',
    options: { merchant: { type: 'string' } },
    help: [
      ['CHARGEBACK_ID', `the CB’s id (${ID_HELP})`],
      ['--merchant ID', `the merchant’s id (${ID_HELP})`],
    ],
    positionals: ['CHARGEBACK_ID'],
    prepare: (p) => {
      const merchantId = checkId(requiredFlag(p, 'merchant', 'ID'), 'merchant id');
      const chargebackId = checkId(p.positionals[0]!, 'chargeback id');
      return (ctx) => chargebackReversal(ctx, { merchantId, chargebackId });
    },
  },
};

const SETTLEMENT_COMMANDS: Readonly<Record<string, CommandSpec>> = {
  run: {
    usage: 'gateway settlement run --date yyyy-MM-dd [--merchant ID]',
    summary: 'Settle a past UTC day now (the gateway does it after 02:00 the next day); never twice.',
    options: { date: { type: 'string' }, merchant: { type: 'string' } },
    help: [
      ['--date yyyy-MM-dd', 'the UTC day to settle; it must be over'],
      ['--merchant ID', `only this merchant’s channels (${ID_HELP})`],
    ],
    positionals: [],
    prepare: (p) => {
      const date = requiredFlag(p, 'date', 'yyyy-MM-dd');
      if (!/^[0-9]{4}-[0-9]{2}-[0-9]{2}$/.test(date) || Number.isNaN(Date.parse(`${date}T00:00:00Z`)))
        throw usageError('--date must be a day as yyyy-MM-dd');
      const merchant = stringFlag(p, 'merchant');
      const input = {
        date,
        ...(merchant === undefined ? {} : { merchantId: checkId(merchant, 'merchant id') }),
      };
      return (ctx) => settle(ctx, input);
    },
  },
};

const COMMANDS: Readonly<Record<Group, Readonly<Record<string, CommandSpec>>>> = {
  merchant: {
    create: {
      usage: 'gateway merchant create --name NAME',
      summary: 'Create a merchant; prints its id.',
      options: { name: { type: 'string' } },
      help: [['--name NAME', 'the merchant’s name (1 to 100 characters)']],
      positionals: [],
      prepare: (p) => {
        const name = checkName(requiredFlag(p, 'name', 'NAME'), 'merchant name');
        return (ctx) => createMerchant(ctx, { name });
      },
    },
    set: {
      usage: 'gateway merchant set MERCHANT_ID [--dispatching on|off]',
      summary: 'Change a merchant’s settings; those not given keep their values.',
      options: { dispatching: { type: 'string' } },
      help: [
        ['MERCHANT_ID', `the merchant’s id (${ID_HELP})`],
        [
          '--dispatching on|off',
          'channel dispatching: entityId may be the merchant’s id, and the gateway picks the channel of the request’s environment that accepts the brand and currency',
        ],
      ],
      positionals: ['MERCHANT_ID'],
      prepare: (p) => {
        const merchantId = checkId(p.positionals[0]!, 'merchant id');
        const dispatching = stringFlag(p, 'dispatching');
        const input = {
          merchantId,
          ...(dispatching === undefined ? {} : { dispatching: parseSwitch(dispatching, '--dispatching') }),
        };
        return (ctx) => setMerchant(ctx, input);
      },
    },
    list: {
      usage: 'gateway merchant list',
      summary: 'List the merchants.',
      options: {},
      help: [],
      positionals: [],
      prepare: () => (ctx) => listMerchants(ctx),
    },
  },
  channel: {
    create: {
      usage:
        'gateway channel create --merchant ID --name NAME [--mode TEST|LIVE] [--3ds on|off] [--throttle N]\n' +
        '                             [--brands LIST] [--currencies LIST] [--bank-holder NAME --bank-iban IBAN --bank-bic BIC]',
      summary: 'Create a channel for a merchant; prints its entityId.',
      options: {
        merchant: { type: 'string' },
        name: { type: 'string' },
        mode: { type: 'string' },
        '3ds': { type: 'string' },
        throttle: { type: 'string' },
        ...ACCEPTS_OPTIONS,
      },
      help: [
        ['--merchant ID', `the merchant’s id (${ID_HELP})`],
        ['--name NAME', 'the channel’s name (1 to 100 characters)'],
        ['--mode TEST|LIVE', 'TEST (default): simulators or a connector’s test system; LIVE: real money'],
        ['--3ds on|off', 'authenticate shoppers with 3-D Secure (default off)'],
        ['--throttle N', 'requests per minute per token and operation (default: the gateway’s)'],
        ...ACCEPTS_HELP,
      ],
      positionals: [],
      prepare: (p) => {
        const merchantId = checkId(requiredFlag(p, 'merchant', 'ID'), 'merchant id');
        const name = checkName(requiredFlag(p, 'name', 'NAME'), 'channel name');
        const mode = stringFlag(p, 'mode');
        const threeDs = stringFlag(p, '3ds');
        const throttle = stringFlag(p, 'throttle');
        const input = {
          merchantId,
          name,
          ...(mode === undefined ? {} : { mode: parseMode(mode) }),
          ...(threeDs === undefined ? {} : { threeDSecure: parseSwitch(threeDs, '--3ds') }),
          ...(throttle === undefined ? {} : { throttlePerMinute: parseThrottle(throttle, false) }),
          accepts: acceptsFlags(p),
        };
        return (ctx) => createChannel(ctx, input);
      },
    },
    list: {
      usage: 'gateway channel list --merchant ID',
      summary: 'List a merchant’s channels and their settings (never the connector token).',
      options: { merchant: { type: 'string' } },
      help: [['--merchant ID', `the merchant’s id (${ID_HELP})`]],
      positionals: [],
      prepare: (p) => {
        const merchantId = checkId(requiredFlag(p, 'merchant', 'ID'), 'merchant id');
        return (ctx) => listChannels(ctx, { merchantId });
      },
    },
    set: {
      usage:
        'gateway channel set ENTITY_ID [--3ds on|off] [--throttle N|default] [--brands LIST|all] [--currencies LIST|all]\n' +
        '                          [--bank-holder NAME --bank-iban IBAN --bank-bic BIC | --no-bank-account]\n' +
        '                          [--connector-url URL --connector-entity ID --connector-token TOKEN | --no-connector]',
      summary: 'Change a channel’s settings; those not given keep their values.',
      options: {
        '3ds': { type: 'string' },
        throttle: { type: 'string' },
        'connector-url': { type: 'string' },
        'connector-entity': { type: 'string' },
        'connector-token': { type: 'string' },
        'no-connector': { type: 'boolean' },
        ...ACCEPTS_OPTIONS,
        'no-bank-account': { type: 'boolean' },
      },
      help: [
        ['ENTITY_ID', `the channel’s entityId (${ID_HELP})`],
        ['--3ds on|off', 'authenticate shoppers with 3-D Secure'],
        ['--throttle N|default', 'requests per minute per token and operation; default: the gateway’s'],
        ['--connector-url URL', 'EXTERNAL connector: base URL of another gateway of this API family'],
        ['--connector-entity ID', 'the entityId to use on that gateway'],
        ['--connector-token TOKEN', 'the access token for that gateway (stored; never printed)'],
        ['--no-connector', 'remove the connector'],
        ...ACCEPTS_HELP,
        ['--no-bank-account', 'remove the merchant’s bank account'],
      ],
      positionals: ['ENTITY_ID'],
      prepare: (p) => {
        const entityId = checkId(p.positionals[0]!, 'channel id');
        const threeDs = stringFlag(p, '3ds');
        const throttle = stringFlag(p, 'throttle');
        const url = stringFlag(p, 'connector-url');
        const entity = stringFlag(p, 'connector-entity');
        const token = stringFlag(p, 'connector-token');
        const anyConnector = url !== undefined || entity !== undefined || token !== undefined;
        if (anyConnector && booleanFlag(p, 'no-connector'))
          throw usageError('--no-connector cannot be combined with the --connector-* options');
        if (anyConnector && (url === undefined || entity === undefined || token === undefined))
          throw usageError(
            '--connector-url, --connector-entity and --connector-token must be given together',
          );
        const input = checkSetChannel({
          entityId,
          ...(threeDs === undefined ? {} : { threeDSecure: parseSwitch(threeDs, '--3ds') }),
          ...(throttle === undefined ? {} : { throttlePerMinute: parseThrottle(throttle, true) }),
          ...(booleanFlag(p, 'no-connector') ? { connector: null } : {}),
          ...(url !== undefined && entity !== undefined && token !== undefined
            ? { connector: { baseUrl: url, entityId: entity, accessToken: token } }
            : {}),
          accepts: acceptsFlags(p),
        });
        return (ctx) => setChannel(ctx, input);
      },
    },
    risk: {
      usage: 'gateway channel risk ENTITY_ID [--rules FILE|- | --clear]',
      summary:
        'Show a channel’s risk rules, set them from a JSON file (checked field by field), or clear them.',
      options: { rules: { type: 'string' }, clear: { type: 'boolean' } },
      help: [
        ['ENTITY_ID', `the channel’s entityId (${ID_HELP})`],
        ['--rules FILE|-', 'the rules as JSON (README “Risk checks”); - reads stdin; replaces the old ones'],
        ['--clear', 'remove the rules: the channel screens nothing'],
      ],
      positionals: ['ENTITY_ID'],
      prepare: (p) => {
        const entityId = checkId(p.positionals[0]!, 'channel id');
        const rules = stringFlag(p, 'rules');
        const clear = booleanFlag(p, 'clear');
        if (rules !== undefined && clear) throw usageError('--rules and --clear cannot be combined');
        return (ctx) => riskCommand(ctx, { entityId, ...(rules === undefined ? {} : { rules }), clear });
      },
    },
  },
  token: {
    create: {
      usage: 'gateway token create --merchant ID [--channel ENTITY_ID ...] [--environment test|live]',
      summary: 'Create an access token; prints it once (only a hash of its secret is stored).',
      options: {
        merchant: { type: 'string' },
        channel: { type: 'string', multiple: true },
        environment: { type: 'string' },
      },
      help: [
        ['--merchant ID', `the merchant’s id (${ID_HELP})`],
        [
          '--channel ENTITY_ID',
          'a channel the token may use; repeat for more, all of one environment (default: all of the merchant’s of its environment)',
        ],
        [
          '--environment test|live',
          'the environment of the token (the address it works on): its channels’, else test',
        ],
      ],
      positionals: [],
      prepare: (p) => {
        const merchantId = checkId(requiredFlag(p, 'merchant', 'ID'), 'merchant id');
        const channelIds = listFlag(p, 'channel').map((id) => checkId(id, 'channel id'));
        const environment = stringFlag(p, 'environment');
        if (environment !== undefined && environment !== 'test' && environment !== 'live')
          throw usageError(`--environment must be test or live, got "${environment}"`);
        return (ctx) =>
          createToken(ctx, { merchantId, channelIds, ...(environment === undefined ? {} : { environment }) });
      },
    },
    list: {
      usage: 'gateway token list --merchant ID',
      summary: 'List a merchant’s tokens: id, userId, channels, revoked (never secrets).',
      options: { merchant: { type: 'string' } },
      help: [['--merchant ID', `the merchant’s id (${ID_HELP})`]],
      positionals: [],
      prepare: (p) => {
        const merchantId = checkId(requiredFlag(p, 'merchant', 'ID'), 'merchant id');
        return (ctx) => listTokens(ctx, { merchantId });
      },
    },
    revoke: {
      usage: 'gateway token revoke TOKEN_ID',
      summary: 'Revoke a token (its id from `token list`); servers refuse it within seconds.',
      options: {},
      help: [['TOKEN_ID', `the token’s id (${ID_HELP}), not its userId`]],
      positionals: ['TOKEN_ID'],
      prepare: (p) => {
        const tokenId = checkId(p.positionals[0]!, 'token id');
        return (ctx) => revokeToken(ctx, { tokenId });
      },
    },
  },
  webhook: WEBHOOK_COMMANDS,
  chargeback: CHARGEBACK_COMMANDS,
  settlement: SETTLEMENT_COMMANDS,
};

const COMMON_OPTIONS: Readonly<Record<string, OptionSpec>> = {
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
};

const isGroup = (name: string): name is Group => Object.hasOwn(COMMANDS, name);

export function mainHelp(): string {
  const lines = [
    'gateway: manage the payment gateway’s merchants, channels, access tokens, webhooks and chargebacks.',
    '',
    'Usage: gateway <command> [options] [--json]',
    '',
    'Commands:',
  ];
  for (const group of Object.keys(COMMANDS) as Group[])
    for (const spec of Object.values(COMMANDS[group])) lines.push(`  ${spec.usage.split('\n')[0]}`);
  lines.push(
    '',
    'Options on every command:',
    '  --json       machine-readable output (JSON on stdout; errors as JSON on stderr)',
    '  -h, --help   help for the command',
    '',
    'Environment (the same store as the server):',
    '  GATEWAY_DATA_DIR   folder of the SQLite database (default ./data)',
    '  DATABASE_URL       postgres://… selects PostgreSQL instead',
    '',
    'Exit codes: 0 done, 1 failed (unknown merchant, store unavailable …), 2 usage error.',
    'Run `gateway help <command> [<action>]` for details.',
  );
  return lines.join('\n');
}

function groupHelp(group: Group): string {
  const lines = [GROUPS[group], '', 'Usage:'];
  for (const spec of Object.values(COMMANDS[group])) lines.push(`  ${spec.usage}`);
  lines.push('', 'Actions:');
  const actions = Object.entries(COMMANDS[group]);
  const width = Math.max(...actions.map(([a]) => a.length));
  for (const [action, spec] of actions) lines.push(`  ${action.padEnd(width)}  ${spec.summary}`);
  lines.push('', `Run \`gateway ${group} <action> --help\` for its options.`);
  return lines.join('\n');
}

function commandHelp(spec: CommandSpec): string {
  const rows: (readonly [string, string])[] = [
    ...spec.help,
    ['--json', 'machine-readable output'],
    ['-h, --help', 'this help'],
  ];
  const width = Math.max(...rows.map(([k]) => k.length));
  return [
    `Usage: ${spec.usage}`,
    '',
    spec.summary,
    '',
    spec.positionals.length === 0 ? 'Options:' : 'Arguments and options:',
    ...rows.map(([k, v]) => `  ${k.padEnd(width)}  ${v}`),
  ].join('\n');
}

export interface RunDeps {
  /** Opens the store; called only once the arguments are known to be valid. */
  readonly openStore: () => Promise<GatewayStore>;
  /** Opens the vault (webhook keys are sealed with the data key); commands that need it fail without. */
  readonly openVault?: () => Pick<Vault, 'encrypt'>;
  /** The HTTP client of the webhook test notification. */
  readonly fetch?: typeof fetch;
  /** The egress policy: connector and webhook URLs the gateway would not call are refused. */
  readonly egress?: WebhookCommandContext['egress'];
  /** The data folder (reconciliation files of `settlement run`). */
  readonly dataDir?: string;
  readonly output: Output;
  readonly clock?: Clock;
}

/** Runs one CLI invocation (argv without `node` and the script); resolves to the exit code. */
export async function run(argv: readonly string[], deps: RunDeps): Promise<number> {
  const { output } = deps;
  const end = argv.indexOf('--');
  const flags = end === -1 ? argv : argv.slice(0, end);
  const json = flags.includes('--json');
  const help = flags.includes('--help') || flags.includes('-h');
  let hint = 'gateway help';
  try {
    // Global flags may come before the command.
    let rest = [...argv];
    while (rest[0] === '--json' || rest[0] === '--help' || rest[0] === '-h') rest = rest.slice(1);
    const [group, action] = rest;

    if (group === undefined) {
      if (help) return printHelp(output, mainHelp());
      throw usageError('missing command');
    }
    if (group === 'help') return printHelp(output, helpTopic(rest.slice(1)));
    if (!isGroup(group)) throw usageError(`unknown command ${JSON.stringify(group)}`);
    hint = `gateway help ${group}`;
    if (action === undefined || action.startsWith('-')) {
      if (help) return printHelp(output, groupHelp(group));
      throw usageError(`missing action: gateway ${group} ${Object.keys(COMMANDS[group]).join('|')}`);
    }
    const spec = COMMANDS[group][action];
    if (spec === undefined || !Object.hasOwn(COMMANDS[group], action))
      throw usageError(`unknown action ${JSON.stringify(action)} for ${group}`);
    hint = `gateway ${group} ${action} --help`;
    if (help) return printHelp(output, commandHelp(spec));

    const parsed = parseFlags(rest.slice(2), { ...spec.options, ...COMMON_OPTIONS });
    if (parsed.positionals.length < spec.positionals.length)
      throw usageError(`missing ${spec.positionals.slice(parsed.positionals.length).join(' ')}`);
    if (parsed.positionals.length > spec.positionals.length)
      throw usageError(`unexpected argument ${JSON.stringify(parsed.positionals[spec.positionals.length])}`);
    const work = spec.prepare(parsed);

    let store: GatewayStore;
    try {
      store = await deps.openStore();
    } catch (error) {
      throw new CliError(`cannot open the store: ${messageOf(error)}`, 1);
    }
    try {
      await work({
        store,
        output,
        json,
        ...(deps.clock === undefined ? {} : { clock: deps.clock }),
        ...(deps.openVault === undefined ? {} : { vault: deps.openVault() }),
        ...(deps.fetch === undefined ? {} : { fetch: deps.fetch }),
        ...(deps.egress === undefined ? {} : { egress: deps.egress }),
        ...(deps.dataDir === undefined ? {} : { dataDir: deps.dataDir }),
      });
    } finally {
      await store.close();
    }
    return 0;
  } catch (error) {
    const cli = error instanceof CliError ? error : undefined;
    const exitCode = cli?.exitCode ?? 1;
    const message = cli?.message ?? messageOf(error);
    if (json) output.err(JSON.stringify({ error: { message, exitCode } }));
    else {
      output.err(`gateway: ${message}`);
      if (exitCode === 2) output.err(`Run \`${hint}\` for usage.`);
    }
    return exitCode;
  }
}

function helpTopic(topic: readonly string[]): string {
  const [group, action, extra] = topic;
  if (group === undefined) return mainHelp();
  if (!isGroup(group)) throw usageError(`no help for ${JSON.stringify(group)}: not a command`);
  if (action === undefined) return groupHelp(group);
  const spec = Object.hasOwn(COMMANDS[group], action) ? COMMANDS[group][action] : undefined;
  if (spec === undefined || extra !== undefined)
    throw usageError(`no help for ${JSON.stringify(topic.join(' '))}: not a command`);
  return commandHelp(spec);
}

function printHelp(output: Output, text: string): number {
  for (const line of text.split('\n')) output.out(line);
  return 0;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
