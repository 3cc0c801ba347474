/** `gateway settlement …`: run. */
import { checkId, requiredFlag, stringFlag, usageError } from '../args';
import { settle } from '../webhook-commands';
import { type CommandSpec, ID_HELP } from './spec';

export const SETTLEMENT_COMMANDS: Readonly<Record<string, CommandSpec>> = {
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
