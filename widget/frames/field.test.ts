// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { announce } from './announce';
import { answerForHost, cleanStyle, type FieldEnv, formatNumber, startField } from './field';
import { channelName, type FrameMessage, frameHash, NS, readFrameHash } from './protocol';

const HOST = 'https://shop.test';
const GROUP = 'a1b2c3d4e5f6a7b8c9d0';
/** The checkout the frames are made for, and another merchant's. */
const CHECKOUT = 'ABC.local01';
const OTHER = 'EVIL.local01';

/** BroadcastChannel stand-in: every channel of a name hears the others, never itself. */
function channels() {
  const all: { name: string; ch: { onmessage: ((e: MessageEvent) => void) | null } }[] = [];
  return (name: string) => {
    const ch = {
      onmessage: null as ((e: MessageEvent) => void) | null,
      postMessage(data: unknown) {
        for (const other of all) {
          if (other.name === name && other.ch !== ch)
            queueMicrotask(() => other.ch.onmessage?.({ data } as MessageEvent));
        }
      },
      close() {},
    };
    all.push({ name, ch });
    return ch;
  };
}

interface Frame {
  readonly win: { location: { hash: string } };
  readonly sent: FrameMessage[];
  readonly parent: { postMessage: ReturnType<typeof vi.fn> };
  readonly input: HTMLInputElement;
  host(data: object, origin?: string, source?: unknown): void;
  stop: () => void;
}

function frame(
  field: 'number' | 'cvv',
  env: Partial<FieldEnv> = {},
  openChannel = channels(),
  checkout = CHECKOUT,
): Frame {
  const doc = document.implementation.createHTMLDocument('frame');
  const sent: FrameMessage[] = [];
  const parent = {
    postMessage: vi.fn((m: FrameMessage, origin?: unknown) => {
      if (origin === HOST) sent.push(m);
    }),
  };
  const listeners: ((e: MessageEvent) => void)[] = [];
  const win = {
    location: {
      hash: frameHash({ field, group: GROUP, origin: HOST, checkout }),
      href: 'https://gw.test/v1/widget/frames/card-field.html',
    },
    addEventListener: (_: string, l: (e: MessageEvent) => void) => listeners.push(l),
    removeEventListener: () => {},
  } as unknown as Window;
  const stop = startField({
    window: win,
    document: doc,
    parent,
    fetch: vi.fn() as unknown as typeof fetch,
    openChannel: openChannel as FieldEnv['openChannel'],
    ...env,
  });
  if (!stop) throw new Error('frame refused to start');
  return {
    win: win as unknown as Frame['win'],
    sent,
    parent,
    input: doc.querySelector('input')!,
    host(data, origin = HOST, source = parent) {
      for (const l of listeners) l({ data: { ns: NS, ...data }, origin, source } as unknown as MessageEvent);
    },
    stop,
  };
}

const INIT = {
  t: 'init',
  label: 'Card number',
  placeholder: 'Card number',
  dir: 'ltr',
  brands: ['VISA', 'MASTER', 'AMEX'],
  priority: [],
  mask: false,
  style: { input: { color: 'red', background: 'url(https://evil.test/x)' }, placeholder: {} },
  autofocus: false,
  submitOnEnter: true,
};

const type = (input: HTMLInputElement, value: string) => {
  input.value = value;
  input.dispatchEvent(new Event('input'));
};
const lastState = (f: Frame) =>
  [...f.sent].reverse().find((m) => m.t === 'state') as Extract<FrameMessage, { t: 'state' }>;

