/**
 * The card form's state and rules, apart from its markup: the brand (detected in the number frame,
 * or chosen), holder and expiry, field checks, and the submit that hands the number frame the
 * form's other fields so it can post the payment itself.
 */
import { effect, type Signal, signal } from '@preact/signals';
import { type CardBrand, isCardBrand } from '../../../shared/brands';
import type { ParameterError } from '../../core/api';
import { fits } from '../../core/checks';
import type { WidgetContext } from '../../core/context';
import type { BillingField } from '../../core/options';
import { callback } from '../../core/options';
import { type FormModel, formModel, merchantFields, requestSubmit, setError } from '../internal/form-model';
import { customerName } from '../internal/names';
import { FrameField, randomId } from '../internal/SecureField/frame-host';
import { submitForm } from '../internal/submit';
import type { billingModel } from './billing-address';
import {
  askedBillingFields,
  BILLING_FIELDS,
  type BillingModel,
  isBillingField,
  pageAddressFields,
  pageAsksForAddress,
} from './billing-fields';
import { checkExpiry, parseExpiry } from './expiry';

export const CARD_FIELDS = ['cardNumber', 'expiry', 'cvv', 'cardHolder'] as const;
export type CardField = (typeof CARD_FIELDS)[number];

/** The names the card form sets itself; everything else in the form is the page's. */
const OWN = new Set([
  ...BILLING_FIELDS.map((f) => `billing.${f}`),
  'paymentBrand',
  'card.number',
  'card.cvv',
  'card.holder',
  'card.expiry',
  'card.expiryMonth',
  'card.expiryYear',
]);

const PARAMETER_FIELD: Readonly<Record<string, CardField | BillingField>> = {
  ...Object.fromEntries(BILLING_FIELDS.map((f) => [`billing.${f}`, f])),
  'card.number': 'cardNumber',
  paymentBrand: 'cardNumber',
  'card.cvv': 'cvv',
  'card.holder': 'cardHolder',
  'card.expiryMonth': 'expiry',
  'card.expiryYear': 'expiry',
};

export { brandName } from '../../core/brands';

export interface CardModel {
  readonly form: FormModel;
  readonly brands: readonly CardBrand[];
  /** The brand the payment goes with. */
  readonly brand: Signal<CardBrand>;
  /** Chosen in the brand list (wins over detection when the number fits it). */
  readonly chosen: Signal<CardBrand | null>;
  readonly holder: Signal<string>;
  readonly expiry: Signal<string>;
  readonly number: FrameField;
  readonly cvv: FrameField;
  readonly ids: Readonly<Record<CardField | BillingField | 'brand', string>>;
  /**
   * The billing address, once asked for: from the start when the page asks for one, else when the
   * gateway names the billing fields an enrolled card needs; undefined until then.
   */
  readonly billing: Signal<BillingModel | undefined>;
  /** The `<form>` element, once rendered. */
  element: HTMLFormElement | null;
  check(field: CardField): string | undefined;
  /** Validates a field the shopper left (shows its error from then on). */
  leave(field: CardField): void;
  /** Revalidates a field that shows an error, so the error goes as soon as it is fixed. */
  recheck(field: CardField): void;
  submit(event: Event): Promise<void>;
  dispose(): void;
}

/**
 * The billing address's part (`./Card.tsx`): its model and checks, loaded before the form is drawn
 * when the page asks for an address, else when the gateway asks for one.
 */
export interface BillingPart {
  loaded(): typeof billingModel | undefined;
  load(): Promise<typeof billingModel>;
}

