/**
 * One card field (number or CVV) inside its gateway-origin frame. The shop page talks to it only
 * through `postMessage`, checked both ways: the frame answers only its declared parent origin and
 * accepts only messages from `window.parent` with that origin. On submit the number frame collects
 * the CVV from its sibling frame and POSTs the payment itself, same-origin, to the gateway.
 *
 * Even a script of the page itself cannot send the card elsewhere: the frame's address binds it, once
 * at start, to the page origin and the checkout the widget created it for. It posts only to
 * `/v1/checkouts/<that id>/payment|registration` and refuses a submit naming any other checkout;
 * only the CVV crosses between frames, on a channel named by the form's nonce and that checkout.
 */
import {
  type CardBrand,
  cvvLengthOf,
  detectBrands,
  isCardBrand,
  validateCardNumber,
  validateCvv,
} from '../../shared/brands';
import {
  channelName,
  checkoutPath,
  type FailReason,
  type FieldState,
  type FrameMessage,
  type HostMessage,
  type InitMessage,
  isProtocol,
  NS,
  type Payload,
  readFrameHash,
  type SiblingMessage,
} from './protocol';

interface Channel {
  postMessage(message: unknown): void;
  onmessage: ((event: MessageEvent) => void) | null;
  close(): void;
}

export interface FieldEnv {
  readonly window: Window;
  readonly document: Document;
  /** `window.parent`; the host page. */
  readonly parent: Pick<Window, 'postMessage'>;
  readonly fetch: typeof fetch;
  readonly openChannel: (name: string) => Channel;
  /** `location.ancestorOrigins[0]` where the browser offers it. */
  readonly ancestorOrigin?: string | undefined;
  /** How long the number frame waits for its sibling's CVV. */
  readonly collectTimeoutMs?: number;
}

const MAX_DIGITS = 19;

/** CSS properties a page may set on the inputs (iframeStyles and the host's derived base style). */
const STYLE_PROPS = new Set([
  'color',
  'font-family',
  'font-size',
  'font-style',
  'font-weight',
  'font-variant',
  'letter-spacing',
  'line-height',
  'text-align',
  'text-transform',
  'text-shadow',
  'padding',
  'padding-left',
  'padding-right',
  'padding-top',
  'padding-bottom',
  'background-color',
  'caret-color',
  'opacity',
]);

