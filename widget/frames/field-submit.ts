/**
 * The number frame's submission, apart from the field's input: the host's submit is checked (its
 * own checkout only, card data never taken from the host), the CVV is collected from the sibling
 * frame over a `BroadcastChannel` named by the form's nonce and that checkout, the payment is POSTed
 * same-origin, and only id, result and redirect of the answer go back to the host.
 */
import { isCardBrand, validateCardNumber } from '../../shared/brands';
import type { Channel, Field } from './field-types';
import {
  checkoutPath,
  type FailReason,
  type HostMessage,
  isProtocol,
  NS,
  type SiblingMessage,
} from './protocol';

type SubmitMessage = Extract<HostMessage, { t: 'submit' }>;
interface CvvValue {
  readonly value: string;
  readonly valid: boolean;
}

/** The CVV channel between the number and the CVV frames of one form. */
export interface Sibling {
  readonly channel: Channel;
  /** The number frame's open collects, by id. */
  readonly pending: Map<string, (value: CvvValue) => void>;
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
        ? result.parameterErrors.map((e: { name?: unknown; value?: unknown; message?: unknown }) => ({
            name: text(e?.name),
            // A missing parameter (value null: what the gateway asks for, e.g. a v2 billing field)
            // says so; a sent value is never passed on (it may be card data).
            ...(e?.value === null ? { value: null } : {}),
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

/**
 * Opens the form's CVV channel: the CVV frame answers a collect with its value; the number frame
 * hands an answer to the collect waiting for it. Only frames of this form's nonce and this checkout
 * share it; the number never uses it.
 */
export function openSibling(f: Field, name: string): Sibling {
  const channel = f.env.openChannel(name);
  const sibling: Sibling = { channel, pending: new Map() };
  channel.onmessage = (event: MessageEvent) => {
    if (!isProtocol(event.data)) return;
    const message = event.data as SiblingMessage;
    if (message.checkout !== f.checkout || typeof message.id !== 'string') return;
    if (message.t === 'collect' && f.name === 'cvv') {
      channel.postMessage({
        ns: NS,
        t: 'value',
        id: message.id,
        checkout: f.checkout,
        field: 'cvv',
        value: f.digits,
        valid: f.state().valid,
      } satisfies SiblingMessage);
    } else if (message.t === 'value' && f.name === 'number' && message.field === 'cvv') {
      sibling.pending.get(message.id)?.({ value: String(message.value), valid: message.valid === true });
    }
  };
  return sibling;
}

/** Asks the CVV frame for its value; undefined when it does not answer in time. */
function collect(f: Field, sibling: Sibling, id: string): Promise<CvvValue | undefined> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      sibling.pending.delete(id);
      resolve(undefined);
    }, f.env.collectTimeoutMs ?? 5000);
    sibling.pending.set(id, (value) => {
      clearTimeout(timer);
      sibling.pending.delete(id);
      resolve(value);
    });
    sibling.channel.postMessage({ ns: NS, t: 'collect', id, checkout: f.checkout } satisfies SiblingMessage);
  });
}

const fail = (f: Field, id: string, reason: FailReason) => {
  f.busy = false;
  f.send({ t: 'failed', id, reason });
};

/**
 * The fields to post: the host's (without any card number or CVV) and this frame's own digits; or
 * why the submit fails.
 */
function ownFields(f: Field, message: SubmitMessage): [string, string][] | FailReason {
  const fields: [string, string][] = (Array.isArray(message.fields) ? message.fields : [])
    .filter((pair) => Array.isArray(pair) && pair[0] !== 'card.number' && pair[0] !== 'card.cvv')
    .map(([name, value]) => [String(name), String(value)]);
  const own = f.state();
  if (f.name === 'number') {
    const brand = fields.find(([name]) => name === 'paymentBrand')?.[1];
    const fits =
      brand !== undefined && isCardBrand(brand) ? validateCardNumber(f.digits, brand).ok : own.valid;
    if (!own.valid || !fits) return 'number';
    fields.push(['card.number', f.digits]);
  } else {
    if (!cvvRule(message, { value: f.digits, valid: own.valid })) return 'cvv';
    if (f.digits) fields.push(['card.cvv', f.digits]);
  }
  return fields;
}

const cvvRule = (message: SubmitMessage, cvv: CvvValue) =>
  cvv.value === '' ? message.cvv === 'optional' : cvv.valid;

/** Posts the fields to this frame's checkout; the answer's status and body, or undefined offline. */
async function post(f: Field, message: SubmitMessage, fields: [string, string][]) {
  let res: Response;
  try {
    res = await f.env.fetch(new URL(checkoutPath(f.checkout, message.kind), f.apiBase).href, {
      method: 'POST',
      credentials: 'same-origin',
      headers: {
        'Content-Type': 'application/x-www-form-urlencoded;charset=UTF-8',
        Accept: 'application/json',
      },
      body: new URLSearchParams(fields).toString(),
    });
  } catch {
    return undefined;
  }
  let body: unknown;
  try {
    body = await res.json();
  } catch {
    body = undefined;
  }
  return { ok: res.ok, status: res.status, body };
}

/** The host's submit: checked, completed with the card data, posted; the filtered answer goes back. */
export async function submit(f: Field, sibling: Sibling, message: SubmitMessage): Promise<void> {
  if (f.busy) return;
  const id = String(message.id);
  // Only the checkout this frame was made for; nothing in a message names where to post.
  if (message.checkout !== f.checkout || (message.kind !== 'payment' && message.kind !== 'registration')) {
    return fail(f, id, 'path');
  }
  f.busy = true;
  const fields = ownFields(f, message);
  if (typeof fields === 'string') return fail(f, id, fields);
  if (f.name === 'number' && Array.isArray(message.collect) && message.collect.includes('cvv')) {
    const cvv = await collect(f, sibling, `${id}:cvv`);
    if (cvv === undefined) return fail(f, id, 'timeout');
    if (!cvvRule(message, cvv)) return fail(f, id, 'cvv');
    if (cvv.value) fields.push(['card.cvv', cvv.value]);
  }
  const answer = await post(f, message, fields);
  if (answer === undefined) return fail(f, id, 'network');
  f.busy = false;
  if (answer.ok) f.clear();
  f.send({ t: 'result', id, status: answer.status, body: answerForHost(answer.body) });
}
