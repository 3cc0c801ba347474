/** The gift card's descriptor: `giftCard.number` + `giftCard.pin`, a form per brand. */
import { registry } from '../../core/registry';
import { GiftCard } from './GiftCard';

registry.add({ name: 'giftCard', kinds: ['giftCard'], order: 40, Component: GiftCard });
