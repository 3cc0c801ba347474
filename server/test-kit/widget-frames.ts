/**
 * The widget's DOM tests play its frames themselves, so no frame may load: for the calling file's
 * tests, an iframe's `src` is kept in `data-test-src` (where the test reads which frame it is)
 * instead of being loaded. Reading `src` gives '' (a frame never loaded), or with `readBack` the
 * address kept (the wallet sheet, whose address the widget reads again).
 */
import { afterAll, beforeAll } from 'vitest';

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
