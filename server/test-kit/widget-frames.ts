/**
 * The widget's DOM tests play its frames themselves, so no frame may load: for the calling file's
 * tests, an iframe's `src` is kept in `data-test-src` (where the test reads which frame it is)
 * instead of being loaded. Reading `src` gives '' (a frame never loaded), or with `readBack` the
 * address kept (the wallet sheet, whose address the widget reads again).
 */
import { afterAll, beforeAll } from 'vitest';
import {
  type FrameMessage,
  type HostMessage,
  NS,
  type Payload,
  readFrameHash,
} from '../../widget/frames/protocol';
import { GW } from './widget-page';

export function keepFrameSources({ readBack = false }: { readBack?: boolean } = {}): void {
  const descriptor = Object.getOwnPropertyDescriptor(HTMLIFrameElement.prototype, 'src')!;
  beforeAll(() => {
    Object.defineProperty(HTMLIFrameElement.prototype, 'src', {
      configurable: true,
      get(this: HTMLIFrameElement) {
        return readBack ? (this.dataset.testSrc ?? '') : '';
      },
      set(this: HTMLIFrameElement, value: string) {
        this.dataset.testSrc = value;
      },
    });
  });
  afterAll(() => Object.defineProperty(HTMLIFrameElement.prototype, 'src', descriptor));
}

/**
 * A card frame's side of the protocol, played by the test (frames never load here): a stand-in
 * window takes what the host posts to the gateway's origin (`received`), `say` posts as the frame
 * (from the gateway's origin unless told), and `hello` is what the real frame says first, the
 * checkout and group it read from its address.
 */
export function playFrame(iframe: HTMLIFrameElement) {
  const received: HostMessage[] = [];
  const w = {
    postMessage: (m: HostMessage, origin: string) => {
      if (origin === GW) received.push(m);
    },
  };
  Object.defineProperty(iframe, 'contentWindow', { value: w, configurable: true });
  const say = (m: Payload<FrameMessage>, origin = GW, source: unknown = w) =>
    window.dispatchEvent(
      new MessageEvent('message', { data: { ns: NS, ...m }, origin, source: source as Window }),
    );
  const bound = readFrameHash(new URL(iframe.dataset.testSrc!).hash)!;
  const hello = { t: 'ready', checkout: bound.checkout, group: bound.group } as const;
  return { iframe, received, say, hello };
}
