/**
 * The wallets' descriptor: a wallet whose sheet this widget has (`WALLETA`, `WALLETB`, `WALLETC`, by
 * their parameter group), a button each; another wallet's data no form collects.
 */
import { brandGroup } from '../../../shared/brands';
import { registry } from '../../core/registry';
import { lazy } from '../internal/lazy';

const SHEET_GROUPS = /^wallet[ABC]$/;

registry.add({
  name: 'wallet',
  kinds: ['wallet'],
  accepts: (brand) => SHEET_GROUPS.test(brandGroup(brand) ?? ''),
  order: 50,
  Component: lazy(() => import('./Wallet').then((m) => m.Wallet)),
});
