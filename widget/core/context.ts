/**
 * What every component of one widget shares: settings, texts, the checkout's state, the frame bus,
 * and the actions that leave the form (navigate, report an error).
 */
import { type Signal, signal } from '@preact/signals';
import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import type { ErrorMessages, Locale, Strings } from '../language';
import type { CheckoutKind, Fields, Session } from './api';
import type { WpwlError } from './errors';
import type { FrameBus } from './frame-bus';
import type { ChallengeWindow, Settings } from './options';

/** Why the checkout cannot take a payment any more (a key of errorMessages). */
export type Closed = Extract<keyof ErrorMessages, 'sessionExpired' | 'invalidCheckout' | 'completed'>;

export interface CheckoutState {
  readonly id: Signal<string | undefined>;
  readonly session: Signal<Session | undefined>;
  readonly closed: Signal<Closed | null>;
}

export function checkoutState(id: string | undefined, session?: Session): CheckoutState {
  return { id: signal(id), session: signal(session), closed: signal(null) };
}

export interface WidgetContext {
  readonly win: Window;
  readonly doc: Document;
  readonly settings: Settings;
  /** The page's raw `wpwlOptions`, for callbacks. */
  readonly options: unknown;
  readonly strings: Strings;
  readonly locale: Locale;
  readonly apiBase: string;
  readonly pageOrigin: string;
  readonly bus: FrameBus;
  readonly checkout: CheckoutState;
  /** The merchant form's `action` attribute. */
  readonly action: string | null;
  readonly fetch: typeof fetch;
  /** Polite announcements for screen readers (processing, …). */
  readonly announce: Signal<string>;
  /** A page-unique id for labels and hints. */
  readonly uid: (name: string) => string;
  readonly now: () => Date;
  readonly report: (error: WpwlError) => void;
  /** Sends the shopper to an address: in `target` when given, else in the result target. */
  readonly navigate: (url: string, target?: string) => void;
  /** The checkout id, created through `createCheckout` in fast checkout; undefined when none. */
  readonly ensureCheckout: (brand: string) => Promise<string | undefined>;
  /** Marks the checkout closed and tells the page. */
  readonly close: (why: Closed) => void;
  /**
   * Reads the session again (after a decline, to tell a closed checkout from a refusal; after a
   * modal flow, for its outcome); the session read, or undefined when it could not be read.
   */
  readonly refresh: () => Promise<Session | undefined>;
  /** The flow shown in this widget's modal (3-D Secure challenge, inline redirect flow), if any. */
  readonly modal: Signal<ModalFlow | null>;
}

/** What the gateway's pages need: the address, the method, and the fields to send. */
export interface RedirectForm {
  readonly action: string;
  readonly method: 'get' | 'post';
  readonly fields: Fields;
}

/** How the modal ended: the gateway's completion message, or the shopper closed it. */
export type ModalEnd = 'complete' | 'cancel';

/**
 * A flow shown in the widget's modal (`ctx.modal`): a redirect's pages, POSTed into the iframe
 * (`form`), or a gateway document loaded by address (`src`: the wallet sheet), whose messages go to
 * `receive` once their window and origin are checked.
 */
export interface ModalFlow {
  /** The iframe's name, which the form targets: `wpwl-target-<n>`. */
  readonly name: string;
  /** The dialog's accessible name and the iframe's title. */
  readonly title: string;
  readonly size: ChallengeWindow;
  readonly form?: RedirectForm;
  readonly src?: string;
  /**
   * A message from the iframe's own window with the gateway's origin; `reply` posts back to that
   * window, for the gateway's origin only.
   */
  readonly receive?: (data: unknown, reply: (message: unknown) => void) => void;
  /** Closes the modal and ends the flow (once; later calls change nothing). */
  readonly end: (how: ModalEnd) => void;
}

export const Ctx = createContext<WidgetContext | null>(null);

export function useWidget(): WidgetContext {
  const ctx = useContext(Ctx);
  if (ctx === null) throw new Error('widget context missing');
  return ctx;
}

export { formatAmount } from '../language';

export function checkoutKind(ctx: WidgetContext): CheckoutKind {
  return ctx.checkout.session.value?.kind ?? 'payment';
}
