/**
 * The family's field markup: `wpwl-group wpwl-group-<name>` holding `wpwl-label-<name>` and
 * `wpwl-wrapper-<name>` with the control and, on error, `wpwl-hint`.
 */
import type { ComponentChildren } from 'preact';
import { useWidget } from '../../core/context';

export interface GroupProps {
  readonly name: string;
  readonly label: string;
  /** The control's id; a `<label for>` when given, else a plain labelled `<div>`. */
  readonly controlId: string;
  readonly error: string | undefined;
  readonly children: ComponentChildren;
  readonly after?: ComponentChildren;
  readonly onLabelClick?: () => void;
}

export const hintId = (controlId: string) => `${controlId}-hint`;
export const labelId = (controlId: string) => `${controlId}-label`;

export function Group({ name, label, controlId, error, children, after, onLabelClick }: GroupProps) {
  const { settings } = useWidget();
  const cls = `wpwl-label wpwl-label-${name}`;
  return (
    <div class={`wpwl-group wpwl-group-${name} wpwl-clearfix`}>
      {settings.showLabels ? (
        onLabelClick ? (
          // Frames cannot be a <label>'s target: a click focuses the field instead.
          // biome-ignore lint/a11y/noStaticElementInteractions: the frame itself is keyboard-focusable
          // biome-ignore lint/a11y/useKeyWithClickEvents: keyboard users tab into the frame directly
          <div class={cls} id={labelId(controlId)} onClick={onLabelClick}>
            {label}
          </div>
        ) : (
          <label class={cls} id={labelId(controlId)} for={controlId}>
            {label}
          </label>
        )
      ) : null}
      <div class={`wpwl-wrapper wpwl-wrapper-${name}`}>
        {children}
        {error ? (
          <div class={`wpwl-hint wpwl-hint-${name}Error`} id={hintId(controlId)}>
            {error}
          </div>
        ) : null}
        {after}
      </div>
    </div>
  );
}

export interface TextInputProps {
  readonly id: string;
  readonly name: string;
  /** `wpwl-control-<cls>` */
  readonly cls: string;
  readonly label: string;
  readonly value: string;
  readonly error: string | undefined;
  readonly placeholder?: string;
  readonly autocomplete: string;
  readonly inputMode?: 'text' | 'numeric' | 'email' | 'tel';
  readonly type?: 'text' | 'password';
  readonly maxLength?: number;
  readonly dir?: 'ltr' | 'rtl';
  readonly autofocus?: boolean;
  readonly onInput: (value: string, input: HTMLInputElement) => void;
  readonly onBlur?: () => void;
}

export function TextInput(p: TextInputProps) {
  const { settings } = useWidget();
  return (
    <input
      id={p.id}
      class={`wpwl-control wpwl-control-${p.cls}${p.error ? ' wpwl-has-error' : ''}`}
      type={(p.type ?? 'text') as 'text'}
      name={p.name}
      value={p.value}
      autocomplete={p.autocomplete}
      inputMode={p.inputMode}
      maxLength={p.maxLength}
      dir={p.dir}
      spellcheck={false}
      placeholder={settings.showPlaceholders ? p.placeholder : undefined}
      aria-label={settings.showLabels ? undefined : p.label}
      aria-invalid={p.error ? 'true' : 'false'}
      aria-describedby={p.error ? hintId(p.id) : undefined}
      // biome-ignore lint/a11y/noAutofocus: only when the page asks for it (wpwlOptions.autofocus)
      autoFocus={p.autofocus}
      onInput={(e) => p.onInput(e.currentTarget.value, e.currentTarget)}
      onBlur={p.onBlur}
    />
  );
}

// The form-level message lives in core (the widget's notice shows it too).
export { Message } from '../../core/Message';
