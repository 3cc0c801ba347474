/**
 * The card form (`form.wpwl-form.wpwl-form-card`): brand, card number (frame), expiry, CVV (frame),
 * holder and the pay button, with the family's classes; the DOM order is the visual order, so the
 * keyboard follows what the shopper sees. Each group is its own
 * component reading its own signals; the form element renders once.
 */
import { useEffect, useMemo } from 'preact/hooks';
import { type CardBrand, isCardBrand } from '../../../shared/brands';
import { useWidget } from '../../core/context';
import { widgetError } from '../../core/errors';
import type { MethodProps } from '../../core/registry';
import { BrandLogo, preloadLogos } from '../internal/BrandLogo/BrandLogo';
import { Group, Message, TextInput } from '../internal/Field';
import { enterGuard } from '../internal/form-model';
import { lazy } from '../internal/lazy';
import { PayButton } from '../internal/PayButton';
import { SecureField } from '../internal/SecureField/SecureField';
import type * as Part from './BillingAddress';
import { formatExpiry } from './expiry';
import { type BillingPart, brandName, type CardModel, cardModel } from './model';

/**
 * The billing address is asked for only when it is needed (`./billing-fields.ts`): a part, its form
 * and its checks, fetched before the form is drawn when the page asks for an address (the
 * descriptor's `prepare`, so the model finds the checks), else early when the session says an
 * enrolled card would need one, and at the latest when the gateway asks for it.
 */
const billingPart: { loaded?: typeof Part } = {};
export const BillingAddress = lazy(() =>
  import('./BillingAddress').then((m) => {
    billingPart.loaded = m;
    return m.BillingAddress;
  }),
);
const part: BillingPart = {
  loaded: () => billingPart.loaded?.billingModel,
  load: async () => {
    await BillingAddress.preload();
    if (billingPart.loaded === undefined) throw new Error('the billing address did not load');
    return billingPart.loaded.billingModel;
  },
};

/** The card form draws every card brand listed (`brands`: card brands only, see index.ts). */
export type CardProps = Pick<MethodProps, 'brands' | 'payLabel'>;

/**
 * The card frames are bound, by their address, to the checkout they are created for. Fast checkout
 * has none until a click, so it offers no card form (wallets and redirect brands only).
 */
export function Card(props: CardProps) {
  const ctx = useWidget();
  const unbound = useMemo(() => {
    const fast = ctx.checkout.id.peek() === undefined && ctx.checkout.closed.peek() === null;
    if (fast)
      ctx.report(widgetError('Card forms need the checkoutId in the script URL; fast checkout has none.'));
    return fast;
  }, []);
  return unbound ? null : <CardForm {...props} />;
}

function CardForm({ brands: listed, payLabel }: CardProps) {
  const ctx = useWidget();
  const brands = useMemo(() => listed.filter(isCardBrand), []);
  const model = useMemo(() => cardModel(ctx, brands, part), []);
  useEffect(() => () => model.dispose(), [model]);
  useEffect(() => preloadLogos(ctx.doc, ctx.apiBase, brands), []);
  return (
    <div class="wpwl-container wpwl-container-card wpwl-clearfix">
      <form
        class="wpwl-form wpwl-form-card wpwl-clearfix"
        noValidate
        ref={(el) => {
          model.element = el;
        }}
        onSubmit={(e) => {
          e.preventDefault();
          void model.submit(e);
        }}
        onKeyDown={enterGuard(ctx.settings.disableSubmitOnEnter)}
      >
        <FormMessage model={model} />
        <BrandGroup model={model} />
        <BrandRow model={model} />
        <NumberGroup model={model} />
        <ExpiryGroup model={model} />
        <CvvGroup model={model} />
        <HolderGroup model={model} />
        <BillingSlot model={model} />
        <PayButton model={model.form} label={payLabel} />
      </form>
    </div>
  );
}

/** The billing address, once asked for (its own component: drawing it re-renders nothing else). */
function BillingSlot({ model }: { model: CardModel }) {
  return model.billing.value === undefined ? null : <BillingAddress model={model} />;
}

function FormMessage({ model }: { model: CardModel }) {
  return <Message text={model.form.message.value} />;
}

function BrandGroup({ model }: { model: CardModel }) {
  const { settings, strings } = useWidget();
  const visible = !settings.brandDetection || settings.style === 'plain';
  return (
    <div class="wpwl-group wpwl-group-brand wpwl-clearfix" hidden={!visible}>
      {settings.showLabels ? (
        <label class="wpwl-label wpwl-label-brand" for={model.ids.brand}>
          {strings.labels.brand}
        </label>
      ) : null}
      <div class="wpwl-wrapper wpwl-wrapper-brand">
        <select
          id={model.ids.brand}
          class="wpwl-control wpwl-control-brand"
          name="paymentBrand"
          value={model.brand.value}
          aria-label={settings.showLabels ? undefined : strings.labels.brand}
          onChange={(e) => {
            model.chosen.value = e.currentTarget.value as CardBrand;
          }}
        >
          {model.brands.map((b) => (
            <option key={b} value={b}>
              {brandName(b)}
            </option>
          ))}
        </select>
      </div>
    </div>
  );
}

