/** Writes docs/payment-methods.md from the payment-method catalogue. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { renderPaymentMethodDocs } from '../shared/brands/docs';

mkdirSync('docs', { recursive: true });
writeFileSync('docs/payment-methods.md', renderPaymentMethodDocs());
console.log('wrote docs/payment-methods.md');
