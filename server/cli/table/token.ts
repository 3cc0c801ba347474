/**
 * `gateway token …`: create, list, revoke.
 */

import { listFlag, stringFlag } from '../args';
import { addToken, checkNewToken, listTokens, revokeToken } from '../commands';
import { type CommandSpec, ID_HELP, MERCHANT, merchantCommand, positionalId } from './spec';

export const TOKEN_COMMANDS: Readonly<Record<string, CommandSpec>> = {
  create: {
    usage: 'gateway token create --merchant ID [--channel ENTITY_ID ...] [--environment test|live]',
    summary: 'Create an access token; prints it once (only a hash of its secret is stored).',
    options: {
      ...MERCHANT.option,
      channel: { type: 'string', multiple: true },
      environment: { type: 'string' },
    },
    help: [
      MERCHANT.help,
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
      const merchantId = MERCHANT.of(p);
      const environment = stringFlag(p, 'environment');
      const checked = checkNewToken({
        merchantId,
        channelIds: listFlag(p, 'channel'),
        ...(environment === undefined ? {} : { environment }),
      });
      return (ctx) => addToken(ctx, merchantId, checked);
    },
  },
  list: merchantCommand(
    'gateway token list --merchant ID',
    'List a merchant’s tokens: id, userId, channels, revoked (never secrets).',
    listTokens,
  ),
  revoke: {
    usage: 'gateway token revoke TOKEN_ID',
    summary: 'Revoke a token (its id from `token list`); servers refuse it within seconds.',
    options: {},
    help: [['TOKEN_ID', `the token’s id (${ID_HELP}), not its userId`]],
    positionals: ['TOKEN_ID'],
    prepare: (p) => {
      const tokenId = positionalId(p, 'token id');
      return (ctx) => revokeToken(ctx, { tokenId });
    },
  },
};
