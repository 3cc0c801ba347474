/** The virtual account's descriptor: `virtualAccount.accountId`, a form per brand. */
import { registry } from '../../core/registry';
import { lazy } from '../internal/lazy';

registry.add({
  name: 'virtualAccount',
  kinds: ['virtualAccount'],
  order: 30,
  Component: lazy(() => import('./VirtualAccount').then((m) => m.VirtualAccount)),
});
