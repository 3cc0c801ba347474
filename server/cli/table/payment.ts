/**
 * `gateway payment …`: inquire (ask the processor again about an uncertain payment or registration).
 */

import { inquireAgain } from '../../backoffice/payments/inquire';
import { translated } from '../args';
import { backoffice, printJson, requireMerchant } from '../commands';
import { type CommandSpec, ID_HELP, MERCHANT, positionalId } from './spec';

export const PAYMENT_COMMANDS: Readonly<Record<string, CommandSpec>> = {
  inquire: {
    usage: 'gateway payment inquire --merchant ID PAYMENT_ID',
    summary:
      'Ask the processor again about a payment or registration whose answer was lost (pending): the running gateway asks within its poll interval.',
    options: MERCHANT.option,
    help: [['PAYMENT_ID', `the uncertain payment or registration (${ID_HELP})`], MERCHANT.help],
    positionals: ['PAYMENT_ID'],
    prepare: (p) => {
      const merchantId = MERCHANT.of(p);
      const paymentId = positionalId(p, 'payment id');
      return async (ctx) => {
        await requireMerchant(ctx.store, merchantId);
        const asked = await translated(() => inquireAgain(backoffice(ctx), merchantId, paymentId));
        if (ctx.json) printJson(ctx, { ...asked, dueAt: asked.dueAt.toISOString() });
        else
          ctx.output.out(
            `${asked.kind} ${asked.paymentId}: the processor is asked again${asked.wasStopped ? ' (the gateway had stopped asking)' : ''}`,
          );
      };
    },
  },
};
