/**
 * `gateway chargeback …`: book, reverse.
 */

import { stringFlag } from '../args';
import { chargeback, chargebackReversal } from '../webhook-commands';
import { type CommandSpec, ID_HELP, MERCHANT, positionalId } from './spec';

export const CHARGEBACK_COMMANDS: Readonly<Record<string, CommandSpec>> = {
  book: {
    usage: 'gateway chargeback book --merchant ID PAYMENT_ID [--amount 10.00] [--code 000.100.2dd]',
    summary: 'Book a chargeback (CB) against a DB, CP or RB; prints its id.',
    options: { ...MERCHANT.option, amount: { type: 'string' }, code: { type: 'string' } },
    help: [
      ['PAYMENT_ID', `the payment charged back (${ID_HELP})`],
      MERCHANT.help,
      ['--amount AMOUNT', 'in the payment’s currency (default: what is not charged back yet)'],
      ['--code CODE', 'chargebackResultCode, the acquirer’s reason (default 000.100.200)'],
    ],
    positionals: ['PAYMENT_ID'],
    prepare: (p) => {
      const merchantId = MERCHANT.of(p);
      const paymentId = positionalId(p, 'payment id');
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
    options: MERCHANT.option,
    help: [['CHARGEBACK_ID', `the CB’s id (${ID_HELP})`], MERCHANT.help],
    positionals: ['CHARGEBACK_ID'],
    prepare: (p) => {
      const merchantId = MERCHANT.of(p);
      const chargebackId = positionalId(p, 'chargeback id');
      return (ctx) => chargebackReversal(ctx, { merchantId, chargebackId });
    },
  },
};
