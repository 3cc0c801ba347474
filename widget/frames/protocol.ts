/**
 * Messages between the shop page (host) and the card-field frames, and between the frames of one
 * form. Host and frame check each other's origin and window on every message. The host only ever
 * learns a field's brand, validity, emptiness, length and (once valid) last four digits; the card
 * number leaves its frame only in the frame's own POST to the gateway, the CVV also from the CVV
 * frame to the number frame over a BroadcastChannel (gateway origin only).
 *
 * A frame is bound, by its own address, to the page origin and the checkout it was created for: it
 * reads them once at start, talks only to that origin, and posts only to that checkout. No message
 * can name another target: a submit for any other checkout is refused. Its sibling channel is named
 * by the form's random group and the checkout, so a frame made for another checkout is never on it.
 */

/** Marks every message of this protocol; anything else on the channel is ignored. */
export const NS = 'wpwl:1';

/** A message without its `ns` (distributes over unions). */
export type Payload<M> = M extends unknown ? Omit<M, 'ns'> : never;

export type FieldName = 'number' | 'cvv';

/** What a checkout's submit creates: `/v1/checkouts/<id>/payment` or `…/registration`. */
export type CheckoutKind = 'payment' | 'registration';

/** What the host tells a frame at start (texts are the page's language). */
export interface InitMessage {
  readonly ns: typeof NS;
  readonly t: 'init';
  readonly label: string;
  readonly placeholder: string;
  readonly dir: 'ltr' | 'rtl';
  /** Card brands the form accepts (detection is limited to them). */
  readonly brands: readonly string[];
  readonly priority: readonly string[];
  readonly mask: boolean;
  /** CSS for the input: `input` (the base the host derives from its own fields) and `placeholder`. */
  readonly style: {
    readonly input: Readonly<Record<string, string>>;
    readonly placeholder: Readonly<Record<string, string>>;
  };
  readonly autofocus: boolean;
  readonly submitOnEnter: boolean;
}

export type HostMessage =
  | InitMessage
  /** The brand the form will pay with (the CVV's length and the number's ranges follow it). */
  | { readonly ns: typeof NS; readonly t: 'brand'; readonly brand: string | null }
  | { readonly ns: typeof NS; readonly t: 'focus' }
  | { readonly ns: typeof NS; readonly t: 'invalid'; readonly message: string | null }
  | { readonly ns: typeof NS; readonly t: 'clear' }
  | {
      readonly ns: typeof NS;
      readonly t: 'submit';
      readonly id: string;
      /** Must be the frame's own checkout (from its address); anything else is refused. */
      readonly checkout: string;
      readonly kind: CheckoutKind;
      /** The form's other fields (brand, holder, expiry, merchant inputs). */
      readonly fields: readonly (readonly [string, string])[];
      /** Sibling fields to collect: the CVV when the number frame submits. */
      readonly collect: readonly FieldName[];
      readonly cvv: 'required' | 'optional';
    };

export interface FieldState {
  readonly empty: boolean;
  readonly valid: boolean;
  /** Number field: the best brand among the accepted ones, and every candidate. */
  readonly brand: string | null;
  readonly brands: readonly string[];
  readonly length: number;
  /** Only once the number is valid. */
  readonly last4: string | null;
}

export type FailReason = 'number' | 'cvv' | 'path' | 'timeout' | 'network';

export type FrameMessage =
  /** With the binding the frame read from its address; the host ignores a frame bound elsewhere. */
  | { readonly ns: typeof NS; readonly t: 'ready'; readonly checkout: string; readonly group: string }
  | ({ readonly ns: typeof NS; readonly t: 'state' } & FieldState)
  | { readonly ns: typeof NS; readonly t: 'focus'; readonly focused: boolean }
  | { readonly ns: typeof NS; readonly t: 'enter' }
  | {
      readonly ns: typeof NS;
      readonly t: 'result';
      readonly id: string;
      readonly status: number;
      readonly body: unknown;
    }
  | { readonly ns: typeof NS; readonly t: 'failed'; readonly id: string; readonly reason: FailReason };

/**
 * Between the frames of one form (BroadcastChannel `channelName(params)`, gateway origin only): the
 * number frame asks for the CVV, the CVV frame answers. Both carry the checkout, checked on receipt.
 */
export type SiblingMessage =
  | { readonly ns: typeof NS; readonly t: 'collect'; readonly id: string; readonly checkout: string }
  | {
      readonly ns: typeof NS;
      readonly t: 'value';
      readonly id: string;
      readonly checkout: string;
      readonly field: 'cvv';
      readonly value: string;
      readonly valid: boolean;
    };

export const isProtocol = (data: unknown): data is { ns: typeof NS; t: string } =>
  data !== null && typeof data === 'object' && (data as { ns?: unknown }).ns === NS;

/** A checkout id as a frame accepts it (core/api's CHECKOUT_ID). */
export const FRAME_CHECKOUT = /^[A-Za-z0-9.-]{1,64}$/;

/**
 * Frame address parameters (in the fragment, so the document stays one cacheable file). The frame
 * reads them once at start: a later change of its address (a new fragment keeps the document)
 * changes nothing, and a new document starts empty.
 */
export interface FrameParams {
  readonly field: FieldName;
  /** A random nonce per form, shared by its number and CVV frames. */
  readonly group: string;
  /** The page that created the frame: the only origin it answers and listens to. */
  readonly origin: string;
  /** The checkout the frame was created for: the only one it posts to. */
  readonly checkout: string;
}

export function frameHash(p: FrameParams): string {
  return `#${new URLSearchParams({ f: p.field, g: p.group, o: p.origin, c: p.checkout }).toString()}`;
}

export function readFrameHash(hash: string): FrameParams | undefined {
  const q = new URLSearchParams(hash.replace(/^#/, ''));
  const field = q.get('f');
  const group = q.get('g') ?? '';
  const origin = q.get('o') ?? '';
  const checkout = q.get('c') ?? '';
  if (field !== 'number' && field !== 'cvv') return undefined;
  if (!/^[A-Za-z0-9_-]{16,64}$/.test(group)) return undefined;
  if (!FRAME_CHECKOUT.test(checkout)) return undefined;
  try {
    if (new URL(origin).origin !== origin) return undefined;
  } catch {
    return undefined;
  }
  return { field, group, origin, checkout };
}

/** The sibling channel of one form's frames: its group and its checkout. */
export const channelName = (p: Pick<FrameParams, 'group' | 'checkout'>): string =>
  `wpwl:${p.group}:${p.checkout}`;

/** Where a frame posts, relative to the gateway's `/v1/`: its own checkout only. */
export const checkoutPath = (checkout: string, kind: CheckoutKind): string =>
  `checkouts/${encodeURIComponent(checkout)}/${kind}`;

/** Where the frame document lives, relative to the gateway's `/v1/`. */
export const FRAME_PATH = 'widget/frames/card-field.html';

/**
 * A card frame's address below the gateway's `/v1/`: the document, its field as the query (one
 * URL per field: Chromium's HTTP cache lets one request per URL through at a time, so a shared
 * URL would load the two frames one after the other), and the binding in the fragment.
 */
export const frameSrc = (apiBase: string, p: FrameParams): string =>
  `${new URL(FRAME_PATH, apiBase).href}?${p.field}${frameHash(p)}`;
