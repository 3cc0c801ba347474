/**
 * `gateway channel …`: create, set, list, and the channel's risk rules; what a channel accepts
 * (brands, currencies, bank account).
 */

import {
  booleanFlag,
  type OptionSpec,
  type Parsed,
  parseMode,
  parseSwitch,
  parseThrottle,
  requiredFlag,
  stringFlag,
  usageError,
} from '../args';
import {
  type AcceptsBody,
  addChannel,
  changeChannel,
  channelBody,
  checkChannelChange,
  checkNewChannel,
  listChannels,
} from '../commands';
import {
  CONNECTOR_HELP,
  CONNECTOR_OPTIONS,
  checkConnectorCommand,
  connectorFlags,
  printConnectorSetup,
} from '../connector-commands';
import { riskCommand } from '../risk-commands';
import { ROUTE_HELP, ROUTE_OPTIONS, routeFlags } from '../route-flags';
import { type CommandSpec, ID_HELP, MERCHANT, merchantCommand, positionalId } from './spec';

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

/**
 * --brands, --currencies and the bank account flags as the admin API's JSON fields (checked by the
 * back office: `all` and --no-bank-account remove).
 */
function acceptsFlags(p: Parsed): AcceptsBody {
  const change: { -readonly [K in keyof AcceptsBody]: AcceptsBody[K] } = {};
  const brands = stringFlag(p, 'brands');
  if (brands !== undefined) change.brands = brands.trim();
  const currencies = stringFlag(p, 'currencies');
  if (currencies !== undefined) change.currencies = currencies.trim();
  const bank: Record<string, string> = {};
  for (const [field, flag] of Object.entries(BANK_FLAGS)) {
    const value = stringFlag(p, flag);
    if (value !== undefined) bank[field] = value;
  }
  const removeBank = booleanFlag(p, 'no-bank-account');
  if (Object.keys(bank).length > 0) {
    if (removeBank) throw usageError('--no-bank-account cannot be combined with the --bank-* options');
    change.bankAccount = bank;
  } else if (removeBank) change.bankAccount = null;
  return change;
}

/** --require-cvv on|off as the channel's registrationsRequireCvv. */
function requireCvvFlag(p: Parsed): { registrationsRequireCvv?: boolean } {
  const value = stringFlag(p, 'require-cvv');
  return value === undefined ? {} : { registrationsRequireCvv: parseSwitch(value, '--require-cvv') };
}

