/**
 * The card form's descriptor: every card brand of the catalogue (`MADA` too) in one form, placed
 * where the first is listed; its number frame detects among them.
 */
import { isCardBrand } from '../../../shared/brands';
import { registry } from '../../core/registry';
import { neededFields } from './billing-fields';
import { BillingAddress, Card } from './Card';

registry.add({
  name: 'card',
  kinds: ['card'],
  accepts: isCardBrand,
  grouped: true,
  order: 10,
  Component: Card,
  prepare: (session) => (neededFields(session).length > 0 ? BillingAddress.preload() : undefined),
});
