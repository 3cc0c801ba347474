/**
 * The card form's descriptor: every card brand of the catalogue (`MADA` too) in one form, placed
 * where the first is listed; its number frame detects among them.
 */
import { isCardBrand } from '../../../shared/brands';
import { registry } from '../../core/registry';
import { Card } from './Card';

registry.add({
  name: 'card',
  kinds: ['card'],
  accepts: isCardBrand,
  grouped: true,
  order: 10,
  Component: Card,
});
