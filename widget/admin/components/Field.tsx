/**
 * A labelled form control with its error: the label names it, the error (the API's
 * parameterErrors message for this field) is tied to it by aria-describedby and aria-invalid.
 */
import type { InputHTMLAttributes } from 'preact';
import { useId } from 'preact/hooks';

type Input = InputHTMLAttributes<HTMLInputElement>;

interface FieldProps {
  readonly label: string;
  readonly value: string;
  readonly onValue: (value: string) => void;
  readonly error?: string | undefined;
  readonly hint?: string;
  readonly type?: 'text' | 'password' | 'date' | 'url';
  readonly autoComplete?: Input['autoComplete'];
  readonly inputMode?: Input['inputMode'];
  readonly required?: boolean;
}

export function Field({ label, value, onValue, error, hint, type = 'text', ...rest }: FieldProps) {
  const id = useId();
  const describedBy = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ');
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <input
        {...rest}
        id={id}
        // Preact's types tie each input type to its own attributes; these share the same ones
        type={type as 'text'}
        value={value}
        onInput={(e) => onValue(e.currentTarget.value)}
        aria-invalid={error ? 'true' : undefined}
        aria-describedby={describedBy || undefined}
      />
      {hint && (
        <span class="hint" id={`${id}-hint`}>
          {hint}
        </span>
      )}
      {error && (
        <span class="field-error" id={`${id}-error`}>
          {error}
        </span>
      )}
    </div>
  );
}

interface SelectProps {
  readonly label: string;
  readonly value: string;
  readonly onValue: (value: string) => void;
  readonly options: readonly (readonly [value: string, text: string])[];
  readonly error?: string | undefined;
}

export function Select({ label, value, onValue, options, error }: SelectProps) {
  const id = useId();
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <select
        id={id}
        value={value}
        onChange={(e) => onValue(e.currentTarget.value)}
        aria-invalid={error ? 'true' : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
      >
        {options.map(([v, text]) => (
          <option key={v} value={v}>
            {text}
          </option>
        ))}
      </select>
      {error && (
        <span class="field-error" id={`${id}-error`}>
          {error}
        </span>
      )}
    </div>
  );
}

export function Checkbox({
  label,
  checked,
  onChecked,
}: {
  label: string;
  checked: boolean;
  onChecked: (checked: boolean) => void;
}) {
  const id = useId();
  return (
    <div class="field field-check">
      <input id={id} type="checkbox" checked={checked} onChange={(e) => onChecked(e.currentTarget.checked)} />
      <label for={id}>{label}</label>
    </div>
  );
}
