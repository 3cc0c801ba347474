// @vitest-environment happy-dom
/**
 * The one-click form as the session draws it: a stored card shows its brand and last four digits
 * only, and a card the session says needs its CVV (`cvvRequired`: the channel asks for it) gets
 * the CVV frame without the page's `registrations.requireCvv`; the CVV is the frame's to send
 * (`cvv: 'required'`), never the page's. A card that needs none pays without it.
 */
import '../../methods';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { keepFrameSources, playFrame } from '../../../server/test-kit/widget-frames';
import { GW, json, openSession, ready, startWidget, win } from '../../../server/test-kit/widget-page';
import { type HostMessage, NS } from '../../frames/protocol';

const VISA = { id: 'a'.repeat(32), paymentBrand: 'VISA', card: { last4Digits: '0000' }, cvvRequired: true };
const MAESTRO = { id: 'b'.repeat(32), paymentBrand: 'MAESTRO', card: { last4Digits: '8453' } };

const $ = <T extends Element = HTMLElement>(sel: string) => document.querySelector<T>(sel);

/** The CVV frame, played by the test; it has said hello. */
function cvvFrame() {
  const frame = playFrame($<HTMLIFrameElement>('.wpwl-form-registrations iframe.wpwl-control-cvv')!);
  frame.say(frame.hello);
  return frame;
}

const pay = () => $<HTMLButtonElement>('.wpwl-form-registrations .wpwl-button-pay')!.click();

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

describe('one-click', () => {
  it('shows brand and last four digits only, and asks for the CVV the session requires, through its frame', async () => {
    const fetch = startWidget(openSession({ registrations: [VISA, MAESTRO] }));
    await ready();
    const first = $('.wpwl-form-registrations .wpwl-registration')!;
    expect(first.textContent).toContain('•••• 0000');
    expect(first.querySelector('img.wpwl-logo-VISA')).not.toBeNull();
    expect($('.wpwl-registration-holder')).toBeNull();
    expect($('.wpwl-registration-expiry')).toBeNull();
    expect($('.wpwl-wrapper-registration-cvv iframe.wpwl-control-cvv')).not.toBeNull();

    const cvv = cvvFrame();
    expect(cvv.received).toContainEqual({ ns: NS, t: 'brand', brand: 'VISA' });
    // Empty: refused in the page, nothing sent.
    cvv.say({ t: 'state', empty: true, valid: false, brand: null, brands: [], length: 0, last4: null });
    pay();
    await vi.waitFor(() => expect($('.wpwl-group-registration-cvv .wpwl-has-error')).not.toBeNull());
    expect(cvv.received.some((m) => m.t === 'submit')).toBe(false);

    cvv.say({ t: 'state', empty: false, valid: true, brand: null, brands: [], length: 3, last4: null });
    pay();
    await vi.waitFor(() => expect(cvv.received.some((m) => m.t === 'submit')).toBe(true));
    const sent = cvv.received.find((m) => m.t === 'submit') as Extract<HostMessage, { t: 'submit' }>;
    expect(sent.cvv).toBe('required');
    expect(sent.fields).toContainEqual(['registrationId', VISA.id]);
    expect(sent.fields.some(([name]) => name === 'card.cvv')).toBe(false);
    // the page itself posted nothing: only the session was read
    expect(fetch).toHaveBeenCalledTimes(1);
  });

  it('a stored card that needs no CVV pays without one', async () => {
    startWidget(openSession({ registrations: [MAESTRO, VISA] }));
    await ready();
    const cvv = cvvFrame();
    cvv.say({ t: 'state', empty: true, valid: false, brand: null, brands: [], length: 0, last4: null });
    pay();
    await vi.waitFor(() => expect(cvv.received.some((m) => m.t === 'submit')).toBe(true));
    const sent = cvv.received.find((m) => m.t === 'submit') as Extract<HostMessage, { t: 'submit' }>;
    expect(sent.cvv).toBe('optional');
    expect(sent.fields).toContainEqual(['registrationId', MAESTRO.id]);
  });

  it('without cvvRequired or registrations.requireCvv there is no CVV field: the page posts registrationId', async () => {
    const { cvvRequired: _, ...visa } = VISA;
    const fetch = vi.fn(async (_url: string, init?: RequestInit) =>
      init?.method === 'POST'
        ? json({ result: { code: '000.100.110' } })
        : json(openSession({ registrations: [visa] })),
    );
    const { start } = await import('../../core/boot');
    start({
      win: window,
      script: { src: `${GW}/v1/paymentWidgets.js?checkoutId=${openSession().id}` },
      fetch: fetch as unknown as typeof globalThis.fetch,
      navigate: vi.fn(),
    });
    await ready();
    expect($('.wpwl-form-registrations iframe')).toBeNull();
    pay();
    await vi.waitFor(() => expect(fetch).toHaveBeenCalledTimes(2));
    expect(String(fetch.mock.calls[1]![1]!.body)).toContain(`registrationId=${visa.id}`);
  });
});
