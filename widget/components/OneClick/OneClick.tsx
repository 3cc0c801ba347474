/**
 * One-click payment with the shopper's stored registrations (from the checkout session): a radio
 * list (brand and last four digits: all the session shows) and, when `registrations.requireCvv` or
 * the session says a stored card needs it (`cvvRequired`: its channel asks), a CVV frame that posts
 * `registrationId` and the CVV itself. Without a CVV the page posts `registrationId` directly (no
 * card data involved).
 */
import { effect, signal } from '@preact/signals';
import { useEffect, useMemo } from 'preact/hooks';
import { isCardBrand } from '../../../shared/brands';
import type { StoredRegistration } from '../../core/api';
import { useWidget, type WidgetContext } from '../../core/context';
import { callback } from '../../core/options';
import { BrandLogo } from '../internal/BrandLogo/BrandLogo';
import { Group, Message } from '../internal/Field';
import { formModel, merchantFields, requestSubmit, setError } from '../internal/form-model';
import { PayButton } from '../internal/PayButton';
import { FrameField, randomId } from '../internal/SecureField/frame-host';
import { SecureField } from '../internal/SecureField/SecureField';
import { direct, submitForm } from '../internal/submit';

export interface OneClickProps {
  readonly registrations: readonly StoredRegistration[];
  readonly payLabel: string;
  /** `registrations.hideInitialPaymentForms`: the button that shows the other forms. */
  readonly onShowOthers?: () => void;
}

function oneClickModel(ctx: WidgetContext, registrations: readonly StoredRegistration[]) {
  const form = formModel();
  const selected = signal(registrations[0]!.id);
  const needsCvv = ctx.settings.registrationsRequireCvv || registrations.some((r) => r.cvvRequired === true);
  const model = {
    form,
    selected,
    needsCvv,
    element: null as HTMLFormElement | null,
    cvvId: ctx.uid('registration-cvv'),
    cvv: undefined as FrameField | undefined,
    dispose: [] as (() => void)[],
  };
  if (needsCvv) {
    const cvv = new FrameField(ctx.bus, 'cvv', randomId(16), ctx.pageOrigin, ctx.checkout.id.peek() ?? '', {
      init: () => ({
        t: 'init',
        label: ctx.strings.labels.cvv,
        placeholder: ctx.strings.labels.cvv,
        dir: ctx.locale === 'ar' ? 'rtl' : 'ltr',
        brands: [],
        priority: [],
        mask: ctx.settings.maskCvv,
        style: {
          input: { ...ctx.settings.iframeStyles['cvv-input'] },
          placeholder: { ...ctx.settings.iframeStyles['cvv-placeholder'] },
        },
        autofocus: false,
        submitOnEnter: !ctx.settings.disableSubmitOnEnter,
      }),
      onEnter: () => requestSubmit(model.element),
      onFocus: (focused) => {
        if (!focused && !cvv.state.peek().empty) {
          setError(form, 'cvv', cvv.state.peek().valid ? undefined : ctx.strings.errorMessages.cvvError);
        }
      },
    });
    model.cvv = cvv;
    model.dispose.push(
      effect(() => {
        const reg = registrations.find((r) => r.id === selected.value);
        cvv.post({ t: 'brand', brand: reg && isCardBrand(reg.paymentBrand) ? reg.paymentBrand : null });
        cvv.post({ t: 'clear' });
      }),
      effect(() => {
        cvv.post({ t: 'invalid', message: form.errors.value.cvv ?? null });
      }),
      effect(() => {
        if (cvv.state.value.valid && form.errors.peek().cvv) setError(form, 'cvv', undefined);
      }),
      () => cvv.destroy(),
    );
  }
  return model;
}

type Model = ReturnType<typeof oneClickModel>;

