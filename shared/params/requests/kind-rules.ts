/**
 * Rules that depend on the request kind: parameters accepted at one endpoint only, SHOPPER_
 * custom parameters, a checkout's payment type, a referencing request's amount, time frames.
 */

import { partOfAmount } from '../catalogue/payment';
import { check, has, leafPaths, notBefore, type Rule, str, together } from '../rules';

export const onlyAt = (path: string, where: string, dict = false): Rule =>
  check({
    paths: [path],
    says: `${path} is accepted only ${where}.`,
    apply(root, report) {
      for (const sent of leafPaths(root, path, dict))
        report(sent.name, `is accepted only ${where}`, sent.value);
    },
  });

export const overridePaymentTypeOnlyAtCheckout = onlyAt(
  'overridePaymentType',
  'when a checkout is created',
  true,
);
export const registrationsOnlyAtCheckout = onlyAt('registrations', 'when a checkout is created');

/** "When sent from the client side in the widget flow, the name is prefixed SHOPPER_." */
export const shopperCustomParameters = check({
  paths: ['customParameters'],
  says: 'Custom parameters sent from the widget start with SHOPPER_.',
  apply(root, report) {
    const params = root.customParameters;
    if (typeof params !== 'object' || Array.isArray(params)) return;
    for (const name of Object.keys(params)) {
      if (!name.startsWith('SHOPPER_'))
        report(`customParameters[${name}]`, 'must start with SHOPPER_ when sent from the widget');
    }
  },
});

/**
 * A registration-only checkout (createRegistration=true, no paymentType) stores payment details
 * and charges nothing, so it needs no amount either; any other checkout needs all three.
 */
export const checkoutPaymentType = check({
  paths: ['paymentType', 'createRegistration', 'amount', 'currency'],
  says: 'paymentType, amount and currency are required unless the checkout only registers (createRegistration=true without paymentType).',
  requiredness: true,
  apply(root, report) {
    const registers = ['true', '1'].includes(str(root, 'createRegistration') ?? '');
    if (registers && !has(root, 'paymentType')) {
      if (has(root, 'amount') !== has(root, 'currency')) {
        report(has(root, 'amount') ? 'currency' : 'amount', 'is required with the other', null);
      }
      return;
    }
    for (const p of ['paymentType', 'amount', 'currency']) if (!has(root, p)) report(p, 'is required', null);
  },
});

/** A referencing request: amount and currency, except for a full reversal. */
export const referencingAmount = check({
  paths: ['amount', 'currency', 'paymentType'],
  says: 'amount and currency are required, except for a reversal (RV).',
  requiredness: true,
  apply(root, report) {
    if (str(root, 'paymentType') === 'RV') {
      if (has(root, 'amount') !== has(root, 'currency')) {
        report(has(root, 'amount') ? 'currency' : 'amount', 'is required with a partial reversal', null);
      }
      return;
    }
    for (const p of ['amount', 'currency']) if (!has(root, p)) report(p, 'is required', null);
  },
});

/** date.from and date.to span a time frame together. */
export const DATE_RANGE = [together('date.from', 'date.to'), notBefore('date.from', 'date.to')];

/** shipping.cost is contained in the amount (spec: "taxAmount, shipping.cost and similar"). */
export const shippingCostInAmount = partOfAmount('shipping.cost');
