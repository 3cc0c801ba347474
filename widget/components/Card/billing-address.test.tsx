// @vitest-environment happy-dom
/**
 * The card form's billing address through the whole widget (start()): never drawn up front unless
 * the page asks for it (wpwlOptions.billingAddress, mandatoryBillingFields); asked, exactly the
 * fields named, when the gateway answers an enrolled card's submission with a 400 naming the v2
 * billing fields; checked with the gateway's formats, and handed to the number frame as billing.*
 * with the card.
 */
import '../../methods'; // the payment methods register themselves, as in the bundle's entry
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { keepFrameSources, playFrame } from '../../../server/test-kit/widget-frames';
import { CHECKOUT_ID, FUTURE, ready, startWidget, win } from '../../../server/test-kit/widget-page';
import { billing } from '../../../shared/params/catalogue/customer';
import { checkFormat } from '../../../shared/params/formats';
import type { Group, Leaf } from '../../../shared/params/nodes';
import type { HostMessage } from '../../frames/protocol';
import { EN } from '../../language';
import { BILLING_FIELDS, billingModel, STATE_COUNTRIES } from './billing-address';

const ALL = ['street1', 'city', 'postcode', 'country'];

const $ = <T extends Element = HTMLElement>(sel: string) => document.querySelector<T>(sel);

function boot(options: Record<string, unknown>, authenticationBillingFields?: string[]) {
  win().wpwlOptions = { onError: () => undefined, ...options };
  const session = {
    id: CHECKOUT_ID,
    kind: 'payment',
    state: 'open',
    expiresAt: FUTURE,
    amount: '92.00',
    currency: 'EUR',
    registrations: [],
    ...(authenticationBillingFields ? { authenticationBillingFields } : {}),
  };
  startWidget(session);
}

/** The number and CVV frames, played by the test: valid card data in both. */
function frames() {
  const play = (cls: 'cardNumber' | 'cvv') => {
    const frame = playFrame($<HTMLIFrameElement>(`iframe.wpwl-control-${cls}`)!);
    frame.say(frame.hello);
    return frame;
  };
  const n = play('cardNumber');
  const c = play('cvv');
  n.say({
    t: 'state',
    empty: false,
    valid: true,
    brand: 'VISA',
    brands: ['VISA'],
    length: 16,
    last4: '0000',
  });
  c.say({ t: 'state', empty: false, valid: true, brand: null, brands: [], length: 3, last4: null });
  type($<HTMLInputElement>('.wpwl-control-expiry')!, '05 / 34');
  type($<HTMLInputElement>('.wpwl-control-cardHolder')!, 'Jane Mary Jones');
  return n;
}

function type(input: HTMLInputElement | HTMLSelectElement, value: string) {
  input.value = value;
  input.dispatchEvent(new Event(input instanceof HTMLSelectElement ? 'change' : 'input', { bubbles: true }));
}
const control = (field: string) => $<HTMLInputElement>(`.wpwl-form-card .wpwl-control-${field}`)!;
const hint = (field: string) =>
  document.getElementById(control(field).getAttribute('aria-describedby') ?? '')?.textContent;
const submit = () => $<HTMLButtonElement>('.wpwl-form-card .wpwl-button-pay')!.click();
type Submit = Extract<HostMessage, { t: 'submit' }>;
const submits = (n: { received: HostMessage[] }) => n.received.filter((m): m is Submit => m.t === 'submit');
/** The fields of the `nth` submission (the first by default), once it is sent. */
const sentFields = async (n: { received: HostMessage[] }, nth = 1) => {
  await vi.waitFor(() => expect(submits(n).length).toBeGreaterThanOrEqual(nth));
  const sent = submits(n)[nth - 1]!;
  return Object.fromEntries(sent.fields.filter(([name]) => !name.startsWith('customer.browser.')));
};
/** The gateway's 400 to the latest submission: the v2 fields an enrolled card needs, by name. */
const missingForV2 = (n: ReturnType<typeof frames>, names: string[]) => {
  const sent = submits(n).at(-1)!;
  n.say({
    t: 'result',
    id: sent.id,
    status: 400,
    body: {
      result: {
        code: '200.300.404',
        parameterErrors: names.map((name) => ({
          name,
          value: null,
          message: 'is mandatory for 3-D Secure v2',
        })),
      },
    },
  });
};
const shownFields = () =>
  [...document.querySelectorAll('.wpwl-group-billing .wpwl-group')].map((g) =>
    [...g.classList].find((c) => c.startsWith('wpwl-group-') && c !== 'wpwl-group-billing'),
  );