/**
 * The family's row of accepted brands (`div.wpwl-brand.wpwl-brand-<BRAND>` each): the card brands
 * this form takes, shown before the shopper types; once the number frame detects one, it is
 * highlighted (`wpwl-brand-detected`) and the others dimmed (`wpwl-brand-dimmed`).
 */
function BrandRow({ model }: { model: CardModel }) {
  const detected = model.number.state.value.brands.length > 0 ? model.brand.value : null;
  return (
    <div class="wpwl-brands">
      {model.brands.map((b) => {
        const state = detected === null ? '' : b === detected ? ' wpwl-brand-detected' : ' wpwl-brand-dimmed';
        return (
          <div key={b} class={`wpwl-brand wpwl-brand-${b}${state}`}>
            <BrandLogo brand={b} />
          </div>
        );
      })}
    </div>
  );
}

function BrandBadge({ model }: { model: CardModel }) {
  const { settings } = useWidget();
  const detected = model.number.state.value.brands.length > 0;
  const brand = model.brand.value;
  const shown = !settings.brandDetection || detected || model.brands.length === 1 ? brand : null;
  return (
    <div class={`wpwl-brand wpwl-brand-card${shown ? ` wpwl-brand-${shown}` : ''}`}>
      {shown ? <BrandLogo brand={shown} /> : null}
    </div>
  );
}

function NumberGroup({ model }: { model: CardModel }) {
  const { strings } = useWidget();
  const error = model.form.errors.value.cardNumber;
  return (
    <Group
      name="cardNumber"
      label={strings.labels.cardNumber}
      controlId={model.ids.cardNumber}
      error={error}
      onLabelClick={() => model.number.focus()}
      after={<BrandBadge model={model} />}
    >
      <SecureField
        field={model.number}
        id={model.ids.cardNumber}
        cls="cardNumber"
        title={strings.labels.cardNumberFrame}
        error={error}
      />
    </Group>
  );
}

function ExpiryGroup({ model }: { model: CardModel }) {
  const { strings, settings } = useWidget();
  return (
    <Group
      name="expiry"
      label={strings.labels.expiryDate}
      controlId={model.ids.expiry}
      error={model.form.errors.value.expiry}
    >
      <TextInput
        id={model.ids.expiry}
        name="card.expiry"
        cls="expiry"
        label={strings.labels.expiryDate}
        value={model.expiry.value}
        error={model.form.errors.value.expiry}
        placeholder={strings.labels.mmyy}
        autocomplete="cc-exp"
        inputMode="numeric"
        maxLength={7}
        dir="ltr"
        autofocus={settings.autofocus === 'card.expiry'}
        onInput={(value, input) => {
          const next = formatExpiry(value);
          model.expiry.value = next;
          if (input.value !== next) input.value = next;
          model.recheck('expiry');
        }}
        onBlur={() => model.leave('expiry')}
      />
    </Group>
  );
}

function HolderGroup({ model }: { model: CardModel }) {
  const { strings, settings } = useWidget();
  const error = model.form.errors.value.cardHolder;
  return (
    <Group name="cardHolder" label={strings.labels.cardHolder} controlId={model.ids.cardHolder} error={error}>
      <TextInput
        id={model.ids.cardHolder}
        name="card.holder"
        cls="cardHolder"
        label={strings.labels.cardHolder}
        value={model.holder.value}
        error={error}
        placeholder={strings.labels.cardHolder}
        autocomplete="cc-name"
        maxLength={128}
        autofocus={settings.autofocus === 'card.holder'}
        onInput={(value) => {
          model.holder.value = value;
          model.recheck('cardHolder');
        }}
        onBlur={() => model.leave('cardHolder')}
      />
    </Group>
  );
}

function CvvGroup({ model }: { model: CardModel }) {
  const { strings, settings, uid } = useWidget();
  const error = model.form.errors.value.cvv;
  const hint = useMemo(() => uid('cvvHint'), []);
  const amex = model.brand.value === 'AMEX';
  return (
    <Group
      name="cvv"
      label={strings.labels.cvv}
      controlId={model.ids.cvv}
      error={error}
      onLabelClick={() => model.cvv.focus()}
      after={
        settings.showCVVHint ? (
          <div class="wpwl-cvv-hint" id={hint}>
            {amex ? strings.labels.cvvHintAmex : strings.labels.cvvHint}
          </div>
        ) : null
      }
    >
      <SecureField
        field={model.cvv}
        id={model.ids.cvv}
        cls="cvv"
        title={strings.labels.cvvFrame}
        error={error}
      />
    </Group>
  );
}
