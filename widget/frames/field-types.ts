/**
 * The card-field frame's types, shared by its parts (field.ts: binding, input, host messages;
 * field-submit.ts: submission and the CVV channel).
 */
import type { FieldName, FieldState, FrameMessage, InitMessage, Payload } from './protocol';

export interface Channel {
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
  /** The frame's stylesheet, where the host's placeholder style is added (else the document's first). */
  readonly sheet?: CSSStyleSheet;
  /** How long the number frame waits for its sibling's CVV. */
  readonly collectTimeoutMs?: number;
}

/** One field's state, shared by its parts (input, host messages, submission). */
export interface Field {
  readonly env: FieldEnv;
  readonly name: FieldName;
  readonly checkout: string;
  readonly apiBase: string;
  readonly input: HTMLInputElement;
  readonly label: HTMLLabelElement;
  readonly error: HTMLDivElement;
  /** The host's init, once it came. */
  init: InitMessage | undefined;
  /** The brand the host chose or detected (the CVV's rules follow it). */
  hostBrand: string | null;
  digits: string;
  /** The state last reported, as JSON. */
  last: string | undefined;
  busy: boolean;
  readonly send: (message: Payload<FrameMessage>) => void;
  readonly state: () => FieldState;
  readonly clear: () => void;
}