/** The card form's model. */
export function cardModel(ctx: WidgetContext, brands: readonly CardBrand[], part: BillingPart): CardModel {
  const form = formModel();
  const chosen = signal<CardBrand | null>(null);
  const brand = signal<CardBrand>(brands[0]!);
  const holder = signal('');
  const expiry = signal('');
  const { number, cvv } = cardFrames(ctx, brands, () => model);
  const check = cardCheck(ctx, { brands, brand, holder, expiry, number, cvv });
  const disposers: (() => void)[] = [];
  const model: CardModel = {
    form,
    brands,
    brand,
    chosen,
    holder,
    expiry,
    number,
    cvv,
    ids: {
      brand: ctx.uid('brand'),
      cardNumber: ctx.uid('cardNumber'),
      expiry: ctx.uid('expiry'),
      cardHolder: ctx.uid('cardHolder'),
      cvv: ctx.uid('cvv'),
      ...(Object.fromEntries(BILLING_FIELDS.map((f) => [f, ctx.uid(f)])) as Record<BillingField, string>),
    },
    billing: signal(pageAddress(ctx, part)),
    element: null,
    check,
    leave: (field) => leave(model, field),
    recheck(field) {
      if (form.errors.peek()[field] !== undefined) setError(form, field, check(field));
    },
    submit: (event) => submitCard(ctx, model, event, part),
    dispose() {
      for (const dispose of disposers) dispose();
      number.destroy();
      cvv.destroy();
    },
  };
  disposers.push(...cardEffects(ctx, model));
  return model;
}

/** The address the page asks for from the start (its part loaded by then), else none yet. */
function pageAddress(ctx: WidgetContext, part: BillingPart): BillingModel | undefined {
  const make = part.loaded();
  if (make === undefined || !pageAsksForAddress(ctx.settings)) return undefined;
  const shown = pageAddressFields(ctx.checkout.session.peek());
  return make(ctx.settings, ctx.strings.errorMessages, { shown, asked: [] });
}

/**
 * The billing fields a 400 names (an enrolled card, and the checkout lacks them): asked from now
 * on, drawn with their errors, the first focused once drawn. False when it names none.
 */
async function askBilling(
  ctx: WidgetContext,
  model: CardModel,
  part: BillingPart,
  errors: readonly ParameterError[],
): Promise<boolean> {
  // Missing ones (value null), as the gateway names a v2 field an enrolled card needs; a value it
  // refused is marked as any refused field is.
  const asked = askedBillingFields(errors.filter((e) => e.value === null).map((e) => e.name));
  if (asked.length === 0) return false;
  const shown = model.billing.peek();
  if (shown !== undefined) shown.ask(asked);
  else {
    const make = part.loaded() ?? (await part.load());
    model.billing.value = make(ctx.settings, ctx.strings.errorMessages, { shown: [], asked });
  }
  const first = BILLING_FIELDS.find((f) => asked.includes(f));
  // After the render that draws them (the part's component is loaded by now).
  if (first !== undefined) setTimeout(() => focusField(model, first), 0);
  return true;
}

/**
 * The number and CVV frames, bound by their address to this checkout (no id: they stay off): what
 * they are told at start, and what the page hears of them (focus, blur, both ready).
 */
function cardFrames(ctx: WidgetContext, brands: readonly CardBrand[], model: () => CardModel) {
  const { settings, strings } = ctx;
  const checkoutId = ctx.checkout.id.peek() ?? '';
  // The frames boot started for this checkout and page, else new ones.
  const group = ctx.bus.claimGroup(checkoutId, ctx.pageOrigin) ?? randomId(16);
  let framesReady = 0;
  const frameInit = (name: 'number' | 'cvv') => () => {
    const styles = settings.iframeStyles;
    const key = name === 'number' ? 'card-number' : 'cvv';
    return {
      t: 'init' as const,
      label: name === 'number' ? strings.labels.cardNumber : strings.labels.cvv,
      placeholder: name === 'number' ? strings.labels.cardNumber : strings.labels.cvv,
      dir: ctx.doc.documentElement.dir === 'rtl' || ctx.locale === 'ar' ? ('rtl' as const) : ('ltr' as const),
      brands,
      priority: settings.brandDetectionPriority,
      mask: settings.maskCvv,
      style: {
        input: { ...baseStyle(model()), ...styles[`${key}-input`] },
        placeholder: { ...styles[`${key}-placeholder`] },
      },
      autofocus: name === 'number' ? settings.autofocus === 'card.number' : settings.autofocus === 'card.cvv',
      submitOnEnter: !settings.disableSubmitOnEnter,
    };
  };
  const hooks = (name: 'number' | 'cvv') => ({
    init: frameInit(name),
    onEnter: () => requestSubmit(model().element),
    onFocus: (focused: boolean) => {
      const field = name === 'number' ? 'cardNumber' : 'cvv';
      callback(
        ctx.options,
        focused ? 'onFocusIframeCommunication' : 'onBlurIframeCommunication',
        undefined,
        field,
      );
      if (!focused) model().leave(field);
    },
    onReady: () => {
      framesReady++;
      if (framesReady === 2) callback(ctx.options, 'onReadyIframeCommunication', undefined);
    },
  });
  return {
    number: new FrameField(ctx.bus, 'number', group, ctx.pageOrigin, checkoutId, hooks('number')),
    cvv: new FrameField(ctx.bus, 'cvv', group, ctx.pageOrigin, checkoutId, hooks('cvv')),
  };
}

