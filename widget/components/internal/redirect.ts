/**
 * Payment steps that happen outside the widget's forms: a card's 3-D Secure challenge and the pages
 * of a redirect brand (online transfer, redirect wallet, buy now pay later). The gateway answers such
 * a submission with `000.200.000` and `redirect: {url, parameters}`; the widget then either
 *
 * - opens the flow in its modal (card challenges unless `paymentTarget` is set; redirect brands
 *   listed in `inlineFlow`): a hidden form POSTs the parameters and `returnMode=message` into the
 *   modal's iframe, and the gateway's last page tells the widget with
 *   `postMessage({source: 'wpwl-gateway', type: 'async-complete'})` that the flow has ended, or
 * - sends the whole page (or `paymentTarget`) there, and the gateway later redirects the shopper
 *   to shopperResultUrl.
 */
import { isCardBrand } from '../../../shared/brands';
// The group table only: the result-code index would bring the whole catalogue into the bundle.
import { RESULT_CODE_GROUPS } from '../../../shared/result-codes/groups';
import type { Fields, PaymentAnswer, Session } from '../../core/api';
import type { ModalEnd, ModalFlow, RedirectForm } from '../../core/context';
import type { ChallengeWindow, Settings } from '../../core/options';

export type RedirectAnswer = NonNullable<PaymentAnswer['redirect']>;

// The modal flow's types are core's (the context holds the modal); redirect.ts builds them.
export type { ModalEnd, ModalFlow, RedirectForm };

/** The field that asks the gateway to end with a postMessage instead of a redirect to the shop. */
export const RETURN_MODE: readonly [string, string] = ['returnMode', 'message'];

/**
 * Where a redirect opens: card challenges in the modal unless the page set `paymentTarget`; redirect
 * brands in the modal only when listed in `inlineFlow`, else in paymentTarget or this window.
 */
export function redirectMode(
  settings: Pick<Settings, 'paymentTarget' | 'inlineFlow'>,
  brand: string,
): 'modal' | 'full' {
  if (isCardBrand(brand)) return settings.paymentTarget === undefined ? 'modal' : 'full';
  return settings.inlineFlow.includes(brand.toUpperCase()) ? 'modal' : 'full';
}

/** The EMV challenge window sizes in CSS pixels (5 is the full window). */
export const CHALLENGE_SIZES: Readonly<Record<Exclude<ChallengeWindow, 5>, readonly [number, number]>> = {
  1: [250, 400],
  2: [390, 400],
  3: [500, 600],
  4: [600, 400],
};

/** The page's `browser.threeDChallengeWindow`, else the full window below 600 CSS pixels wide, else 3. */
export function challengeSize(
  setting: ChallengeWindow | undefined,
  win: Pick<Window, 'innerWidth'>,
): ChallengeWindow {
  return setting ?? (win.innerWidth < 600 ? 5 : 3);
}

/**
 * The form a redirect answer asks for, http(s) only. A GET form replaces the address's query, so
 * the query's parameters become fields; `extra` fields are added unless the gateway sent them.
 */
export function redirectForm(
  redirect: RedirectAnswer,
  base: string,
  extra: Fields = [],
): RedirectForm | undefined {
  let url: URL;
  try {
    url = new URL(redirect.url ?? '', base);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return undefined;
  const method = (redirect.method ?? 'POST').toUpperCase() === 'GET' ? 'get' : 'post';
  const fields: [string, string][] = [];
  if (method === 'get') {
    fields.push(...url.searchParams);
    url.search = '';
  }
  for (const p of redirect.parameters ?? []) fields.push([String(p.name), String(p.value)]);
  for (const [name, value] of extra) if (!fields.some(([n]) => n === name)) fields.push([name, value]);
  return { action: url.href, method, fields };
}

/** A hidden `<form>` with the fields, for the caller to place and submit. */
export function buildForm(doc: Document, form: RedirectForm, target?: string): HTMLFormElement {
  const el = doc.createElement('form');
  el.method = form.method;
  el.action = form.action;
  if (target) el.target = target;
  el.hidden = true;
  for (const [name, value] of form.fields) {
    const input = doc.createElement('input');
    input.type = 'hidden';
    input.name = name;
    input.value = value;
    el.append(input);
  }
  return el;
}

/**
 * The gateway's "flow has ended" message: only from the modal's own iframe window, and only with
 * the origin of the gateway the widget was loaded from.
 */
export function isCompletion(
  event: MessageEvent,
  gatewayOrigin: string,
  frame: Window | null | undefined,
): boolean {
  if (frame == null || event.source !== frame || event.origin !== gatewayOrigin) return false;
  const data = event.data as { source?: unknown; type?: unknown } | null;
  return (
    data !== null &&
    typeof data === 'object' &&
    data.source === 'wpwl-gateway' &&
    data.type === 'async-complete'
  );
}

/** Success, success to review, or pending: the groups `isRejected` (shared/result-codes) does not reject. */
export function isAccepted(code: string): boolean {
  const group = /^\d{3}\.\d{3}\.\d{3}$/.test(code)
    ? RESULT_CODE_GROUPS.find((g) => g.pattern.test(code))?.id
    : undefined;
  return group === 'success' || group === 'successReview' || group === 'pending' || group === 'pendingLong';
}

/** `100.396.101`: the shopper cancelled on the gateway's page (the issuer's Cancel, the provider's). */
export const CANCELLED_BY_USER = '100.396.101';

/** Whether the flow that just ended in the modal was cancelled by the shopper on its page. */
export function cancelledByShopper(session: Session | undefined): boolean {
  return session?.state === 'open' && session.lastResult?.code === CANCELLED_BY_USER;
}

/**
 * What the session read after a modal flow says: `leave` when the checkout completed without a
 * rejection (success, success to review, pending: the result page asks the gateway), `retry` while
 * it is open (failure, cancel, timeout), `closed` when it expired or a rejection completed it, and
 * `unknown` when it could not be read.
 */
export function afterFlow(session: Session | undefined): 'leave' | 'retry' | 'closed' | 'unknown' {
  if (session === undefined) return 'unknown';
  if (session.state === 'open') return 'retry';
  if (
    session.state === 'completed' &&
    (session.lastResult === undefined || isAccepted(session.lastResult.code))
  )
    return 'leave';
  return 'closed';
}
