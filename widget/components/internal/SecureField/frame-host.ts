/**
 * The host side of the card-field frames: one `message` listener per widget (FrameBus) routes each
 * frame's messages to its FrameField, after checking the gateway origin and the sending window.
 * A FrameField queues what the host says until its frame is ready, keeps the frame's reported
 * state in signals, and turns a submit into a promise of the gateway's answer. Its frame's address
 * binds the frame to this page's origin and to one checkout; the frame posts to no other.
 */
import { signal } from '@preact/signals';
import { type FrameBus, type PrestartedFrame, randomId } from '../../../core/frame-bus';
import {
  type CheckoutKind,
  type FailReason,
  type FieldName,
  type FieldState,
  type FrameMessage,
  frameSrc,
  type HostMessage,
  type InitMessage,
  NS,
  type Payload,
} from '../../../frames/protocol';

export const EMPTY_STATE: FieldState = {
  empty: true,
  valid: false,
  brand: null,
  brands: [],
  length: 0,
  last4: null,
};

export type FrameOutcome =
  | { readonly kind: 'answer'; readonly status: number; readonly body: unknown }
  | { readonly kind: 'failed'; readonly reason: FailReason };

/** How long the host waits for a frame's payment answer. */
const SUBMIT_TIMEOUT_MS = 90_000;

export interface FrameFieldHooks {
  readonly init: () => Payload<InitMessage>;
  readonly onEnter?: () => void;
  readonly onFocus?: (focused: boolean) => void;
  readonly onReady?: () => void;
}

export class FrameField {
  readonly ready = signal(false);
  readonly state = signal<FieldState>(EMPTY_STATE);
  readonly focused = signal(false);
  readonly src: string;
  /** The frame boot started for this field (FrameBus.prestart), if it took one: SecureField moves it in. */
  readonly prestarted: HTMLIFrameElement | undefined;
  /** What the started frame said before this field had it, heard once the frame is attached. */
  private said: FrameMessage[] = [];
  private iframe: HTMLIFrameElement | null = null;
  private queue: HostMessage[] = [];
  private readonly submits = new Map<string, (outcome: FrameOutcome) => void>();
  /** The frame said it is bound to this field's checkout and group. */
  private bound = false;

  /**
   * `group`: a random nonce shared by the frames of one form (their sibling channel); `checkout`:
   * the checkout the frame is for, the only one it will ever post to (empty: the frame stays off).
   */
  constructor(
    private readonly bus: FrameBus,
    readonly name: FieldName,
    private readonly group: string,
    pageOrigin: string,
    readonly checkout: string,
    private readonly hooks: FrameFieldHooks,
  ) {
    this.src = frameSrc(bus.apiBase, { field: name, group, origin: pageOrigin, checkout });
    const started: PrestartedFrame | undefined = bus.take(name, group);
    this.prestarted = started?.iframe;
    if (started) this.said = started.said;
    bus.add(this);
  }

  get window(): Window | null {
    return this.iframe?.contentWindow ?? null;
  }

  attach(iframe: HTMLIFrameElement | null): void {
    this.iframe = iframe;
    if (iframe === null || iframe !== this.prestarted || this.said.length === 0) return;
    // After the render that attached it (the page's onReady comes before onReadyIframeCommunication,
    // as with a frame loaded in place), and before any message the frame sends next.
    const said = this.said;
    this.said = [];
    queueMicrotask(() => {
      if (this.iframe === iframe) for (const m of said) this.receive(m);
    });
  }

  destroy(): void {
    this.bus.remove(this);
    this.iframe = null;
    for (const resolve of this.submits.values()) resolve({ kind: 'failed', reason: 'network' });
    this.submits.clear();
  }

  post(message: Payload<HostMessage>): void {
    const full = { ns: NS, ...message } as HostMessage;
    if (!this.ready.value || this.window === null) {
      this.queue.push(full);
      return;
    }
    this.window.postMessage(full, this.bus.gatewayOrigin);
  }

  receive(message: FrameMessage): void {
    if (message.t === 'ready') {
      // A frame whose address was changed to another checkout or group is not this field's frame:
      // it gets nothing from the host, and nothing it says counts, until this field's frame is back.
      this.bound = message.checkout === this.checkout && message.group === this.group;
      if (!this.bound) {
        this.ready.value = false;
        this.state.value = EMPTY_STATE;
        return;
      }
    }
    if (!this.bound) return;
    switch (message.t) {
      case 'ready': {
        // A reloaded frame starts over: send init again, then whatever waited.
        this.ready.value = true;
        const waiting = this.queue;
        this.queue = [];
        this.post(this.hooks.init());
        for (const m of waiting) this.window?.postMessage(m, this.bus.gatewayOrigin);
        this.hooks.onReady?.();
        break;
      }
      case 'state':
        this.state.value = {
          empty: message.empty === true,
          valid: message.valid === true,
          brand: typeof message.brand === 'string' ? message.brand : null,
          brands: Array.isArray(message.brands) ? message.brands.filter((b) => typeof b === 'string') : [],
          length: typeof message.length === 'number' ? message.length : 0,
          last4: typeof message.last4 === 'string' && /^\d{4}$/.test(message.last4) ? message.last4 : null,
        };
        break;
      case 'focus':
        this.focused.value = message.focused === true;
        this.hooks.onFocus?.(this.focused.value);
        break;
      case 'enter':
        this.hooks.onEnter?.();
        break;
      case 'result':
        this.submits.get(message.id)?.({ kind: 'answer', status: message.status, body: message.body });
        break;
      case 'failed':
        this.submits.get(message.id)?.({ kind: 'failed', reason: message.reason });
        break;
    }
  }

  focus(): void {
    this.iframe?.focus();
    this.post({ t: 'focus' });
  }

  /** Has the frame post the fields to `checkoutId`, which must be the frame's own checkout. */
  submit(
    checkoutId: string,
    kind: CheckoutKind,
    fields: readonly (readonly [string, string])[],
    collect: readonly FieldName[],
    cvv: 'required' | 'optional',
  ): Promise<FrameOutcome> {
    const id = randomId(12);
    return new Promise((resolve) => {
      const timer = setTimeout(() => done({ kind: 'failed', reason: 'timeout' }), SUBMIT_TIMEOUT_MS);
      const done = (outcome: FrameOutcome) => {
        clearTimeout(timer);
        this.submits.delete(id);
        resolve(outcome);
      };
      this.submits.set(id, done);
      if (checkoutId !== this.checkout) {
        done({ kind: 'failed', reason: 'path' });
        return;
      }
      if (!this.ready.value) {
        done({ kind: 'failed', reason: 'timeout' });
        return;
      }
      this.post({ t: 'submit', id, checkout: checkoutId, kind, fields, collect, cvv });
    });
  }
}

export { randomId };
