/**
 * The host element of a card-field frame: `<iframe class="wpwl-control wpwl-control-iframe
 * wpwl-control-<name>">`, titled for screen readers, pointing at the gateway's frame document.
 * A frame boot started (FrameField.prestarted) is moved here, before a hidden placeholder Preact
 * keeps, and given the same attributes; otherwise the iframe is rendered and loads now.
 */
import { useLayoutEffect, useRef } from 'preact/hooks';
import { hintId } from '../Field';
import type { FrameField } from './frame-host';

export interface SecureFieldProps {
  readonly field: FrameField;
  readonly id: string;
  /** `wpwl-control-<cls>`: cardNumber, cvv */
  readonly cls: string;
  readonly title: string;
  readonly error: string | undefined;
}

export function SecureField({ field, id, cls, title, error }: SecureFieldProps) {
  const ref = useRef<HTMLElement>(null);
  const started = field.prestarted;
  const className = `wpwl-control wpwl-control-iframe wpwl-control-${cls}${field.focused.value ? ' wpwl-focus' : ''}${error ? ' wpwl-has-error' : ''}`;
  const describedBy = error ? hintId(id) : undefined;
  useLayoutEffect(() => {
    const slot = ref.current;
    if (started === undefined || slot === null) {
      field.attach(ref.current as HTMLIFrameElement | null);
      return () => field.attach(null);
    }
    const parent = slot.parentNode as ParentNode & { moveBefore(node: Node, child: Node | null): void };
    try {
      parent.moveBefore(started, slot);
    } catch {
      // Taken out of the page meanwhile (moveBefore keeps only a connected frame): it loads again
      // here, bound as before, and says ready again.
      parent.insertBefore(started, slot);
    }
    field.attach(started);
    return () => {
      field.attach(null);
      started.remove();
    };
  }, [field]);
  useLayoutEffect(() => {
    if (started === undefined) return;
    started.id = id;
    started.className = className;
    started.title = title;
    started.name = id;
    if (describedBy === undefined) started.removeAttribute('aria-describedby');
    else started.setAttribute('aria-describedby', describedBy);
  });
  if (started !== undefined) return <span ref={ref} hidden />;
  return (
    <iframe
      ref={ref as preact.RefObject<HTMLIFrameElement>}
      id={id}
      class={className}
      title={title}
      name={id}
      src={field.src}
      allow="payment"
      referrerpolicy="origin"
      aria-describedby={describedBy}
    />
  );
}
