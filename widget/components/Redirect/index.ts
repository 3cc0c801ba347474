/**
 * The redirect methods' descriptor: a redirect or bank brand without account data (online transfers,
 * `PAYPAL`, `WALLETD_CONTINUE`, `PREPAYMENT`), a button each that posts the brand. Asked last.
 */
import { brandGroup } from '../../../shared/brands';
import { registry } from '../../core/registry';
import { lazy } from '../internal/lazy';

registry.add({
  name: 'onlineTransfer',
  kinds: ['redirect', 'bank'],
  accepts: (brand) => brandGroup(brand) === undefined,
  order: 100,
  Component: lazy(() => import('./Redirect').then((m) => m.Redirect)),
});
