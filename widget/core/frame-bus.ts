/**
 * One `message` listener per widget for the card-field frames: it checks the gateway origin and the
 * sending window, then hands each frame's message to its field (`FrameField`,
 * components/internal/SecureField/frame-host.ts). Boot makes it and destroys it on unload.
 *
 * It also starts the card form's two frames at boot (issue 21): their documents load while the
 * session is read and the form rendered, instead of after. They are bound like any card frame (the
 * checkout of the script's URL, the page's origin, a fresh group nonce); the card form's fields take
 * them (`claimGroup`, `take`) and move them into the form with `moveBefore`, which keeps a frame's
 * document where `insertBefore` would reload it. What they say before that waits here.
 */
import { type FieldName, type FrameMessage, frameSrc, isProtocol } from '../frames/protocol';

/** A field whose frame's messages the bus routes: its frame's window, and what receives them. */
export interface BusField {
  readonly window: Window | null;
  receive(message: FrameMessage): void;
}

/** A frame started at boot, not yet taken by a field: its element and what it said meanwhile. */
export interface PrestartedFrame {
  readonly iframe: HTMLIFrameElement;
  readonly said: FrameMessage[];
}

interface Prestart {
  readonly checkout: string;
  readonly origin: string;
  readonly group: string;
  /** The element holding the frames until a form takes them (the waiting room, `prestart`). */
  readonly holder: HTMLElement;
  readonly frames: Map<FieldName, PrestartedFrame>;
  claimed: boolean;
}

/** URL-safe random id (hex) from the platform's CSPRNG. */
export function randomId(bytes = 16): string {
  const buf = new Uint8Array(bytes);
  crypto.getRandomValues(buf);
  return Array.from(buf, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** Frames can be moved into the form without reloading (Element.moveBefore, Chromium 133+). */
export const canMoveFrames = (doc: Document): boolean =>
  typeof (doc.documentElement as { moveBefore?: unknown }).moveBefore === 'function';

export class FrameBus {
  private readonly fields = new Set<BusField>();
  private started: Prestart | undefined;
  private readonly listener = (event: MessageEvent) => {
    if (event.origin !== this.gatewayOrigin || !isProtocol(event.data)) return;
    for (const field of this.fields) {
      if (field.window !== null && event.source === field.window) field.receive(event.data as FrameMessage);
    }
    for (const frame of this.started?.frames.values() ?? []) {
      if (event.source === frame.iframe.contentWindow) frame.said.push(event.data as FrameMessage);
    }
  };

  constructor(
    private readonly win: Window,
    readonly gatewayOrigin: string,
    readonly apiBase: string,
  ) {
    win.addEventListener('message', this.listener);
  }

  add(field: BusField): void {
    this.fields.add(field);
  }

  remove(field: BusField): void {
    this.fields.delete(field);
  }

  /**
   * Starts the number and CVV frames for `checkout` and this page's `origin`, waiting at the end of
   * the body (of the document when the body is not parsed yet: the script is in the head).
   */
  prestart(doc: Document, checkout: string, origin: string): void {
    if (this.started !== undefined || !canMoveFrames(doc)) return;
    const group = randomId(16);
    // The waiting room: rendered, but one clipped pixel in the corner, out of every shopper's reach
    // (`inert`: no focus, no click, nothing for assistive technology). Not `hidden`: Chromium treats
    // a `display: none` cross-site frame as not shown, and runs a renderer process with nothing
    // shown in the background, at a lower CPU priority where the system lets it, which delayed the
    // frames on a busy machine (issue 21). Styled through the CSSOM, which a page's CSP allows.
    const holder = doc.createElement('div');
    holder.setAttribute('data-wpwl', 'frames');
    holder.setAttribute('inert', '');
    holder.style.cssText = 'position:fixed;top:0;width:1px;height:1px;overflow:hidden';
    const frames = new Map<FieldName, PrestartedFrame>();
    for (const field of ['number', 'cvv'] as const) {
      const iframe = doc.createElement('iframe');
      iframe.src = frameSrc(this.apiBase, { field, group, origin, checkout });
      iframe.referrerPolicy = 'origin';
      iframe.allow = 'payment';
      holder.append(iframe);
      frames.set(field, { iframe, said: [] });
    }
    (doc.body ?? doc.documentElement).append(holder);
    this.started = { checkout, origin, group, holder, frames, claimed: false };
  }

  /** The started frames' group, once, to the first card form of their checkout and origin. */
  claimGroup(checkout: string, origin: string): string | undefined {
    const s = this.started;
    if (s === undefined || s.claimed || s.checkout !== checkout || s.origin !== origin) return undefined;
    s.claimed = true;
    return s.group;
  }

  /** The started frame of a field of the claimed group; it is the field's from now on. */
  take(field: FieldName, group: string): PrestartedFrame | undefined {
    const s = this.started;
    if (s === undefined || s.group !== group) return undefined;
    const frame = s.frames.get(field);
    s.frames.delete(field);
    return frame;
  }

  /** Removes the started frames no form took (the widget is rendered: no card form wanted them). */
  release(): void {
    this.started?.holder.remove();
    this.started = undefined;
  }

  destroy(): void {
    this.release();
    this.win.removeEventListener('message', this.listener);
    this.fields.clear();
  }
}