const kebab = (name: string) => name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
/** No url(), no way out of the declaration. */
const safeValue = (value: string) => value.length <= 120 && !/[;{}<>\\@]|url\s*\(|expression/i.test(value);

export function cleanStyle(style: Readonly<Record<string, string>> | undefined): [string, string][] {
  const out: [string, string][] = [];
  for (const [name, value] of Object.entries(style ?? {})) {
    const prop = kebab(name);
    if (STYLE_PROPS.has(prop) && typeof value === 'string' && safeValue(value)) out.push([prop, value]);
  }
  return out;
}

/** Digit groups as printed on the card: 4-6-5 for 15-digit AMEX-like layouts, else fours. */
export function formatNumber(digits: string, brand: string | null): string {
  const groups =
    brand === 'AMEX' || (brand === 'DINERS' && digits.length <= 14) ? [4, 6, 5] : [4, 4, 4, 4, 3];
  const out: string[] = [];
  let at = 0;
  for (const size of groups) {
    if (at >= digits.length) break;
    out.push(digits.slice(at, at + size));
    at += size;
  }
  if (at < digits.length) out.push(digits.slice(at));
  return out.join(' ');
}

/** Keeps only what the host needs from the gateway's answer: never card data. */
export function answerForHost(body: unknown): unknown {
  if (body === null || typeof body !== 'object') return undefined;
  const b = body as Record<string, unknown>;
  const result = (b.result ?? {}) as Record<string, unknown>;
  const redirect = b.redirect as Record<string, unknown> | undefined;
  const text = (v: unknown) => (typeof v === 'string' ? v : undefined);
  return {
    id: text(b.id),
    result: {
      code: text(result.code),
      description: text(result.description),
      parameterErrors: Array.isArray(result.parameterErrors)
        ? result.parameterErrors.map((e: { name?: unknown; message?: unknown }) => ({
            name: text(e?.name),
            message: text(e?.message),
          }))
        : undefined,
    },
    redirect: redirect
      ? {
          url: text(redirect.url),
          method: text(redirect.method),
          parameters: Array.isArray(redirect.parameters)
            ? redirect.parameters.map((p: { name?: unknown; value?: unknown }) => ({
                name: text(p?.name) ?? '',
                value: text(p?.value) ?? '',
              }))
            : undefined,
        }
      : undefined,
  };
}

/** Starts the field; returns a stop function, or undefined when the frame refuses to run. */
export function startField(env: FieldEnv): (() => void) | undefined {
  const { window: win, document: doc } = env;
  // Read once: a later change of the frame's address binds it to nothing else.
  const params = readFrameHash(win.location.hash);
  if (params === undefined) return undefined;
  // The declared parent origin must be the real one where the browser tells us.
  if (env.ancestorOrigin !== undefined && env.ancestorOrigin !== params.origin) return undefined;
  const { field, origin, checkout } = params;
  const apiBase = new URL('../../', win.location.href).href;

  const input = doc.createElement('input');
  input.id = 'field';
  input.type = 'text';
  input.inputMode = 'numeric';
  input.autocomplete = field === 'number' ? 'cc-number' : 'cc-csc';
  input.name = field === 'number' ? 'cardnumber' : 'cvc';
  input.spellcheck = false;
  input.setAttribute('autocorrect', 'off');
  input.setAttribute('aria-describedby', 'field-error');
  input.dir = 'ltr';
  input.disabled = true;
  const label = doc.createElement('label');
  label.htmlFor = 'field';
  label.className = 'sr-only';
  const error = doc.createElement('div');
  error.id = 'field-error';
  error.className = 'sr-only';
  doc.body.append(label, input, error);

  let init: InitMessage | undefined;
  let hostBrand: string | null = null;
  let digits = '';
  let last: string | undefined;
  let busy = false;
  const pending = new Map<string, (value: { value: string; valid: boolean }) => void>();

  const send = (message: Payload<FrameMessage>) => env.parent.postMessage({ ns: NS, ...message }, origin);
  const accepted = (): CardBrand[] => (init?.brands ?? []).filter(isCardBrand);

  function state(): FieldState {
    if (field === 'number') {
      const priority = (init?.priority ?? []).filter(isCardBrand);
      const brands = digits ? detectBrands(digits, accepted(), priority) : [];
      const best = brands[0] ?? null;
      const target = hostBrand !== null && isCardBrand(hostBrand) ? hostBrand : best;
      const valid =
        target !== null && accepted().includes(target) && validateCardNumber(digits, target).ok === true;
      return {
        empty: digits === '',
        valid,
        brand: best,
        brands,
        length: digits.length,
        last4: valid ? digits.slice(-4) : null,
      };
    }
    const valid =
      hostBrand !== null && isCardBrand(hostBrand)
        ? validateCvv(digits, hostBrand)
        : /^\d{3,4}$/.test(digits);
    return { empty: digits === '', valid, brand: null, brands: [], length: digits.length, last4: null };
  }

  function report() {
    const s = state();
    const key = JSON.stringify(s);
    if (key === last) return;
    last = key;
    send({ t: 'state', ...s });
  }

  function maxDigits(): number {
    if (field === 'number') return MAX_DIGITS;
    return hostBrand !== null && isCardBrand(hostBrand) ? cvvLengthOf(hostBrand) : 4;
  }

  function show() {
    if (field === 'number') {
      const before = input.value
        .slice(0, input.selectionStart ?? input.value.length)
        .replace(/\D/g, '').length;
      const formatted = formatNumber(digits, state().brand);
      if (input.value !== formatted) {
        input.value = formatted;
        // Caret after the same number of digits as before.
        let pos = 0;
        for (let seen = 0; pos < formatted.length && seen < before; pos++) {
          if (/\d/.test(formatted[pos]!)) seen++;
        }
        if (doc.activeElement === input) input.setSelectionRange(pos, pos);
      }
    } else if (input.value !== digits) {
      input.value = digits;
    }
  }

  const onInput = () => {
    digits = input.value.replace(/\D/g, '').slice(0, maxDigits());
    show();
    report();
  };
  const onFocus = () => send({ t: 'focus', focused: true });
  const onBlur = () => send({ t: 'focus', focused: false });
  const onKey = (event: KeyboardEvent) => {
    if (event.key === 'Enter') {
      event.preventDefault();
      if (init?.submitOnEnter) send({ t: 'enter' });
    }
  };
  input.addEventListener('input', onInput);
  input.addEventListener('focus', onFocus);
  input.addEventListener('blur', onBlur);
  input.addEventListener('keydown', onKey);

  function applyInit(message: InitMessage) {
    init = message;
    input.disabled = false;
    label.textContent = message.label;
    input.setAttribute('aria-label', message.label);
    input.placeholder = message.placeholder;
    doc.documentElement.dir = message.dir;
    doc.documentElement.lang = doc.documentElement.lang || 'en';
    if (field === 'cvv' && message.mask) input.type = 'password';
    for (const [prop, value] of cleanStyle(message.style.input)) input.style.setProperty(prop, value);
    const placeholder = cleanStyle(message.style.placeholder);
    if (placeholder.length > 0) {
      const sheet = doc.styleSheets[0];
      const rule = `input::placeholder{${placeholder.map(([p, v]) => `${p}:${v}`).join(';')}}`;
      try {
        sheet?.insertRule(rule, sheet.cssRules.length);
      } catch {
        // A rule the browser rejects changes nothing.
      }
    }
    if (message.autofocus) input.focus();
    last = undefined;
    report();
  }

  const fail = (id: string, reason: FailReason) => {
    busy = false;
    send({ t: 'failed', id, reason });
  };

  function collect(id: string): Promise<{ value: string; valid: boolean } | undefined> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        pending.delete(id);
        resolve(undefined);
      }, env.collectTimeoutMs ?? 5000);
      pending.set(id, (value) => {
        clearTimeout(timer);
        pending.delete(id);
        resolve(value);
      });
      channel.postMessage({ ns: NS, t: 'collect', id, checkout } satisfies SiblingMessage);
    });
  }

  async function submit(message: Extract<HostMessage, { t: 'submit' }>) {
    if (busy) return;
    const id = String(message.id);
    // Only the checkout this frame was made for; nothing in a message names where to post.
    if (message.checkout !== checkout || (message.kind !== 'payment' && message.kind !== 'registration')) {
      return fail(id, 'path');
    }
    busy = true;
    const fields: [string, string][] = (Array.isArray(message.fields) ? message.fields : [])
      .filter((pair) => Array.isArray(pair) && pair[0] !== 'card.number' && pair[0] !== 'card.cvv')
      .map(([name, value]) => [String(name), String(value)]);
    const cvvRule = (cvv: { value: string; valid: boolean }) =>
      cvv.value === '' ? message.cvv === 'optional' : cvv.valid;
    const own = state();
    if (field === 'number') {
      const brand = fields.find(([name]) => name === 'paymentBrand')?.[1];
      const fits =
        brand !== undefined && isCardBrand(brand) ? validateCardNumber(digits, brand).ok : own.valid;
      if (!own.valid || !fits) return fail(id, 'number');
      fields.push(['card.number', digits]);
    } else {
      if (!cvvRule({ value: digits, valid: own.valid })) return fail(id, 'cvv');
      if (digits) fields.push(['card.cvv', digits]);
    }
    if (field === 'number' && Array.isArray(message.collect) && message.collect.includes('cvv')) {
      const cvv = await collect(`${id}:cvv`);
      if (cvv === undefined) return fail(id, 'timeout');
      if (!cvvRule(cvv)) return fail(id, 'cvv');
      if (cvv.value) fields.push(['card.cvv', cvv.value]);
    }
    let res: Response;
    try {
      res = await env.fetch(new URL(checkoutPath(checkout, message.kind), apiBase).href, {
        method: 'POST',
        credentials: 'same-origin',
        headers: {
          'Content-Type': 'application/x-www-form-urlencoded;charset=UTF-8',
          Accept: 'application/json',
        },
        body: new URLSearchParams(fields).toString(),
      });
    } catch {
      return fail(id, 'network');
    }
    let body: unknown;
    try {
      body = await res.json();
    } catch {
      body = undefined;
    }
    busy = false;
    if (res.ok) clear();
    send({ t: 'result', id, status: res.status, body: answerForHost(body) });
  }

  function clear() {
    digits = '';
    input.value = '';
    report();
  }

  function onHost(event: MessageEvent) {
    if (event.source !== env.parent || event.origin !== origin || !isProtocol(event.data)) return;
    const message = event.data as HostMessage;
    switch (message.t) {
      case 'init':
        applyInit(message);
        break;
      case 'brand':
        hostBrand = typeof message.brand === 'string' ? message.brand : null;
        if (field === 'cvv') {
          input.maxLength = maxDigits();
          if (digits.length > maxDigits()) {
            digits = digits.slice(0, maxDigits());
            show();
          }
        }
        report();
        break;
      case 'focus':
        input.focus();
        break;
      case 'invalid':
        input.setAttribute('aria-invalid', message.message ? 'true' : 'false');
        input.classList.toggle('invalid', Boolean(message.message));
        error.textContent = message.message ?? '';
        break;
      case 'clear':
        clear();
        break;
      case 'submit':
        void submit(message);
        break;
    }
  }

  // Only frames of this form's nonce and this checkout share the channel; the number never uses it.
  const channel = env.openChannel(channelName(params));
  channel.onmessage = (event: MessageEvent) => {
    if (!isProtocol(event.data)) return;
    const message = event.data as SiblingMessage;
    if (message.checkout !== checkout || typeof message.id !== 'string') return;
    if (message.t === 'collect' && field === 'cvv') {
      channel.postMessage({
        ns: NS,
        t: 'value',
        id: message.id,
        checkout,
        field: 'cvv',
        value: digits,
        valid: state().valid,
      } satisfies SiblingMessage);
    } else if (message.t === 'value' && field === 'number' && message.field === 'cvv') {
      pending.get(message.id)?.({ value: String(message.value), valid: message.valid === true });
    }
  };

  win.addEventListener('message', onHost);
  send({ t: 'ready', checkout, group: params.group });

  return () => {
    win.removeEventListener('message', onHost);
    channel.close();
    input.remove();
    label.remove();
    error.remove();
  };
}
