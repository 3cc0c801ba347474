/** `gateway settlement …`: run. */
import { checkId, requiredFlag, stringFlag } from '../args';
import { checkSettleInput, settle } from '../webhook-commands';
import { type CommandSpec, ID_HELP } from './spec';

export const SETTLEMENT_COMMANDS: Readonly<Record<string, CommandSpec>> = {
  run: {
    usage: 'gateway settlement run --date yyyy-MM-dd [--merchant ID] [--url URL]',
    summary: 'Settle a past UTC day now (the gateway does it after 02:00 the next day); never twice.',
    options: { date: { type: 'string' }, merchant: { type: 'string' }, url: { type: 'string' } },
    help: [
      ['--date yyyy-MM-dd', 'the UTC day to settle; it must be over by the running gateway’s clock'],
      ['--merchant ID', `only this merchant’s channels (${ID_HELP})`],
      [
        '--url URL',
        'the running gateway, asked for its test clock with GATEWAY_ADMIN_TOKEN (default http://127.0.0.1:$PORT)',
      ],
    ],
    positionals: [],
    gatewayClockUrl: (p) => stringFlag(p, 'url'),
    prepare: (p) => {
      const merchant = stringFlag(p, 'merchant');
      const input = checkSettleInput({
        date: requiredFlag(p, 'date', 'yyyy-MM-dd'),
        ...(merchant === undefined ? {} : { merchantId: checkId(merchant, 'merchant id') }),
      });
      return (ctx) => settle(ctx, input);
    },
  },
};