export function OneClick({ registrations, payLabel, onShowOthers }: OneClickProps) {
  const ctx = useWidget();
  const model = useMemo(() => oneClickModel(ctx, registrations), []);
  useEffect(
    () => () => {
      for (const dispose of model.dispose) dispose();
    },
    [model],
  );
  const legend = useMemo(() => ctx.uid('registrations'), []);
  return (
    <div class="wpwl-container wpwl-container-registration wpwl-clearfix">
      <form
        class="wpwl-form wpwl-form-registrations wpwl-clearfix"
        noValidate
        ref={(el) => {
          model.element = el;
        }}
        onSubmit={(e) => {
          e.preventDefault();
          void submit(ctx, model, e);
        }}
      >
        <FormMessage model={model} />
        <div
          class="wpwl-group wpwl-group-registration wpwl-clearfix"
          role="radiogroup"
          aria-labelledby={legend}
        >
          <div class="wpwl-label wpwl-label-registration" id={legend}>
            {ctx.strings.labels.registrations}
          </div>
          {registrations.map((r) => (
            <Registration key={r.id} registration={r} model={model} />
          ))}
        </div>
        {model.cvv ? <CvvGroup model={model} field={model.cvv} /> : null}
        <PayButton model={model.form} label={payLabel} />
      </form>
      {onShowOthers ? <ShowOthers onShow={onShowOthers} /> : null}
    </div>
  );
}

function FormMessage({ model }: { model: Model }) {
  return <Message text={model.form.message.value} />;
}

function Registration({ registration: r, model }: { registration: StoredRegistration; model: Model }) {
  const checked = model.selected.value === r.id;
  const last4 = r.card?.last4Digits;
  return (
    <label class={`wpwl-registration${checked ? ' wpwl-selected' : ''}`}>
      <input
        type="radio"
        class="wpwl-control wpwl-control-registration"
        name="registrationId"
        value={r.id}
        checked={checked}
        onChange={() => {
          model.selected.value = r.id;
        }}
      />
      <span class={`wpwl-brand wpwl-brand-${r.paymentBrand}`}>
        <BrandLogo brand={r.paymentBrand} />
      </span>
      <span class="wpwl-registration-number">{last4 ? `•••• ${last4}` : ''}</span>
    </label>
  );
}

function CvvGroup({ model, field }: { model: Model; field: FrameField }) {
  const { strings } = useWidget();
  const error = model.form.errors.value.cvv;
  return (
    <Group
      name="registration-cvv"
      label={strings.labels.cvv}
      controlId={model.cvvId}
      error={error}
      onLabelClick={() => field.focus()}
    >
      <SecureField field={field} id={model.cvvId} cls="cvv" title={strings.labels.cvvFrame} error={error} />
    </Group>
  );
}

function ShowOthers({ onShow }: { onShow: () => void }) {
  const { strings } = useWidget();
  return (
    <button type="button" class="wpwl-button wpwl-button-showOtherPaymentMethods" onClick={onShow}>
      {strings.labels.showOtherPaymentMethods}
    </button>
  );
}

async function submit(ctx: WidgetContext, model: Model, event: Event) {
  const element = model.element;
  if (element === null || model.form.submitting.peek()) return;
  const cvv = model.cvv;
  const registration = model.selected.peek();
  const chosen = registrations(ctx).find((r) => r.id === registration);
  // The page's option asks for every card's CVV; the session for the cards whose channel asks.
  const required = ctx.settings.registrationsRequireCvv || chosen?.cvvRequired === true;
  const state = cvv?.state.peek();
  const cvvError =
    state && !state.valid && (required || !state.empty) ? ctx.strings.errorMessages.cvvError : undefined;
  setError(model.form, 'cvv', cvvError);
  const proceed = callback(ctx.options, 'onBeforeSubmitOneClickCard', element, event) !== false;
  if (cvvError !== undefined) {
    cvv?.focus();
    return;
  }
  if (!proceed) return;
  const brand = chosen?.paymentBrand ?? '';
  const fields: [string, string][] = [
    ['registrationId', registration],
    ...merchantFields(element, new Set(['registrationId', 'card.cvv'])),
  ];
  await submitForm(ctx, model.form, {
    brand,
    fields,
    fieldOf: (parameter) => (parameter === 'card.cvv' ? 'cvv' : undefined),
    errorFor: () => ctx.strings.errorMessages.cvvError,
    send: cvv
      ? (checkoutId, kind, all) => cvv.submit(checkoutId, kind, all, [], required ? 'required' : 'optional')
      : direct(ctx),
  });
}

const registrations = (ctx: WidgetContext) => ctx.checkout.session.peek()?.registrations ?? [];
