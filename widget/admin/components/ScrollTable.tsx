/**
 * A table's own scrolling region: on a narrow screen a wide table scrolls sideways inside it (the
 * page does not), and keyboard users reach it with Tab to scroll it with the arrow keys.
 */
import type { ComponentChildren } from 'preact';

export function ScrollTable({ label, children }: { label: string; children: ComponentChildren }) {
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must take the focus (WCAG 2.1.1)
    <div class="scroll" tabIndex={0} title={label}>
      {children}
    </div>
  );
}
