/** The virtual account's descriptor: `virtualAccount.accountId`, a form per brand. */
import { registry } from '../../core/registry';
import { VirtualAccount } from './VirtualAccount';

registry.add({ name: 'virtualAccount', kinds: ['virtualAccount'], order: 30, Component: VirtualAccount });
