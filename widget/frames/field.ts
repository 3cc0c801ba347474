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
 *
 * Parts: `announce` (the address and `ready`, ./announce.ts), `controls` (the input), `listen` / `show` (typing and formatting),
 * `fieldState` / `report` (validation and what the host learns), `hostListener` (the host's
 * messages); the submission and the CVV channel are in `field-submit.ts`.
 */
import { cvvLengthOf, detectBrands, isCardBrand, validateCardNumber, validateCvv } from '../../shared/brands';
import { type Announced, announce } from './announce';
import { openSibling, type Sibling, submit } from './field-submit';
import type { Field, FieldEnv } from './field-types';
import {
  channelName,
  type FieldName,
  type FieldState,
  type HostMessage,
  type InitMessage,
  isProtocol,
  NS,
} from './protocol';

export { answerForHost } from './field-submit';
export type { FieldEnv } from './field-types';

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

/** The input (disabled until the host's init), its label and its error text, for assistive tech. */
function controls(doc: Document, name: FieldName) {
  const input = doc.createElement('input');
  input.id = 'field';
  input.type = 'text';
  input.inputMode = 'numeric';
  input.autocomplete = name === 'number' ? 'cc-number' : 'cc-csc';
  input.name = name === 'number' ? 'cardnumber' : 'cvc';
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
  return { input, label, error };
}

/** What the host may learn: brand(s) and validity of the number, the CVV's validity, lengths, last 4. */
function fieldState(f: Field): FieldState {
  const accepted = (f.init?.brands ?? []).filter(isCardBrand);
  const hostBrand = f.hostBrand !== null && isCardBrand(f.hostBrand) ? f.hostBrand : null;
  const { digits } = f;
  if (f.name === 'number') {
    const priority = (f.init?.priority ?? []).filter(isCardBrand);
    const brands = digits ? detectBrands(digits, accepted, priority) : [];
    const best = brands[0] ?? null;
    const target = hostBrand ?? best;
    const valid =
      target !== null && accepted.includes(target) && validateCardNumber(digits, target).ok === true;
    return {
      empty: digits === '',
      valid,
      brand: best,
      brands,
      length: digits.length,
      last4: valid ? digits.slice(-4) : null,
    };
  }
  const valid = hostBrand !== null ? validateCvv(digits, hostBrand) : /^\d{3,4}$/.test(digits);
  return { empty: digits === '', valid, brand: null, brands: [], length: digits.length, last4: null };
}

/** Tells the host the field's state when it changed. */
function report(f: Field): void {
  const s = f.state();
  const key = JSON.stringify(s);
  if (key === f.last) return;
  f.last = key;
  f.send({ t: 'state', ...s });
}

function maxDigits(f: Field): number {
  if (f.name === 'number') return MAX_DIGITS;
  return f.hostBrand !== null && isCardBrand(f.hostBrand) ? cvvLengthOf(f.hostBrand) : 4;
}

/** Shows the digits: the number in groups, the caret after the same count of digits as before. */
function show(f: Field): void {
  const { input } = f;
  if (f.name !== 'number') {
    if (input.value !== f.digits) input.value = f.digits;
    return;
  }
  const before = input.value.slice(0, input.selectionStart ?? input.value.length).replace(/\D/g, '').length;
  const formatted = formatNumber(f.digits, f.state().brand);
  if (input.value === formatted) return;
  input.value = formatted;
  let pos = 0;
  for (let seen = 0; pos < formatted.length && seen < before; pos++) {
    if (/\d/.test(formatted[pos]!)) seen++;
  }
  if (f.env.document.activeElement === input) input.setSelectionRange(pos, pos);
}

/** The shopper's typing (digits only, up to the field's length), focus, and Enter. */
function listen(f: Field): void {
  const { input } = f;
  input.addEventListener('input', () => {
    f.digits = input.value.replace(/\D/g, '').slice(0, maxDigits(f));
    show(f);
    report(f);
  });
  input.addEventListener('focus', () => f.send({ t: 'focus', focused: true }));
  input.addEventListener('blur', () => f.send({ t: 'focus', focused: false }));
  input.addEventListener('keydown', (event: KeyboardEvent) => {
    if (event.key === 'Enter') {
      event.preventDefault();
      if (f.init?.submitOnEnter) f.send({ t: 'enter' });
    }
  });
}

