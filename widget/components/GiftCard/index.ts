/** The gift card's descriptor: `giftCard.number` + `giftCard.pin`, a form per brand. */
import { registry } from '../../core/registry';
import { lazy } from '../internal/lazy';

registry.add({
  name: 'giftCard',
  kinds: ['giftCard'],
  order: 40,
  Component: lazy(() => import('./GiftCard').then((m) => m.GiftCard)),
});
