/**
 * One `message` listener per widget for the card-field frames: it checks the gateway origin and the
 * sending window, then hands each frame's message to its field (`FrameField`,
 * components/internal/SecureField/frame-host.ts). Boot makes it and destroys it on unload.
 */
import { type FrameMessage, isProtocol } from '../frames/protocol';

/** A field whose frame's messages the bus routes: its frame's window, and what receives them. */
export interface BusField {
  readonly window: Window | null;
  receive(message: FrameMessage): void;
}

export class FrameBus {
  private readonly fields = new Set<BusField>();
  private readonly listener = (event: MessageEvent) => {
    if (event.origin !== this.gatewayOrigin || !isProtocol(event.data)) return;
    for (const field of this.fields) {
      if (field.window !== null && event.source === field.window) field.receive(event.data as FrameMessage);
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

  destroy(): void {
    this.win.removeEventListener('message', this.listener);
    this.fields.clear();
  }
}