/** The host's init: texts, direction, masking, the page's safe styles, autofocus; then the state. */
function applyInit(f: Field, message: InitMessage): void {
  const { input, env } = f;
  const doc = env.document;
  f.init = message;
  input.disabled = false;
  f.label.textContent = message.label;
  input.setAttribute('aria-label', message.label);
  input.placeholder = message.placeholder;
  doc.documentElement.dir = message.dir;
  doc.documentElement.lang = doc.documentElement.lang || 'en';
  if (f.name === 'cvv' && message.mask) input.type = 'password';
  for (const [prop, value] of cleanStyle(message.style.input)) input.style.setProperty(prop, value);
  const placeholder = cleanStyle(message.style.placeholder);
  if (placeholder.length > 0) {
    const sheet = env.sheet ?? doc.styleSheets[0];
    const rule = `input::placeholder{${placeholder.map(([p, v]) => `${p}:${v}`).join(';')}}`;
    try {
      sheet?.insertRule(rule, sheet.cssRules.length);
    } catch {
      // A rule the browser rejects changes nothing.
    }
  }
  if (message.autofocus) input.focus();
  f.last = undefined;
  report(f);
}

/** The host's brand: the CVV's length and rules follow it; the number's validity too. */
function applyBrand(f: Field, brand: unknown): void {
  f.hostBrand = typeof brand === 'string' ? brand : null;
  if (f.name === 'cvv') {
    f.input.maxLength = maxDigits(f);
    if (f.digits.length > maxDigits(f)) {
      f.digits = f.digits.slice(0, maxDigits(f));
      show(f);
    }
  }
  report(f);
}

/** The host's messages, from `window.parent` with the bound origin only. */
function hostListener(f: Field, origin: string, sibling: Sibling) {
  return (event: MessageEvent) => {
    if (event.source !== f.env.parent || event.origin !== origin || !isProtocol(event.data)) return;
    const message = event.data as HostMessage;
    switch (message.t) {
      case 'init':
        applyInit(f, message);
        break;
      case 'brand':
        applyBrand(f, message.brand);
        break;
      case 'focus':
        f.input.focus();
        break;
      case 'invalid':
        f.input.setAttribute('aria-invalid', message.message ? 'true' : 'false');
        f.input.classList.toggle('invalid', Boolean(message.message));
        f.error.textContent = message.message ?? '';
        break;
      case 'clear':
        f.clear();
        break;
      case 'submit':
        void submit(f, sibling, message);
        break;
    }
  };
}

/**
 * Starts the field; returns a stop function, or undefined when the frame refuses to run. `announced`:
 * the frame already said `ready` (frames/early.ts); else the field announces itself first.
 */
export function startField(
  env: FieldEnv,
  announced: Announced | undefined = announce(env),
): (() => void) | undefined {
  if (announced === undefined) return undefined;
  const { params } = announced;
  const { origin } = params;
  const f: Field = {
    env,
    name: params.field,
    checkout: params.checkout,
    apiBase: new URL('../../', env.window.location.href).href,
    ...controls(env.document, params.field),
    init: undefined,
    hostBrand: null,
    digits: '',
    last: undefined,
    busy: false,
    send: (message) => env.parent.postMessage({ ns: NS, ...message }, origin),
    state: () => fieldState(f),
    clear: () => {
      f.digits = '';
      f.input.value = '';
      report(f);
    },
  };
  listen(f);
  const sibling = openSibling(f, channelName(params));
  const onHost = hostListener(f, origin, sibling);
  env.window.addEventListener('message', onHost);
  // What the host sent while the field was being built, checked like any other message.
  announced.release();
  for (const event of announced.held.splice(0)) onHost(event);
  return () => {
    env.window.removeEventListener('message', onHost);
    sibling.channel.close();
    f.input.remove();
    f.label.remove();
    f.error.remove();
  };
}
