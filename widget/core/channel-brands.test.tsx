// @vitest-environment happy-dom
/**
 * The checkout's channel may accept fewer brands than the page lists: the session's `brands` (absent
 * when the channel accepts every brand). The widget draws only the data-brands the channel also
 * accepts and drops the others silently, as the family's widget does.
 */
import '../methods'; // the payment methods register themselves, as in the bundle's entry
import { beforeEach, expect, it } from 'vitest';
import { keepFrameSources } from '../../server/test-kit/widget-frames';
import { openSession, ready, startWidget, win } from '../../server/test-kit/widget-page';

function boot(brands: string, body: object) {
  document.body.innerHTML = `<form action="https://shop.test/return" class="paymentWidgets" data-brands="${brands}"></form>`;
  const errors: Error[] = [];
  win().wpwlOptions = { onError: (e: Error) => errors.push(e) };
  const fetch = startWidget(body);
  return { fetch, errors };
}

const cardOptions = () =>
  Array.from(
    document.querySelectorAll<HTMLOptionElement>('.wpwl-form-card select[name="paymentBrand"] option'),
    (o) => o.value,
  );

// The card frames never load here: their address is kept, not fetched.
keepFrameSources();
beforeEach(() => {
  win().wpwl?.unload();
  document.body.innerHTML = '';
});

it('a channel that accepts VISA and MASTER: only they, in the card form; no SEPA, no PAYPAL', async () => {
  const h = boot('VISA MASTER MADA DIRECTDEBIT_SEPA PAYPAL', openSession({ brands: ['VISA', 'MASTER'] }));
  await ready();
  expect(document.querySelectorAll('form.wpwl-form')).toHaveLength(1);
  expect(document.querySelectorAll('form.wpwl-form-card')).toHaveLength(1);
  expect(cardOptions()).toEqual(['VISA', 'MASTER']);
  expect(document.querySelector('.wpwl-form-directDebit')).toBeNull();
  expect(document.querySelector('.wpwl-form-onlineTransfer-PAYPAL')).toBeNull();
  for (const brand of ['MADA', 'DIRECTDEBIT_SEPA', 'PAYPAL']) {
    expect(document.querySelector(`.wpwl-brand-${brand}`)).toBeNull();
  }
  expect(document.body.textContent).not.toMatch(/PayPal|PAYPAL|mada|SEPA/);
  // Silently: nothing reported.
  expect(h.errors).toEqual([]);
});

it('the card frames detect only among the accepted card brands', async () => {
  boot('VISA MASTER MADA', openSession({ brands: ['MASTER', 'MADA', 'AMEX'] }));
  await ready();
  expect(cardOptions()).toEqual(['MASTER', 'MADA']);
});

it('a session without brands accepts every brand the page lists', async () => {
  boot('VISA MASTER MADA DIRECTDEBIT_SEPA PAYPAL', openSession());
  await ready();
  expect(cardOptions()).toEqual(['VISA', 'MASTER', 'MADA']);
  expect(document.querySelector('.wpwl-form-directDebit')).not.toBeNull();
  expect(document.querySelector('.wpwl-form-onlineTransfer-PAYPAL')).not.toBeNull();
});

it('a channel that accepts none of the listed brands: no form at all, nothing reported', async () => {
  const h = boot('DIRECTDEBIT_SEPA PAYPAL', openSession({ brands: ['VISA'] }));
  await ready();
  expect(document.querySelectorAll('.wpwl-form')).toHaveLength(0);
  expect(document.querySelectorAll('.wpwl-button')).toHaveLength(0);
  expect(h.errors).toEqual([]);
});
