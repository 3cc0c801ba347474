/**
 * `window.wpwlOptions`: read once when the script runs, checked field by field (a wrong type is
 * ignored, never fatal), with the defaults of the API family. Callbacks run through `callback()`,
 * so an exception in merchant code never breaks the widget.
 */
import type { ErrorMessages, Labels } from '../language';
import type { WpwlError } from './errors';

export type Callback = (...args: never[]) => unknown;

/** What a page may put into `window.wpwlOptions` (the spec's list first, then the ecosystem's). */
export interface WpwlOptions {
  style?: 'card' | 'plain' | 'logos' | 'none';
  locale?: string;
  labels?: Partial<Labels>;
  errorMessages?: Partial<ErrorMessages>;
  /** Brands whose flow runs inside the page instead of a redirect (wallets, a later issue). */
  inlineFlow?: string[];
  checkout?: { amount?: string; currency?: string };
  /** Fast checkout: called on click without a checkoutId; returns the id or a thenable of it. */
  createCheckout?: (data: { brand: string }) => string | PromiseLike<string>;
  onReady?: () => void;
  onReadyIframeCommunication?: () => void;
  onFocusIframeCommunication?: (field: 'cardNumber' | 'cvv') => void;
  onBlurIframeCommunication?: (field: 'cardNumber' | 'cvv') => void;
  onBeforeSubmitCard?: (event: Event) => unknown;
  onBeforeSubmitOneClickCard?: (event: Event) => unknown;
  onBeforeSubmitDirectDebit?: (event: Event) => unknown;
  onBeforeSubmitVirtualAccount?: (event: Event) => unknown;
  onBeforeSubmitGiftCard?: (event: Event) => unknown;
  onBeforeSubmitOnlineTransfer?: (event: Event) => unknown;
  onAfterSubmit?: () => void;
  onChangeBrand?: (brand: string) => void;
  onDetectBrand?: (brands: string[], active?: string) => void;
  onError?: (error: WpwlError) => void;
  brandDetection?: boolean;
  brandDetectionPriority?: string[];
  requireCvv?: boolean;
  allowEmptyCvv?: boolean;
  showCVVHint?: boolean;
  maskCvv?: boolean;
  iframeStyles?: Record<string, Record<string, string>>;
  registrations?: { requireCvv?: boolean; hideInitialPaymentForms?: boolean };
  autofocus?: string;
  showLabels?: boolean;
  showPlaceholders?: boolean;
  disableSubmitOnEnter?: boolean;
  disableCardExpiryDateValidation?: boolean;
  allowEmptyCardHolderName?: boolean;
  paymentTarget?: string;
  shopperResultTarget?: string;
}

/** The options after defaults: what the components read. */
export interface Settings {
  readonly style: 'card' | 'plain';
  readonly locale: unknown;
  readonly labels: unknown;
  readonly errorMessages: unknown;
  readonly inlineFlow: readonly string[];
  readonly checkoutAmount: string | undefined;
  readonly brandDetection: boolean;
  readonly brandDetectionPriority: readonly string[];
  readonly requireCvv: boolean;
  readonly showCVVHint: boolean;
  readonly maskCvv: boolean;
  readonly iframeStyles: Readonly<Record<string, Readonly<Record<string, string>>>>;
  readonly registrationsRequireCvv: boolean;
  readonly hideInitialPaymentForms: boolean;
  readonly autofocus: string | undefined;
  readonly showLabels: boolean;
  readonly showPlaceholders: boolean;
  readonly disableSubmitOnEnter: boolean;
  readonly validateExpiryDate: boolean;
  readonly allowEmptyCardHolderName: boolean;
  readonly resultTarget: string | undefined;
  readonly createCheckout: WpwlOptions['createCheckout'];
}

const bool = (value: unknown, fallback: boolean): boolean => (typeof value === 'boolean' ? value : fallback);
const str = (value: unknown): string | undefined => (typeof value === 'string' && value ? value : undefined);
const strings = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
const record = (value: unknown): Record<string, unknown> =>
  value !== null && typeof value === 'object' ? (value as Record<string, unknown>) : {};

function styles(value: unknown): Record<string, Record<string, string>> {
  const out: Record<string, Record<string, string>> = {};
  for (const [key, css] of Object.entries(record(value))) {
    const props: Record<string, string> = {};
    for (const [prop, v] of Object.entries(record(css))) {
      if (typeof v === 'string' || typeof v === 'number') props[prop] = String(v);
    }
    out[key] = props;
  }
  return out;
}

export function readSettings(raw: unknown): Settings {
  const o = record(raw);
  const registrations = record(o.registrations);
  const checkout = record(o.checkout);
  const requireCvv = bool(o.requireCvv, !bool(o.allowEmptyCvv, false));
  const createCheckout = typeof o.createCheckout === 'function' ? o.createCheckout : undefined;
  return {
    style: o.style === 'plain' ? 'plain' : 'card',
    locale: o.locale,
    labels: o.labels,
    errorMessages: o.errorMessages,
    inlineFlow: strings(o.inlineFlow),
    checkoutAmount: str(checkout.amount),
    brandDetection: bool(o.brandDetection, true),
    brandDetectionPriority: strings(o.brandDetectionPriority).map((b) => b.toUpperCase()),
    requireCvv,
    showCVVHint: bool(o.showCVVHint, false),
    maskCvv: bool(o.maskCvv, false),
    iframeStyles: styles(o.iframeStyles),
    registrationsRequireCvv: bool(registrations.requireCvv, false),
    hideInitialPaymentForms: bool(registrations.hideInitialPaymentForms, false),
    autofocus: str(o.autofocus),
    showLabels: bool(o.showLabels, true),
    showPlaceholders: bool(o.showPlaceholders, true),
    disableSubmitOnEnter: bool(o.disableSubmitOnEnter, false),
    validateExpiryDate: !bool(o.disableCardExpiryDateValidation, false),
    allowEmptyCardHolderName: bool(o.allowEmptyCardHolderName, false),
    resultTarget: str(o.shopperResultTarget) ?? str(o.paymentTarget),
    createCheckout: createCheckout as WpwlOptions['createCheckout'],
  };
}

/**
 * Calls `options[name]` with `this` bound as given; a missing callback gives undefined, a throwing one
 * is reported on the console and counts as undefined.
 */
export function callback(
  options: unknown,
  name: keyof WpwlOptions,
  self: unknown,
  ...args: unknown[]
): unknown {
  const fn = record(options)[name];
  if (typeof fn !== 'function') return undefined;
  try {
    return fn.apply(self, args);
  } catch (error) {
    console.error(`wpwlOptions.${name} threw`, error);
    return undefined;
  }
}
