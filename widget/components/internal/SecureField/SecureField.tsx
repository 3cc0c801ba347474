/**
 * The host element of a card-field frame: `<iframe class="wpwl-control wpwl-control-iframe
 * wpwl-control-<name>">`, titled for screen readers, pointing at the gateway's frame document.
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
  const ref = useRef<HTMLIFrameElement>(null);
  useLayoutEffect(() => {
    field.attach(ref.current);
    return () => field.attach(null);
  }, [field]);
  const focused = field.focused.value;
  return (
    <iframe
      ref={ref}
      id={id}
      class={`wpwl-control wpwl-control-iframe wpwl-control-${cls}${focused ? ' wpwl-focus' : ''}${error ? ' wpwl-has-error' : ''}`}
      title={title}
      name={id}
      src={field.src}
      allow="payment"
      referrerpolicy="origin"
      aria-describedby={error ? hintId(id) : undefined}
    />
  );
}