describe('card-field frame', () => {
  beforeEach(() => vi.useRealTimers());
  afterEach(() => vi.restoreAllMocks());

  it('reads its parameters from the fragment and refuses a malformed one', () => {
    expect(
      readFrameHash(frameHash({ field: 'cvv', group: GROUP, origin: HOST, checkout: CHECKOUT })),
    ).toEqual({
      field: 'cvv',
      group: GROUP,
      origin: HOST,
      checkout: CHECKOUT,
    });
    expect(readFrameHash(`#f=number&g=short&o=https://shop.test&c=${CHECKOUT}`)).toBeUndefined();
    expect(readFrameHash(`#f=pin&g=${GROUP}&o=https://shop.test&c=${CHECKOUT}`)).toBeUndefined();
    expect(readFrameHash(`#f=number&g=${GROUP}&o=https://shop.test/path&c=${CHECKOUT}`)).toBeUndefined();
    // No checkout, or one that is not a checkout id: the frame is bound to nothing and stays off.
    expect(readFrameHash(`#f=number&g=${GROUP}&o=https://shop.test`)).toBeUndefined();
    expect(readFrameHash(`#f=number&g=${GROUP}&o=https://shop.test&c=`)).toBeUndefined();
    expect(readFrameHash(`#f=number&g=${GROUP}&o=https://shop.test&c=A/../../payments`)).toBeUndefined();
  });

  it('refuses to run when the real parent origin differs from the declared one', () => {
    const doc = document.implementation.createHTMLDocument('frame');
    const win = {
      location: {
        hash: frameHash({ field: 'number', group: GROUP, origin: HOST, checkout: CHECKOUT }),
        href: 'https://gw.test/x',
      },
      addEventListener: () => {},
    } as unknown as Window;
    const stop = startField({
      window: win,
      document: doc,
      parent: { postMessage: vi.fn() },
      fetch: vi.fn() as unknown as typeof fetch,
      openChannel: channels() as FieldEnv['openChannel'],
      ancestorOrigin: 'https://evil.test',
    });
    expect(stop).toBeUndefined();
  });

  it('says ready to its parent origin only, and ignores messages from other origins or windows', () => {
    const f = frame('number');
    expect(f.sent[0]).toEqual({ ns: NS, t: 'ready', checkout: CHECKOUT, group: GROUP });
    expect(f.parent.postMessage.mock.calls.every(([, origin]) => origin === HOST)).toBe(true);
    f.host(INIT, 'https://evil.test');
    f.host(INIT, HOST, {});
    expect(f.input.disabled).toBe(true);
    f.host(INIT);
    expect(f.input.disabled).toBe(false);
    expect(f.input.getAttribute('aria-label')).toBe('Card number');
    expect(f.input.autocomplete).toBe('cc-number');
    expect(f.input.inputMode).toBe('numeric');
  });

  it('says ready before its field is built, and handles what the host sent meanwhile once it is, checked', () => {
    const doc = document.implementation.createHTMLDocument('frame');
    const sent: unknown[] = [];
    const parent = { postMessage: vi.fn((m: unknown, _origin?: unknown) => sent.push(m)) };
    const listeners = new Set<(e: MessageEvent) => void>();
    const win = {
      location: {
        hash: frameHash({ field: 'number', group: GROUP, origin: HOST, checkout: CHECKOUT }),
        href: 'https://gw.test/v1/widget/frames/card-field.html',
      },
      addEventListener: (_: string, l: (e: MessageEvent) => void) => listeners.add(l),
      removeEventListener: (_: string, l: (e: MessageEvent) => void) => listeners.delete(l),
    } as unknown as Window;
    const announced = announce({ window: win, parent, ancestorOrigin: HOST });
    expect(sent).toEqual([{ ns: NS, t: 'ready', checkout: CHECKOUT, group: GROUP }]);
    expect(parent.postMessage.mock.calls[0]?.[1]).toBe(HOST);
    const host = (data: object, origin = HOST, source: unknown = parent) => {
      for (const l of [...listeners])
        l({ data: { ns: NS, ...data }, origin, source } as unknown as MessageEvent);
    };
    // Before the field exists: another origin's init, another window's, then the host's.
    host({ ...INIT, label: 'Evil' }, 'https://evil.test');
    host({ ...INIT, label: 'Evil' }, HOST, {});
    host(INIT);
    startField(
      {
        window: win,
        document: doc,
        parent,
        fetch: vi.fn() as unknown as typeof fetch,
        openChannel: channels() as FieldEnv['openChannel'],
      },
      announced,
    );
    const input = doc.querySelector('input')!;
    expect(input.disabled).toBe(false);
    expect(input.getAttribute('aria-label')).toBe('Card number');
    // Said once; nothing held any more: the field's own listener alone hears the host.
    expect(sent.filter((m) => (m as { t: string }).t === 'ready')).toHaveLength(1);
    expect(listeners.size).toBe(1);
  });

  it('styles its input only with safe properties and values', () => {
    expect(
      cleanStyle({
        color: 'red',
        fontSize: '18px',
        background: 'url(x)',
        position: 'fixed',
        'font-family': 'a;b',
      }),
    ).toEqual([
      ['color', 'red'],
      ['font-size', '18px'],
    ]);
    const f = frame('number');
    f.host(INIT);
    expect(f.input.style.getPropertyValue('color')).toBe('red');
    expect(f.input.style.getPropertyValue('background')).toBe('');
  });

  it('reports brand and validity, and the last four digits only once valid, never the number', () => {
    const f = frame('number');
    f.host(INIT);
    type(f.input, '4200 0000');
    let s = lastState(f);
    expect(s).toMatchObject({
      empty: false,
      valid: false,
      brand: 'VISA',
      brands: ['VISA'],
      length: 8,
      last4: null,
    });
    type(f.input, '4200000000000000');
    s = lastState(f);
    expect(s).toMatchObject({ valid: true, brand: 'VISA', last4: '0000', length: 16 });
    expect(f.input.value).toBe('4200 0000 0000 0000');
    for (const m of f.sent) expect(JSON.stringify(m)).not.toContain('4200000000000000');
    type(f.input, '4444444444444444');
    expect(lastState(f).valid).toBe(false);
  });

  it('limits detection to the form brands and validates against the host brand', () => {
    const f = frame('number');
    f.host({ ...INIT, brands: ['MASTER'] });
    type(f.input, '4200000000000000');
    expect(lastState(f)).toMatchObject({ brand: null, brands: [], valid: false });
    f.host({ ...INIT, brands: ['VISA', 'MASTER'] });
    f.host({ t: 'brand', brand: 'MASTER' });
    expect(lastState(f)).toMatchObject({ brand: 'VISA', valid: false });
    f.host({ t: 'brand', brand: 'VISA' });
    expect(lastState(f).valid).toBe(true);
  });

  it('formats numbers in the groups printed on the card', () => {
    expect(formatNumber('378282246310005', 'AMEX')).toBe('3782 822463 10005');
    expect(formatNumber('4200000000000000000', 'VISA')).toBe('4200 0000 0000 0000 000');
    expect(formatNumber('42', null)).toBe('42');
  });

  it('CVV: digits only, as many as the brand takes', () => {
    const f = frame('cvv');
    f.host({ ...INIT, label: 'CVV' });
    f.host({ t: 'brand', brand: 'VISA' });
    type(f.input, '12a34');
    expect(f.input.value).toBe('123');
    expect(lastState(f)).toMatchObject({ valid: true, length: 3, last4: null });
    f.host({ t: 'brand', brand: 'AMEX' });
    expect(lastState(f).valid).toBe(false);
    expect(f.input.autocomplete).toBe('cc-csc');
  });

  it('marks itself invalid when the host says so (aria-invalid and a description)', () => {
    const f = frame('number');
    f.host(INIT);
    f.host({ t: 'invalid', message: 'Invalid card number or brand' });
    expect(f.input.getAttribute('aria-invalid')).toBe('true');
    expect(f.input.ownerDocument.getElementById('field-error')?.textContent).toBe(
      'Invalid card number or brand',
    );
  });

  it('submits straight to the gateway with the sibling CVV, ignoring card data the host sends', async () => {
    const open = channels();
    const fetch = vi.fn(
      async () =>
        new Response(
          JSON.stringify({
            id: 'p1',
            result: { code: '000.100.110', description: 'ok' },
            card: { bin: '420000', last4Digits: '0000' },
          }),
          { status: 200 },
        ),
    );
    const number = frame('number', { fetch: fetch as unknown as typeof globalThis.fetch }, open);
    const cvv = frame('cvv', {}, open);
    number.host(INIT);
    cvv.host(INIT);
    cvv.host({ t: 'brand', brand: 'VISA' });
    type(number.input, '4200000000000000');
    type(cvv.input, '123');
    number.host({
      t: 'submit',
      id: 's1',
      checkout: CHECKOUT,
      kind: 'payment',
      fields: [
        ['paymentBrand', 'VISA'],
        ['card.number', '4111111111111111'],
        ['createRegistration', 'true'],
      ],
      collect: ['cvv'],
      cvv: 'required',
    });
    await vi.waitFor(() => expect(number.sent.some((m) => m.t === 'result')).toBe(true));
    expect(fetch).toHaveBeenCalledTimes(1);
    const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('https://gw.test/v1/checkouts/ABC.local01/payment');
    expect(init.method).toBe('POST');
    expect(Object.fromEntries(new URLSearchParams(init.body as string))).toEqual({
      paymentBrand: 'VISA',
      createRegistration: 'true',
      'card.number': '4200000000000000',
      'card.cvv': '123',
    });
    const result = number.sent.find((m) => m.t === 'result') as Extract<FrameMessage, { t: 'result' }>;
    expect(result.status).toBe(200);
    expect(JSON.stringify(result.body)).not.toContain('420000');
    expect(number.input.value).toBe('');
  });

  it('refuses to submit another checkout, an invalid number or a missing required CVV', async () => {
    const open = channels();
    const fetch = vi.fn();
    const number = frame(
      'number',
      { fetch: fetch as unknown as typeof globalThis.fetch, collectTimeoutMs: 50 },
      open,
    );
    const cvv = frame('cvv', {}, open);
    number.host(INIT);
    cvv.host(INIT);
    const submit = (id: string, checkout = CHECKOUT) =>
      number.host({
        t: 'submit',
        id,
        checkout,
        kind: 'payment',
        fields: [['paymentBrand', 'VISA']],
        collect: ['cvv'],
        cvv: 'required',
      });
    submit('a', OTHER);
    type(number.input, '4444444444444444');
    submit('b');
    type(number.input, '4200000000000000');
    submit('c');
    await vi.waitFor(() => expect(number.sent.filter((m) => m.t === 'failed')).toHaveLength(3));
    expect(number.sent.filter((m) => m.t === 'failed').map((m) => (m as { reason: string }).reason)).toEqual([
      'path',
      'number',
      'cvv',
    ]);
    expect(fetch).not.toHaveBeenCalled();
  });

  describe('bound to its checkout: a script of the page cannot send the card elsewhere', () => {
    const answer = () =>
      vi.fn(async () => new Response(JSON.stringify({ id: 'p1', result: { code: '000.100.110' } })));
    const SUBMIT = {
      t: 'submit',
      fields: [['paymentBrand', 'VISA']],
      collect: ['cvv'],
      cvv: 'optional',
    };
    const reasons = (f: Frame) =>
      f.sent.filter((m) => m.t === 'failed').map((m) => (m as { id: string; reason: string }).reason);

    it('posts only to its own checkout, whatever a message names; another checkout is refused', async () => {
      const open = channels();
      const fetch = answer();
      const number = frame('number', { fetch: fetch as unknown as typeof globalThis.fetch }, open);
      frame('cvv', {}, open).host(INIT);
      number.host(INIT);
      type(number.input, '4200000000000000');
      // Every way a forged submit might name a target: another checkout, a path, a URL, a bad kind.
      number.host({ ...SUBMIT, id: 'x1', checkout: OTHER, kind: 'registration' });
      number.host({ ...SUBMIT, id: 'x2', kind: 'registration', path: `checkouts/${OTHER}/registration` });
      number.host({ ...SUBMIT, id: 'x3', checkout: CHECKOUT, kind: `../../checkouts/${OTHER}/registration` });
      number.host({ ...SUBMIT, id: 'x4', checkout: `${CHECKOUT}/../${OTHER}`, kind: 'payment' });
      await vi.waitFor(() => expect(reasons(number)).toEqual(['path', 'path', 'path', 'path']));
      expect(fetch).not.toHaveBeenCalled();
      expect(number.input.value).toBe('4200 0000 0000 0000');
      // Its own checkout, with a path and a URL the frame ignores.
      number.host({
        ...SUBMIT,
        id: 'ok',
        checkout: CHECKOUT,
        kind: 'registration',
        path: `checkouts/${OTHER}/registration`,
        url: `https://evil.test/checkouts/${OTHER}/registration`,
      });
      await vi.waitFor(() => expect(fetch).toHaveBeenCalledOnce());
      expect((fetch.mock.calls[0] as unknown as [string])[0]).toBe(
        `https://gw.test/v1/checkouts/${CHECKOUT}/registration`,
      );
    });

    it('reads its address once: a new fragment names nothing the frame follows', async () => {
      const fetch = answer();
      const number = frame('number', { fetch: fetch as unknown as typeof globalThis.fetch });
      number.host(INIT);
      type(number.input, '4200000000000000');
      number.win.location.hash = frameHash({
        field: 'number',
        group: GROUP,
        origin: 'https://evil.test',
        checkout: OTHER,
      });
      number.host({ ...SUBMIT, id: 'x', checkout: OTHER, kind: 'payment', collect: [] });
      await vi.waitFor(() => expect(reasons(number)).toEqual(['path']));
      number.host({ ...SUBMIT, id: 'ok', checkout: CHECKOUT, kind: 'payment', collect: [] });
      await vi.waitFor(() => expect(fetch).toHaveBeenCalledOnce());
      expect((fetch.mock.calls[0] as unknown as [string])[0]).toBe(
        `https://gw.test/v1/checkouts/${CHECKOUT}/payment`,
      );
      expect(number.parent.postMessage.mock.calls.every(([, origin]) => origin === HOST)).toBe(true);
    });

    it('ignores a submit from another window or origin', async () => {
      const fetch = answer();
      const number = frame('number', { fetch: fetch as unknown as typeof globalThis.fetch });
      number.host(INIT);
      type(number.input, '4200000000000000');
      const submit = { ...SUBMIT, id: 's', checkout: CHECKOUT, kind: 'payment', collect: [] };
      number.host(submit, 'https://evil.test');
      number.host(submit, HOST, {});
      await new Promise((r) => setTimeout(r, 20));
      expect(fetch).not.toHaveBeenCalled();
      expect(number.sent.filter((m) => m.t === 'failed' || m.t === 'result')).toEqual([]);
    });

    it('a frame made for another checkout in the same group gets no CVV and never the number', async () => {
      const open = channels();
      const fetch = answer();
      const number = frame('number', {}, open);
      const cvv = frame('cvv', {}, open);
      for (const f of [number, cvv]) f.host(INIT);
      type(number.input, '4200000000000000');
      type(cvv.input, '123');
      // What travels on either channel name.
      const heard: unknown[] = [];
      for (const name of [
        channelName({ group: GROUP, checkout: CHECKOUT }),
        channelName({ group: GROUP, checkout: OTHER }),
      ]) {
        open(name).onmessage = (e: MessageEvent) => heard.push(e.data);
      }
      const evil = frame(
        'number',
        { fetch: fetch as unknown as typeof globalThis.fetch, collectTimeoutMs: 50 },
        open,
        OTHER,
      );
      evil.host(INIT);
      type(evil.input, '4111111111111111');
      evil.host({ ...SUBMIT, id: 'e', checkout: OTHER, kind: 'registration', cvv: 'required' });
      await vi.waitFor(() => expect(reasons(evil)).toEqual(['timeout']));
      expect(fetch).not.toHaveBeenCalled();
      // On the form's own channel (only frames bound to this checkout are there): a request naming
      // another checkout gets nothing; the CVV frame answers its own, the number frame never does.
      const probe = open(channelName({ group: GROUP, checkout: CHECKOUT }));
      probe.postMessage({ ns: NS, t: 'collect', id: 'p1', checkout: OTHER });
      probe.postMessage({ ns: NS, t: 'collect', id: 'p2', checkout: CHECKOUT });
      await new Promise((r) => setTimeout(r, 20));
      expect(JSON.stringify(heard)).not.toContain('4200000000000000');
      expect(heard.filter((m) => (m as { t?: string }).t === 'value')).toEqual([
        { ns: NS, t: 'value', id: 'p2', checkout: CHECKOUT, field: 'cvv', value: '123', valid: true },
      ]);
    });
  });

  it('keeps nothing but id, result and redirect of the answer (a missing parameter marked as missing)', () => {
    expect(
      answerForHost({
        id: 'x',
        card: { bin: '420000' },
        result: {
          code: '100.100.101',
          description: 'bad',
          parameterErrors: [
            { name: 'card.number', value: '4200', message: 'm' },
            { name: 'billing.city', value: null, message: 'is mandatory for 3-D Secure v2' },
          ],
        },
        redirect: { url: 'https://acs.test', parameters: [{ name: 'PaReq', value: 'v' }] },
      }),
    ).toEqual({
      id: 'x',
      result: {
        code: '100.100.101',
        description: 'bad',
        // A sent value never reaches the host; a missing one says it is missing.
        parameterErrors: [
          { name: 'card.number', message: 'm' },
          { name: 'billing.city', value: null, message: 'is mandatory for 3-D Secure v2' },
        ],
      },
      redirect: { url: 'https://acs.test', method: undefined, parameters: [{ name: 'PaReq', value: 'v' }] },
    });
  });
});