keepFrameSources();
beforeEach(() => {
  document.body.innerHTML =
    '<form action="https://shop.test/return" class="paymentWidgets" data-brands="VISA"></form>';
});
afterEach(() => {
  win().wpwl?.unload();
  delete win().wpwlOptions;
  vi.restoreAllMocks();
});

describe('the card form’s billing address', () => {
  it('is not drawn up front, even when an authenticated card would need one: a card that needs none pays without', async () => {
    boot({}, ALL);
    await ready();
    expect($('.wpwl-group-billing')).toBeNull();
    const n = frames();
    submit();
    const fields = await sentFields(n);
    expect(Object.keys(fields).filter((k) => k.startsWith('billing.'))).toEqual([]);
  });

  it('an enrolled card answered 400 naming the billing fields: exactly those are asked, flagged, the first focused; the card is kept and sent again with them', async () => {
    boot({}, ALL);
    await ready();
    const n = frames();
    submit();
    await sentFields(n);
    missingForV2(n, ['billing.street1', 'billing.city', 'billing.postcode', 'billing.country']);
    await vi.waitFor(() => expect($('.wpwl-form-card fieldset.wpwl-group-billing')).not.toBeNull());
    const group = $('.wpwl-form-card fieldset.wpwl-group-billing')!;
    expect(group.querySelector('legend')!.textContent).toBe('Billing address');
    expect([...group.querySelectorAll('.wpwl-label')].map((l) => l.textContent)).toEqual([
      'Billing address',
      'Street and house number',
      'City',
      'Postcode',
      'Country',
    ]);
    const country = control('country') as unknown as HTMLSelectElement;
    expect(country.tagName).toBe('SELECT');
    expect(country.options).toHaveLength(250);
    expect(control('street1').getAttribute('autocomplete')).toBe('billing address-line1');
    // The pay button stays after the address.
    expect($('.wpwl-group-billing + .wpwl-group-submit')).not.toBeNull();
    await vi.waitFor(() => expect(control('street1').getAttribute('aria-invalid')).toBe('true'));
    expect(hint('street1')).toBe('Please fill in this field.');
    expect(hint('city')).toBe('Please fill in this field.');
    expect(hint('postcode')).toBe('Please fill in this field.');
    expect(hint('country')).toBe('Please choose a country.');
    expect($('.wpwl-form-card .wpwl-message')!.textContent).toBe(
      'Your card issuer needs your billing address to confirm this payment.',
    );
    await vi.waitFor(() => expect(document.activeElement).toBe(control('street1')));
    // The card is still there: nothing to type again.
    expect(control('cardHolder').value).toBe('Jane Mary Jones');
    expect(control('expiry').value).toBe('05 / 34');

    // Nothing is sent again until the address is filled.
    submit();
    await vi.waitFor(() => expect(document.activeElement).toBe(control('street1')));
    expect(submits(n)).toHaveLength(1);
    type(control('street1'), 'Hauptstrasse 1');
    type(control('city'), 'Berlin');
    type(control('postcode'), '10115');
    type(control('country'), 'DE');
    // Fixed fields lose their error at once.
    await vi.waitFor(() => expect(control('street1').classList.contains('wpwl-has-error')).toBe(false));
    await vi.waitFor(() => expect(control('country').classList.contains('wpwl-has-error')).toBe(false));
    submit();
    expect(await sentFields(n, 2)).toMatchObject({
      paymentBrand: 'VISA',
      'card.holder': 'Jane Mary Jones',
      'card.expiryMonth': '05',
      'card.expiryYear': '2034',
      'billing.street1': 'Hauptstrasse 1',
      'billing.city': 'Berlin',
      'billing.postcode': '10115',
      'billing.country': 'DE',
    });
  });

  it('asks only the fields named, and the state where the chosen country’s addresses have one', async () => {
    boot({});
    await ready();
    const n = frames();
    submit();
    await sentFields(n);
    missingForV2(n, ['billing.postcode', 'billing.country']);
    await vi.waitFor(() => expect(shownFields()).toEqual(['wpwl-group-postcode', 'wpwl-group-country']));
    type(control('country'), 'US');
    await vi.waitFor(() => expect($('.wpwl-group-state')).not.toBeNull());
    expect(STATE_COUNTRIES).toContain('US');
    for (const [field, value, message] of [
      ['postcode', '10001!', 'Please enter a valid postcode.'],
      ['state', 'N@Y', 'Please enter a valid state or region.'],
    ] as const) {
      type(control(field), value);
      control(field).dispatchEvent(new Event('blur'));
      await vi.waitFor(() => expect(hint(field)).toBe(message));
    }
    submit();
    expect(submits(n)).toHaveLength(1);
    type(control('postcode'), '10001-2345');
    type(control('state'), 'New York');
    submit();
    const fields = await sentFields(n, 2);
    expect(fields).toMatchObject({
      'billing.postcode': '10001-2345',
      'billing.country': 'US',
      'billing.state': 'New York',
    });
    expect(fields).not.toHaveProperty('billing.street1');
  });

  it('a field the gateway names later joins those already asked', async () => {
    boot({});
    await ready();
    const n = frames();
    submit();
    await sentFields(n);
    missingForV2(n, ['billing.country']);
    await vi.waitFor(() => expect(shownFields()).toEqual(['wpwl-group-country']));
    type(control('country'), 'DE');
    submit();
    await sentFields(n, 2);
    missingForV2(n, ['billing.city']);
    await vi.waitFor(() => expect(shownFields()).toEqual(['wpwl-group-city', 'wpwl-group-country']));
    expect((control('country') as unknown as HTMLSelectElement).value).toBe('DE');
    await vi.waitFor(() => expect(hint('city')).toBe('Please fill in this field.'));
  });

  it('the page’s billingAddress draws the address from the start, prefilled; mandatoryBillingFields says what must be filled', async () => {
    boot(
      {
        billingAddress: {
          street1: 'Rue de Rivoli 1',
          city: 'Paris',
          postcode: '75001',
          country: 'fr',
          state: '',
        },
        mandatoryBillingFields: { state: true },
      },
      ['street1', 'postcode', 'country'],
    );
    await ready();
    expect(control('street1').value).toBe('Rue de Rivoli 1');
    expect(control('postcode').value).toBe('75001');
    expect((control('country') as unknown as HTMLSelectElement).value).toBe('FR');
    // The checkout has a city: not asked. mandatoryBillingFields.state: asked, and must be filled.
    expect($('.wpwl-group-city')).toBeNull();
    expect($('.wpwl-group-state')).not.toBeNull();
    const n = frames();
    submit();
    await vi.waitFor(() => expect(hint('state')).toBe('Please fill in this field.'));
    expect(submits(n)).toHaveLength(0);
    type(control('state'), 'Ile-de-France');
    submit();
    const fields = await sentFields(n);
    expect(fields).toMatchObject({
      'billing.street1': 'Rue de Rivoli 1',
      'billing.postcode': '75001',
      'billing.country': 'FR',
      'billing.state': 'Ile-de-France',
    });
    expect(fields).not.toHaveProperty('billing.city');
  });

  it('mandatoryBillingFields alone draws every field; an empty field that is not mandatory is not sent', async () => {
    boot({ mandatoryBillingFields: { country: true } });
    await ready();
    expect(shownFields()).toEqual([
      'wpwl-group-street1',
      'wpwl-group-city',
      'wpwl-group-postcode',
      'wpwl-group-country',
    ]);
    const n = frames();
    submit();
    await vi.waitFor(() => expect(hint('country')).toBe('Please choose a country.'));
    expect(hint('street1')).toBeFalsy();
    type(control('country'), 'DE');
    submit();
    const fields = await sentFields(n);
    expect(fields['billing.country']).toBe('DE');
    expect(fields).not.toHaveProperty('billing.street1');
  });

  it('mandatoryBillingFields.state false leaves the state of a US address optional', async () => {
    boot({ billingAddress: { country: 'US' }, mandatoryBillingFields: { state: false } }, ALL);
    await ready();
    const n = frames();
    expect($('.wpwl-group-state')).not.toBeNull();
    type(control('street1'), '1 Main St');
    type(control('city'), 'New York');
    type(control('postcode'), '10001');
    submit();
    const fields = await sentFields(n);
    expect(fields['billing.country']).toBe('US');
    expect(fields).not.toHaveProperty('billing.state');
  });

  it('forceCardHolderEqualsBillingName: the holder goes as the billing name, and may not be empty', async () => {
    boot({ forceCardHolderEqualsBillingName: true, allowEmptyCardHolderName: true });
    await ready();
    const n = frames();
    type(control('cardHolder'), '');
    submit();
    await vi.waitFor(() => expect(hint('cardHolder')).toBe('Invalid card holder'));
    type(control('cardHolder'), 'Jane Mary Jones');
    submit();
    expect(await sentFields(n)).toMatchObject({
      'card.holder': 'Jane Mary Jones',
      'customer.givenName': 'Jane Mary',
      'customer.surname': 'Jones',
    });
  });

  it('marks the field the gateway refused', async () => {
    boot({ billingAddress: { street1: 'Main 1', city: 'Berlin', postcode: '10115', country: 'DE' } }, ALL);
    await ready();
    const n = frames();
    submit();
    await vi.waitFor(() => expect(n.received.some((m) => m.t === 'submit')).toBe(true));
    const sent = n.received.find((m) => m.t === 'submit') as Extract<HostMessage, { t: 'submit' }>;
    n.say({
      t: 'result',
      id: sent.id,
      status: 400,
      body: { result: { code: '100.800.401', parameterErrors: [{ name: 'billing.city', message: 'bad' }] } },
    });
    await vi.waitFor(() => expect(control('city').classList.contains('wpwl-has-error')).toBe(true));
  });
});

describe('billing checks', () => {
  it('give the gateway’s verdict on every field’s format (shared/params)', () => {
    const fields = (billing.fields.billing as Group).fields;
    const model = billingModel({ billingAddress: {}, mandatoryBillingFields: {} }, EN.errorMessages, {
      shown: ['street1', 'city', 'postcode', 'country'],
      asked: ['street1', 'city', 'postcode', 'country'],
    });
    const samples = fc.oneof(
      fc.string({ maxLength: 110 }),
      fc.constantFrom(
        '10115',
        'TE1 2ST',
        '90925-6038',
        '-123',
        'New Jersey',
        'N.Y.',
        'DE',
        'XK',
        'de',
        'Île',
      ),
    );
    fc.assert(
      fc.property(samples, (value) => {
        for (const field of BILLING_FIELDS) {
          model.values.value = { [field]: value };
          const gateway = checkFormat((fields[field] as Leaf).format, value) === undefined;
          // Empty or blank values are "missing" for the form (asked again), as for the gateway.
          if (value.trim() !== value || value === '') continue;
          expect(model.check(field) === undefined, `${field} ${JSON.stringify(value)}`).toBe(gateway);
        }
      }),
      { numRuns: 300 },
    );
  });
});
