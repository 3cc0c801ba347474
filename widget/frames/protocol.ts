/**
 * Messages between the shop page (host) and the card-field frames, and between the frames of one
 * form. Host and frame check each other's origin and window on every message. The host only ever
 * learns a field's brand, validity, emptiness, length and (once valid) last four digits; the card
 * number and CVV leave a frame only in the frame's own POST to the gateway, or from one frame to
 * its sibling over a BroadcastChannel, which is limited to the gateway's origin.
 */

/** Marks every message of this protocol; anything else on the channel is ignored. */
export const NS = 'wpwl:1';

/** A message without its `ns` (distributes over unions). */
export type Payload<M> = M extends unknown ? Omit<M, 'ns'> : never;

export type FieldName = 'number' | 'cvv';

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
      /** `checkouts/<id>/payment` or `…/registration`, relative to the gateway's `/v1/`. */
      readonly path: string;
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
  | { readonly ns: typeof NS; readonly t: 'ready' }
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

/** Between the frames of one form (BroadcastChannel `wpwl:<group>`, gateway origin only). */
export type SiblingMessage =
  | { readonly ns: typeof NS; readonly t: 'collect'; readonly id: string }
  | {
      readonly ns: typeof NS;
      readonly t: 'value';
      readonly id: string;
      readonly field: FieldName;
      readonly value: string;
      readonly valid: boolean;
    };

export const isProtocol = (data: unknown): data is { ns: typeof NS; t: string } =>
  data !== null && typeof data === 'object' && (data as { ns?: unknown }).ns === NS;

/** The submit path a frame accepts from its host. */
export const SUBMIT_PATH = /^checkouts\/[A-Za-z0-9.-]{1,64}\/(payment|registration)$/;

/** Frame address parameters (in the fragment, so the document stays one cacheable file). */
export interface FrameParams {
  readonly field: FieldName;
  readonly group: string;
  readonly origin: string;
}

export function frameHash(p: FrameParams): string {
  return `#${new URLSearchParams({ f: p.field, g: p.group, o: p.origin }).toString()}`;
}

export function readFrameHash(hash: string): FrameParams | undefined {
  const q = new URLSearchParams(hash.replace(/^#/, ''));
  const field = q.get('f');
  const group = q.get('g') ?? '';
  const origin = q.get('o') ?? '';
  if (field !== 'number' && field !== 'cvv') return undefined;
  if (!/^[A-Za-z0-9_-]{16,64}$/.test(group)) return undefined;
  try {
    if (new URL(origin).origin !== origin) return undefined;
  } catch {
    return undefined;
  }
  return { field, group, origin };
}

/** Where the frame document lives, relative to the gateway's `/v1/`. */
export const FRAME_PATH = 'widget/frames/card-field.html';
