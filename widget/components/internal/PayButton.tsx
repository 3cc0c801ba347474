/**
 * `wpwl-group-submit` with `wpwl-button wpwl-button-pay`. The group renders once; only the button
 * follows the form's state, so inputs a page injects before the button stay where it put them.
 */
import { useWidget } from '../../core/context';
import { BrandLogo } from './BrandLogo/BrandLogo';
import type { FormModel } from './form-model';

export interface PayButtonProps {
  readonly model: FormModel;
  readonly label: string;
  readonly extraClass?: string;
  /** More attributes for the button (a wallet's data-placement, data-product-type). */
  readonly attrs?: Readonly<Record<string, string>>;
  /** The brand whose logo goes before the label (a redirect method's or a wallet's button). */
  readonly logo?: string;
}

export function PayButton(props: PayButtonProps) {
  return (
    <div class="wpwl-group wpwl-group-submit wpwl-clearfix">
      <Button {...props} />
    </div>
  );
}

export function Button({ model, label, extraClass, attrs, logo }: PayButtonProps) {
  const { checkout, strings } = useWidget();
  const busy = model.submitting.value;
  const closed = checkout.closed.value !== null;
  return (
    <button
      {...attrs}
      type="submit"
      class={`wpwl-button wpwl-button-pay${extraClass ? ` ${extraClass}` : ''}${busy ? ' wpwl-button-busy' : ''}`}
      disabled={busy || closed}
      aria-busy={busy ? 'true' : 'false'}
    >
      {busy ? (
        <span class="wpwl-spinner" aria-hidden="true" />
      ) : logo ? (
        <BrandLogo brand={logo} decorative />
      ) : null}
      <span class="wpwl-button-label">{busy ? strings.labels.processing : label}</span>
    </button>
  );
}