/** A field's error message, or undefined when it is fine. */
function cardCheck(
  ctx: WidgetContext,
  m: Pick<CardModel, 'brands' | 'brand' | 'holder' | 'expiry' | 'number' | 'cvv'>,
): (field: CardField) => string | undefined {
  const { settings, strings } = ctx;
  return (field) => {
    const e = strings.errorMessages;
    switch (field) {
      case 'cardNumber': {
        const s = m.number.state.value;
        return s.valid && m.brands.includes(m.brand.value) ? undefined : e.cardNumberError;
      }
      case 'expiry': {
        const problem = checkExpiry(m.expiry.value, ctx.now(), settings.validateExpiryDate);
        return problem === 'format'
          ? e.expiryMonthError
          : problem === 'expired'
            ? e.expiredCardError
            : undefined;
      }
      case 'cardHolder': {
        const value = m.holder.value.trim();
        // The billing name comes from the holder when forceCardHolderEqualsBillingName: never empty then.
        if (value === '')
          return settings.allowEmptyCardHolderName && !settings.forceCardHolderEqualsBillingName
            ? undefined
            : e.cardHolderError;
        return fits('card.holder', value) ? undefined : e.cardHolderError;
      }
      case 'cvv': {
        const s = m.cvv.state.value;
        if (s.empty && !settings.requireCvv) return undefined;
        return s.valid ? undefined : e.cvvError;
      }
    }
  };
}

/** Validates a field the shopper left (an empty one only once touched). */
function leave(model: CardModel, field: CardField): void {
  const { form, number, cvv, expiry, holder } = model;
  const empty =
    field === 'cardNumber'
      ? number.state.peek().empty
      : field === 'cvv'
        ? cvv.state.peek().empty
        : field === 'expiry'
          ? expiry.peek() === ''
          : holder.peek() === '';
  if (empty && !form.touched.has(field)) return;
  form.touched.add(field);
  setError(form, field, model.check(field));
}

/**
 * Submit: every field checked (focus on the first wrong one), onBeforeSubmitCard asked, then the
 * number frame posts the form's other fields with the card data.
 */
async function submitCard(
  ctx: WidgetContext,
  model: CardModel,
  event: Event,
  part: BillingPart,
): Promise<void> {
  const { form, check, brand, expiry, holder, number } = model;
  const billing = model.billing.peek();
  const { settings, strings } = ctx;
  const element = model.element;
  if (element === null || form.submitting.peek()) return;
  const errors: Record<string, string> = {};
  const checked: [CardField | BillingField, string | undefined][] = [
    ...CARD_FIELDS.map((f): [CardField, string | undefined] => [f, check(f)]),
    ...(billing?.fields.peek() ?? []).map((f): [BillingField, string | undefined] => [f, billing!.check(f)]),
  ];
  for (const [field, message] of checked) {
    form.touched.add(field);
    if (message !== undefined) errors[field] = message;
  }
  form.errors.value = errors;
  const proceed = callback(ctx.options, 'onBeforeSubmitCard', element, event) !== false;
  const first = checked.find(([f]) => errors[f] !== undefined)?.[0];
  if (first !== undefined) {
    ctx.announce.value = errors[first]!;
    focusField(model, first);
    return;
  }
  if (!proceed) return;
  const date = parseExpiry(expiry.peek())!;
  const fields: [string, string][] = [['paymentBrand', brand.peek()]];
  const name = holder.peek().trim();
  if (name) fields.push(['card.holder', name]);
  fields.push(['card.expiryMonth', date.month], ['card.expiryYear', date.year]);
  fields.push(...(billing?.params() ?? []));
  if (settings.forceCardHolderEqualsBillingName) fields.push(...customerName(name));
  fields.push(...merchantFields(element, OWN));
  await submitForm(ctx, form, {
    brand: brand.peek(),
    fields,
    fieldOf: (parameter) => PARAMETER_FIELD[parameter],
    errorFor: (field) => {
      const asked = model.billing.peek();
      return (
        (asked !== undefined && isBillingField(field) ? asked.check(field) : check(field as CardField)) ??
        strings.errorMessages.declined
      );
    },
    reveal: async (errors) =>
      (await askBilling(ctx, model, part, errors)) ? strings.errorMessages.billingNeeded : undefined,
    // The number frame posts them, with the CVV it collects from its sibling.
    send: (checkoutId, kind, all) =>
      number.submit(checkoutId, kind, all, ['cvv'], settings.requireCvv ? 'required' : 'optional'),
  });
}

