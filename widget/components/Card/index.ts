/**
 * The card form's descriptor: every card brand of the catalogue (`MADA` too) in one form, placed
 * where the first is listed; its number frame detects among them.
 */
import { isCardBrand } from '../../../shared/brands';
import { registry } from '../../core/registry';
import { pageAsksForAddress } from './billing-fields';
import { BillingAddress, Card } from './Card';

registry.add({
  name: 'card',
  kinds: ['card'],
  accepts: isCardBrand,
  grouped: true,
  order: 10,
  Component: Card,
  // The page's address is drawn with the form: its part first. A checkout that lacks what an
  // enrolled card needs fetches it without waiting, so the address is there when the gateway asks.
  prepare: (session, settings) => {
    if (pageAsksForAddress(settings)) return BillingAddress.preload();
    if ((session?.authenticationBillingFields?.length ?? 0) > 0) void BillingAddress.preload();
    return undefined;
  },
});
