/** SEPA's descriptor: a bank brand with an IBAN (`DIRECTDEBIT_SEPA`, `SEPA`), a form each. */
import { BANK_BRAND_SPECS, isBankBrand } from '../../../shared/brands';
import { registry } from '../../core/registry';
import { lazy } from '../internal/lazy';

registry.add({
  name: 'directDebit',
  kinds: ['bank'],
  accepts: (brand) => isBankBrand(brand) && BANK_BRAND_SPECS[brand].requiresIban,
  order: 20,
  Component: lazy(() => import('./DirectDebit').then((m) => m.DirectDebit)),
});
