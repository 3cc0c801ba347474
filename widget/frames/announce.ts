/**
 * The card-field frame's first act (issue 21): read its binding from its address and tell the host
 * it is there, before the rest of its script (the field, the brand catalogue, the submission, the
 * CSS) is evaluated, so the host's `init` is on its way while the frame builds its input.
 *
 * Nothing the host sends can be lost or handled early: what arrives before the field listens is
 * held here, unread, and handed to the field's own listener (`startField`), which checks the
 * sender's window and origin of every message as always. The `ready` goes to the declared parent
 * origin only, and only when the browser's own record of the parent's origin agrees.
 */
import { type FrameMessage, type FrameParams, NS, readFrameHash } from './protocol';

export interface Announced {
  readonly params: FrameParams;
  /** Messages that came before the field listened, in order, unchecked. */
  readonly held: MessageEvent[];
  /** Stops holding; the field's listener takes over. */
  readonly release: () => void;
}

export interface AnnounceEnv {
  readonly window: Pick<Window, 'location' | 'addEventListener' | 'removeEventListener'>;
  /** `window.parent`; the host page. */
  readonly parent: Pick<Window, 'postMessage'>;
  /** `location.ancestorOrigins[0]` where the browser offers it. */
  readonly ancestorOrigin?: string | undefined;
}

/**
 * The frame's binding, read once from its address: a later change of the address binds it to
 * nothing else. Undefined when the address is not a field's, or when the declared parent origin is
 * not the real one (where the browser tells it).
 */
export function bind(env: AnnounceEnv): FrameParams | undefined {
  const params = readFrameHash(env.window.location.hash);
  if (params === undefined) return undefined;
  if (env.ancestorOrigin !== undefined && env.ancestorOrigin !== params.origin) return undefined;
  return params;
}

/** Binds the frame, holds the host's messages and says `ready`; undefined when the frame stays off. */
export function announce(env: AnnounceEnv): Announced | undefined {
  const params = bind(env);
  if (params === undefined) return undefined;
  const held: MessageEvent[] = [];
  const hold = (event: MessageEvent) => held.push(event);
  env.window.addEventListener('message', hold);
  const ready: FrameMessage = { ns: NS, t: 'ready', checkout: params.checkout, group: params.group };
  env.parent.postMessage(ready, params.origin);
  return { params, held, release: () => env.window.removeEventListener('message', hold) };
}
