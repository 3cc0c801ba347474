// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { answerForHost, cleanStyle, type FieldEnv, formatNumber, startField } from './field';
import { type FrameMessage, frameHash, NS, readFrameHash } from './protocol';

const HOST = 'https://shop.test';
const GROUP = 'a1b2c3d4e5f6a7b8c9d0';

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
  readonly sent: FrameMessage[];
  readonly parent: { postMessage: ReturnType<typeof vi.fn> };
  readonly input: HTMLInputElement;
  host(data: object, origin?: string, source?: unknown): void;
  stop: () => void;
}

function frame(field: 'number' | 'cvv', env: Partial<FieldEnv> = {}, openChannel = channels()): Frame {
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
      hash: frameHash({ field, group: GROUP, origin: HOST }),
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
    expect(readFrameHash(frameHash({ field: 'cvv', group: GROUP, origin: HOST }))).toEqual({
      field: 'cvv',
      group: GROUP,
      origin: HOST,
    });
    expect(readFrameHash('#f=number&g=short&o=https://shop.test')).toBeUndefined();
    expect(readFrameHash(`#f=pin&g=${GROUP}&o=https://shop.test`)).toBeUndefined();
    expect(readFrameHash(`#f=number&g=${GROUP}&o=https://shop.test/path`)).toBeUndefined();
  });

  it('refuses to run when the real parent origin differs from the declared one', () => {
    const doc = document.implementation.createHTMLDocument('frame');
    const win = {
      location: {
        hash: frameHash({ field: 'number', group: GROUP, origin: HOST }),
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
    expect(f.sent[0]).toEqual({ ns: NS, t: 'ready' });
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
      path: 'checkouts/ABC.local01/payment',
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

  it('refuses to submit a bad path, an invalid number or a missing required CVV', async () => {
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
    const submit = (id: string, path = 'checkouts/ABC/payment') =>
      number.host({
        t: 'submit',
        id,
        path,
        fields: [['paymentBrand', 'VISA']],
        collect: ['cvv'],
        cvv: 'required',
      });
    submit('a', 'payments');
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

  it('keeps nothing but id, result and redirect of the answer', () => {
    expect(
      answerForHost({
        id: 'x',
        card: { bin: '420000' },
        result: {
          code: '100.100.101',
          description: 'bad',
          parameterErrors: [{ name: 'card.number', value: '4200', message: 'm' }],
        },
        redirect: { url: 'https://acs.test', parameters: [{ name: 'PaReq', value: 'v' }] },
      }),
    ).toEqual({
      id: 'x',
      result: {
        code: '100.100.101',
        description: 'bad',
        parameterErrors: [{ name: 'card.number', message: 'm' }],
      },
      redirect: { url: 'https://acs.test', method: undefined, parameters: [{ name: 'PaReq', value: 'v' }] },
    });
  });
});