export const CHANNEL_COMMANDS: Readonly<Record<string, CommandSpec>> = {
  create: {
    usage:
      'gateway channel create --merchant ID --name NAME [--mode TEST|LIVE] [--3ds on|off] [--require-cvv on|off] [--throttle N]\n' +
      '                             [--brands LIST] [--currencies LIST] [--bank-holder NAME --bank-iban IBAN --bank-bic BIC]',
    summary: 'Create a channel for a merchant; prints its entityId.',
    options: {
      ...MERCHANT.option,
      name: { type: 'string' },
      mode: { type: 'string' },
      '3ds': { type: 'string' },
      'require-cvv': { type: 'string' },
      throttle: { type: 'string' },
      ...ACCEPTS_OPTIONS,
    },
    help: [
      MERCHANT.help,
      ['--name NAME', 'the channel’s name (1 to 100 characters, trimmed, no control characters)'],
      ['--mode TEST|LIVE', 'TEST (default): simulators or a connector’s test system; LIVE: real money'],
      ['--3ds on|off', 'authenticate shoppers with 3-D Secure (default off)'],
      ['--require-cvv on|off', 'one-click payments with a stored card must carry its CVV (default off)'],
      ['--throttle N', 'requests per minute per token and operation (default: the gateway’s)'],
      ...ACCEPTS_HELP,
    ],
    positionals: [],
    prepare: (p) => {
      const merchantId = MERCHANT.of(p);
      const name = requiredFlag(p, 'name', 'NAME');
      const mode = stringFlag(p, 'mode');
      const threeDs = stringFlag(p, '3ds');
      const throttle = stringFlag(p, 'throttle');
      const checked = checkNewChannel(
        channelBody({
          name,
          ...(mode === undefined ? {} : { mode: parseMode(mode) }),
          ...(threeDs === undefined ? {} : { threeDSecure: parseSwitch(threeDs, '--3ds') }),
          ...requireCvvFlag(p),
          ...(throttle === undefined ? {} : { throttlePerMinute: parseThrottle(throttle, false) }),
          accepts: acceptsFlags(p),
        }),
      );
      return (ctx) => addChannel(ctx, merchantId, checked);
    },
  },
  list: merchantCommand(
    'gateway channel list --merchant ID',
    'List a merchant’s channels and their settings (never the connector token).',
    listChannels,
  ),
  set: {
    usage:
      'gateway channel set ENTITY_ID [--3ds on|off] [--require-cvv on|off] [--throttle N|default] [--brands LIST|all] [--currencies LIST|all]\n' +
      '                          [--bank-holder NAME --bank-iban IBAN --bank-bic BIC | --no-bank-account]\n' +
      '                          [--connector opp|adyen|stripe [--connector-url URL] CREDENTIALS | --no-connector]\n' +
      '                          CREDENTIALS: opp --connector-entity ID --connector-token TOKEN;\n' +
      '                          adyen --connector-api-key KEY --connector-merchant-account NAME [--connector-hmac-key HEX];\n' +
      '                          stripe --connector-api-key KEY [--connector-webhook-secret whsec_…]\n' +
      "                          [--route 'kind=KIND;brands=…;countries=…;currencies=…;min=…;max=…;CREDENTIALS' … | --no-routes]",
    summary: 'Change a channel’s settings; those not given keep their values.',
    options: {
      '3ds': { type: 'string' },
      'require-cvv': { type: 'string' },
      throttle: { type: 'string' },
      ...CONNECTOR_OPTIONS,
      ...ROUTE_OPTIONS,
      ...ACCEPTS_OPTIONS,
      'no-bank-account': { type: 'boolean' },
    },
    help: [
      ['ENTITY_ID', `the channel’s entityId (${ID_HELP})`],
      ['--3ds on|off', 'authenticate shoppers with 3-D Secure'],
      ['--require-cvv on|off', 'one-click payments with a stored card must carry its CVV'],
      ['--throttle N|default', 'requests per minute per token and operation; default: the gateway’s'],
      ...CONNECTOR_HELP,
      ...ROUTE_HELP,
      ...ACCEPTS_HELP,
      ['--no-bank-account', 'remove the merchant’s bank account'],
    ],
    positionals: ['ENTITY_ID'],
    prepare: (p) => {
      const entityId = positionalId(p, 'channel id');
      const threeDs = stringFlag(p, '3ds');
      const throttle = stringFlag(p, 'throttle');
      const connector = connectorFlags(p);
      const routes = routeFlags(p, connector);
      const checked = checkChannelChange({
        entityId,
        ...(threeDs === undefined ? {} : { threeDSecure: parseSwitch(threeDs, '--3ds') }),
        ...requireCvvFlag(p),
        ...(throttle === undefined ? {} : { throttlePerMinute: parseThrottle(throttle, true) }),
        ...(connector === undefined ? {} : { connector }),
        ...(routes === undefined ? {} : { routes }),
        accepts: acceptsFlags(p),
      });
      return async (ctx) => {
        const changed = await changeChannel(ctx, checked);
        if (connector != null) printConnectorSetup(ctx, changed);
        return changed;
      };
    },
  },
  check: {
    usage: 'gateway channel check ENTITY_ID',
    summary:
      'Check the connection of a channel’s connector: one harmless call with its credentials (nothing charged), and what it found.',
    options: {},
    help: [['ENTITY_ID', `the channel’s entityId (${ID_HELP})`]],
    positionals: ['ENTITY_ID'],
    prepare: (p) => {
      const entityId = positionalId(p, 'channel id');
      return (ctx) => checkConnectorCommand(ctx, { entityId });
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
      const entityId = positionalId(p, 'channel id');
      const rules = stringFlag(p, 'rules');
      const clear = booleanFlag(p, 'clear');
      if (rules !== undefined && clear) throw usageError('--rules and --clear cannot be combined');
      return (ctx) => riskCommand(ctx, { entityId, ...(rules === undefined ? {} : { rules }), clear });
    },
  },
};