/** What follows the state: the brand, the frames, the page's brand callbacks, errors shown. */
function cardEffects(ctx: WidgetContext, model: CardModel): (() => void)[] {
  const { settings } = ctx;
  const { number, cvv, brand, chosen, brands, form } = model;
  return [
    // The brand: the detected one (or a chosen one the number also fits), else the chosen one.
    effect(() => {
      const s = number.state.value;
      const pick = chosen.value;
      let next: CardBrand | undefined;
      if (settings.brandDetection) {
        const detected = s.brands.filter((b): b is CardBrand => isCardBrand(b) && brands.includes(b));
        next = pick !== null && detected.includes(pick) ? pick : (detected[0] ?? pick ?? undefined);
      } else {
        next = pick ?? undefined;
      }
      if (next !== undefined) brand.value = next;
    }),
    // Both frames follow the brand (CVV length, the number's ranges); the page hears of changes.
    (() => {
      let first = true;
      return effect(() => {
        const b = brand.value;
        number.post({ t: 'brand', brand: b });
        cvv.post({ t: 'brand', brand: b });
        if (!first) callback(ctx.options, 'onChangeBrand', undefined, b);
        first = false;
      });
    })(),
    (() => {
      let last = '';
      return effect(() => {
        const detected = number.state.value.brands;
        const key = detected.join(' ');
        if (key === last) return;
        last = key;
        callback(ctx.options, 'onDetectBrand', undefined, [...detected], brand.peek());
      });
    })(),
    effect(() => {
      const errors = form.errors.value;
      number.post({ t: 'invalid', message: errors.cardNumber ?? null });
      cvv.post({ t: 'invalid', message: errors.cvv ?? null });
    }),
    effect(() => {
      number.state.value;
      model.recheck('cardNumber');
    }),
    effect(() => {
      cvv.state.value;
      brand.value;
      model.recheck('cvv');
    }),
  ];
}

export function focusField(model: CardModel, field: CardField | BillingField): void {
  if (field === 'cardNumber') model.number.focus();
  else if (field === 'cvv') model.cvv.focus();
  else (model.element?.ownerDocument.getElementById(model.ids[field]) as HTMLInputElement | null)?.focus();
}

/** The frames' text matches the page's own inputs: font and colour taken from the holder field. */
function baseStyle(model: CardModel): Record<string, string> {
  const input = model.element?.ownerDocument.getElementById(model.ids.cardHolder);
  const view = input?.ownerDocument.defaultView;
  if (!input || !view) return {};
  const cs = view.getComputedStyle(input);
  const out: Record<string, string> = {};
  // The background too: the frame's field then has the page's own (a dark theme's), which is what
  // it shows through anyway, and contrast checks inside the frame see the real pair of colours.
  for (const prop of [
    'color',
    'background-color',
    'font-family',
    'font-size',
    'font-weight',
    'letter-spacing',
  ]) {
    const value = cs.getPropertyValue(prop);
    if (value) out[prop] = value;
  }
  return out;
}
