/** Spec sections: basic payment, forex, authentication parameters, custom parameters. */

import { wireHundredths } from '../../money/amount';
import { dict, group } from '../nodes';
import { check, str, together } from '../rules';
import { AMT, AN, BOOL, BRAND, CURRENCY, ID32, INT, MAP_KEY, MAP_VALUE, oneOf, pattern } from './dsl';

/** paymentType is A2 in the spec; the decisions add the risk workflow PA.CP as an initial type. */
export const PAYMENT_TYPE = pattern(/^[A-Z]{2}(\.[A-Z]{2})?$/, 'a payment type such as DB, PA or CP', {
  req: 'R',
});

/** A part of the amount (taxAmount; shipping.cost on the request kinds) is never more than the amount. */
export function partOfAmount(part: string): ReturnType<typeof check> {
  return check({
    paths: [part, 'amount'],
    says: `${part} is not larger than amount.`,
    apply(g, report) {
      const [whole, share] = [wireHundredths(str(g, 'amount')), wireHundredths(str(g, part))];
      if (whole !== undefined && share !== undefined && share > whole)
        report(part, 'must not be larger than amount', str(g, part) ?? null);
    },
  });
}

export const basicPayment = group(
  {
    amount: AMT({
      req: 'R',
      note: 'The only amount that drives processing; taxAmount, shipping.cost and similar are contained in it.',
    }),
    taxAmount: AMT({ req: 'C', note: 'Tax part of the amount.' }),
    discountAmount: AMT({ note: 'Invoice-level discount (level-3 card data).' }),
    currency: CURRENCY({ req: 'R' }),
    paymentBrand: BRAND({
      req: 'C',
      note: 'Optional when card brand detection is used; otherwise mandatory.',
    }),
    paymentType: PAYMENT_TYPE,
    integrity: BOOL({ note: 'When true, the SRI hash of the payment script is returned in the response.' }),
    overridePaymentType: dict(
      { t: 'pattern', re: /^[A-Za-z0-9_]{1,32}$/, says: 'a brand of 1 to 32 letters, digits or underscores' },
      { t: 'pattern', re: /^[A-Z]{2}$/, says: 'a payment type of two capital letters' },
      'Gives a brand its own payment type; accepted only when a checkout is created.',
    ),
    descriptor: AN(1, 127),
    merchantTransactionId: AN(8, 255, { req: 'C', note: 'Merchant reference; used for reconciliation.' }),
    merchantInvoiceId: AN(8, 255),
    merchantMemo: AN(8, 255),
    transactionCategory: pattern(/^[A-Za-z0-9]{1,32}$/, 'up to 32 letters and digits'),
    sequence: AN(1, 255, {
      note: 'FINAL marks the last transaction of a series (capture, reversal, refund).',
    }),
    numberOfCaptures: INT(1, 98, { note: 'Maximum number of partial captures.' }),
    promotionCode: pattern(/^[A-Za-z0-9]{0,15}$/, 'up to 15 letters and digits'),
    locale: AN(1, 10),
    transactionPurposeCode: AN(1, 12),
    integrationType: AN(1, 10),
    transactionBai: AN(1, 2),
    transactionTti: AN(1, 3),
    transactionProcessingCode: oneOf(['PURCHASE', 'FUNDING', 'PAYMENT']),
    lifecycleId: AN(1, 35),
    referenceUuid: ID32({
      note: 'References an existing transaction for REAUTHORIZATION and INCREMENTAL_AUTH.',
    }),
    testMode: oneOf(['EXTERNAL', 'INTERNAL'], { note: 'Default INTERNAL.' }),
  },
  [partOfAmount('taxAmount')],
);

export const forex = group(
  {
    forex: group({
      amount: AMT({ req: 'C' }),
      currency: CURRENCY({ req: 'C' }),
    }),
  },
  [together('forex.amount', 'forex.currency')],
);

const ENTITY_ID = pattern(/^[0-9a-f]{32}$/, '32 lowercase hex characters', { req: 'C' });

/**
 * entityId, plus the family's legacy credentials in parameters (decisions: Credentials):
 * `authentication.userId` with `authentication.password` stand for the Bearer token.
 */
export const authentication = group({
  entityId: ENTITY_ID,
  authentication: group({
    userId: AN(1, 255),
    password: AN(1, 255, { mask: 'secret' }),
    entityId: ENTITY_ID,
  }),
});

export const customParameters = group({
  customParameters: dict(
    MAP_KEY,
    MAP_VALUE,
    'Echoed back in the response. Sent from the widget, the name starts with SHOPPER_.',
  ),
});
