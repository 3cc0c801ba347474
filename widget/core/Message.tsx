/**
 * The form-level message (`div.wpwl-message`, `role="alert"`): a form's decline or technical error,
 * and the widget's own notice (a closed checkout, a nested form). Components use it through
 * `components/internal/Field.tsx`.
 */
export function Message({ text }: { readonly text: string }) {
  return (
    <div class={`wpwl-message${text ? ' wpwl-has-error' : ''}`} role="alert">
      {text}
    </div>
  );
}
