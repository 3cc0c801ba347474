// @vitest-environment happy-dom
/**
 * Security: the widget draws no button for a brand whose account data it cannot collect. A brand
 * the gateway does not know is dropped from data-brands silently, as the family's widget does; a
 * known card brand (MADA) is drawn in the card form; a redirect brand keeps its button.
 */
import '../methods'; // the payment methods register themselves, as in the bundle's entry
import { beforeEach, expect, it } from 'vitest';
import { keepFrameSources } from '../../server/test-kit/widget-frames';
import { openSession, ready, startWidget, win } from '../../server/test-kit/widget-page';

const session = openSession();

function boot(brands: string) {
  document.body.innerHTML = `<form action="https://shop.test/return" class="paymentWidgets" data-brands="${brands}"></form>`;
  const errors: Error[] = [];
  win().wpwlOptions = { onError: (e: Error) => errors.push(e) };
  const fetch = startWidget(session);
  return { fetch, errors };
}

// The card frames never load here: their address is kept, not fetched.
keepFrameSources();
beforeEach(() => {
  win().wpwl?.unload();
  document.body.innerHTML = '';
});

it('draws no button for brands the gateway does not know, MADA in the card form, PAYPAL as a button', async () => {
  const h = boot('FOOBAR VISA MADA APPLEPAY STC_PAY PAYPAL INVOICE');
  await ready();
  for (const brand of ['FOOBAR', 'APPLEPAY', 'STC_PAY', 'INVOICE']) {
    expect(document.querySelector(`.wpwl-form-onlineTransfer-${brand}`)).toBeNull();
    expect(document.querySelector(`.wpwl-brand-${brand}`)).toBeNull();
    expect(document.body.textContent).not.toContain(brand.replace('_', ' '));
  }
  expect(document.querySelectorAll('form.wpwl-form-card')).toHaveLength(1);
  expect(
    document.querySelector('.wpwl-form-onlineTransfer-PAYPAL .wpwl-button.wpwl-brand-PAYPAL'),
  ).not.toBeNull();
  // The card form offers MADA among its brands.
  const options = document.querySelectorAll<HTMLOptionElement>(
    '.wpwl-form-card select[name="paymentBrand"] option',
  );
  expect(Array.from(options, (o) => o.value)).toEqual(['VISA', 'MADA']);
  expect(h.errors).toEqual([]);
  // Nothing was posted.
  expect(
    h.fetch.mock.calls.every(
      (c) => (c as unknown[])[1] === undefined || ((c as unknown[])[1] as RequestInit).method !== 'POST',
    ),
  ).toBe(true);
});

it('a form that lists only unknown brands draws no payment button at all', async () => {
  // GIROPAY is a known brand now (the family's online transfers): two names no catalogue has.
  boot('FOOBAR NOSUCHPAY');
  await ready();
  expect(document.querySelectorAll('.wpwl-button')).toHaveLength(0);
  expect(document.querySelectorAll('.wpwl-form')).toHaveLength(0);
});
