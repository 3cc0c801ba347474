/**
 * `gateway merchant …`: create, set, list.
 */

import { parseSwitch, requiredFlag, stringFlag } from '../args';
import { addMerchant, checkMerchantName, listMerchants, setMerchant } from '../commands';
import { type CommandSpec, ID_HELP, positionalId } from './spec';

export const MERCHANT_COMMANDS: Readonly<Record<string, CommandSpec>> = {
  create: {
    createsDataFolder: true,
    usage: 'gateway merchant create --name NAME',
    summary: 'Create a merchant; prints its id.',
    options: { name: { type: 'string' } },
    help: [['--name NAME', 'the merchant’s name (1 to 100 characters, trimmed, no control characters)']],
    positionals: [],
    prepare: (p) => {
      const checked = checkMerchantName(requiredFlag(p, 'name', 'NAME'));
      return (ctx) => addMerchant(ctx, checked);
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
      const merchantId = positionalId(p, 'merchant id');
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
};
