// @vitest-environment happy-dom
/**
 * The card frames start at boot (issue 21), while the session is read: bound like any card frame
 * (the checkout of the script's URL, the page's origin, one group nonce), then taken by the card
 * form, the same elements, moved with Element.moveBefore (happy-dom lacks it: a stand-in moves them
 * with insertBefore, which is what it does to a document that loads nothing).
 */
import '../methods';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { keepFrameSources, playFrame as play } from '../../server/test-kit/widget-frames';
import { CHECKOUT_ID, GW, json, WIDGET_SCRIPT, win } from '../../server/test-kit/widget-page';
import { readFrameHash } from '../frames/protocol';
import { start } from './boot';

const session = {
  id: CHECKOUT_ID,
  kind: 'payment',
  state: 'open',
  expiresAt: new Date(Date.now() + 30 * 60_000).toISOString(),
  amount: '92.00',
  currency: 'EUR',
  paymentType: 'DB',
  registrations: [],
};

/** Boots with the session held until `answer()`; `calls` records the page's callbacks in order. */
function boot(script = WIDGET_SCRIPT) {
  const calls: string[] = [];
  win().wpwlOptions = {
    onError: (e: Error) => calls.push(`onError ${e.message}`),
    onReady: () => calls.push('onReady'),
    onReadyIframeCommunication: () => calls.push('onReadyIframeCommunication'),
  };
  let answer: () => void = () => undefined;
  const held = new Promise<void>((resolve) => {
    answer = resolve;
  });
  const fetch = vi.fn(async () => {
    await held;
    return json(session);
  });
  start({ win: window, script: { src: script }, fetch: fetch as unknown as typeof globalThis.fetch });
  return { calls, answer };
}

const started = () => Array.from(document.querySelectorAll<HTMLIFrameElement>('[data-wpwl="frames"] iframe'));
const bindingOf = (iframe: HTMLIFrameElement) => readFrameHash(new URL(iframe.dataset.testSrc!).hash);

keepFrameSources();
beforeAll(() => {
  Object.defineProperty(Element.prototype, 'moveBefore', {
    configurable: true,
    value(this: Element, node: Node, child: Node | null) {
      this.insertBefore(node, child);
    },
  });
});
afterAll(() => {
  delete (Element.prototype as { moveBefore?: unknown }).moveBefore;
});
beforeEach(() => {
  document.head.innerHTML = '';
  document.body.innerHTML =
    '<form action="https://shop.test/return" class="paymentWidgets" data-brands="VISA MASTER"></form>';
});
afterEach(() => {
  win().wpwl?.unload();
  delete win().wpwlOptions;
});

describe('card frames started at boot', () => {
  it('start before the session answers, bound to the script’s checkout, the page’s origin and one group', () => {
    boot();
    const frames = started();
    expect(frames).toHaveLength(2);
    const [number, cvv] = frames.map(bindingOf);
    expect(number).toMatchObject({ field: 'number', checkout: CHECKOUT_ID, origin: window.location.origin });
    expect(cvv).toMatchObject({ field: 'cvv', checkout: CHECKOUT_ID, origin: window.location.origin });
    expect(number!.group).toBe(cvv!.group);
    expect(number!.group).toMatch(/^[0-9a-f]{32}$/);
    // One URL per field, so the two documents load side by side.
    expect(frames[0]!.dataset.testSrc!.startsWith(`${GW}/v1/widget/frames/card-field.html?number#`)).toBe(
      true,
    );
    expect(frames[1]!.dataset.testSrc!.startsWith(`${GW}/v1/widget/frames/card-field.html?cvv#`)).toBe(true);
    expect(frames[0]!.getAttribute('referrerpolicy')).toBe('origin');
  });

  it('wait out of every shopper’s reach, yet rendered (not display: none, which Chromium runs in the background)', () => {
    boot();
    const holder = document.querySelector<HTMLElement>('[data-wpwl="frames"]')!;
    expect(holder.hidden).toBe(false);
    expect(holder.hasAttribute('inert')).toBe(true);
    expect(holder.style.position).toBe('fixed');
    expect([holder.style.width, holder.style.height, holder.style.overflow]).toEqual([
      '1px',
      '1px',
      'hidden',
    ]);
  });

  it('become the card form’s frames, which hear what they said before the form existed, after onReady', async () => {
    const { calls, answer } = boot();
    const [number, cvv] = started();
    const n = play(number!);
    const c = play(cvv!);
    const { group } = bindingOf(number!)!;
    n.say({ t: 'ready', checkout: CHECKOUT_ID, group });
    c.say({ t: 'ready', checkout: CHECKOUT_ID, group });
    expect(n.received).toEqual([]);
    answer();
    await vi.waitFor(() => expect(calls).toContain('onReadyIframeCommunication'));
    expect(document.querySelector('iframe.wpwl-control-cardNumber')).toBe(number);
    expect(document.querySelector('iframe.wpwl-control-cvv')).toBe(cvv);
    expect(number!.title).not.toBe('');
    expect(document.querySelector('[data-wpwl="frames"]')).toBeNull();
    expect(n.received.map((m) => m.t)).toContain('init');
    expect(c.received.map((m) => m.t)).toContain('init');
    expect(calls).toEqual(['onReady', 'onReadyIframeCommunication']);
  });

  it('a started frame that says another checkout or group is not the form’s: no init', async () => {
    const { calls, answer } = boot();
    const [number] = started();
    const n = play(number!);
    n.say({ t: 'ready', checkout: 'EVIL.local01', group: bindingOf(number!)!.group });
    n.say({ t: 'ready', checkout: CHECKOUT_ID, group: 'f'.repeat(32) });
    answer();
    await vi.waitFor(() => expect(calls).toContain('onReady'));
    await Promise.resolve();
    expect(document.querySelector('iframe.wpwl-control-cardNumber')).toBe(number);
    expect(n.received).toEqual([]);
  });

  it('start none for a page whose forms list no card brand, or a malformed checkoutId', () => {
    document.body.innerHTML = '<form class="paymentWidgets" data-brands="DIRECTDEBIT_SEPA"></form>';
    boot();
    expect(started()).toEqual([]);
    win().wpwl?.unload();
    document.body.innerHTML = '<form class="paymentWidgets" data-brands="VISA"></form>';
    boot(`${GW}/v1/paymentWidgets.js?checkoutId=not%20an%20id`);
    expect(started()).toEqual([]);
  });

  it('are removed once the widget is drawn without a card form', async () => {
    // The script before its form: the frames start; the form then lists no card.
    document.body.innerHTML = '';
    const { calls, answer } = boot();
    expect(started()).toHaveLength(2);
    document.body.innerHTML = '<form class="paymentWidgets" data-brands="DIRECTDEBIT_SEPA"></form>';
    answer();
    await vi.waitFor(() => expect(calls).toContain('onReady'));
    expect(document.querySelectorAll('iframe')).toHaveLength(0);
  });
});
