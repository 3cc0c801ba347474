/**
 * `window.wpwlOptions`: read once when the script runs, checked field by field (a wrong type is
 * ignored, never fatal), with the defaults of the API family. Callbacks run through `callback()`,
 * so an exception in merchant code never breaks the widget.
 */

import type { BillingAddress, CallbackTrigger, PaymentData, SheetOptions } from '../frames/wallet-protocol';
import type { ErrorMessages, Labels } from '../language';
import type { WpwlError } from './errors';

export type Callback = (...args: never[]) => unknown;

/** The billing address fields the card form may ask for (billing.<field>). */
export type BillingField = 'street1' | 'city' | 'postcode' | 'country' | 'state';

/** What a page may put into `window.wpwlOptions` (the spec's list first, then the ecosystem's). */
export interface WpwlOptions {
  style?: 'card' | 'plain' | 'logos' | 'none';
  locale?: string;
  labels?: Partial<Labels>;
  errorMessages?: Partial<ErrorMessages>;
  /**
   * Redirect brands whose flow opens in the widget's modal instead of a full-page redirect: brand
   * codes, as an array or one space- or comma-separated string.
   */
  inlineFlow?: string[] | string;
  /** `threeDChallengeWindow`: the 3-D Secure challenge size, EMV 1-5 (250×400, 390×400, 500×600, 600×400, full). */
  browser?: { threeDChallengeWindow?: number | string };
  /** Called each time the modal's iframe (3-D Secure challenge, inline flow) has loaded a page. */
  onLoadThreeDIframe?: () => void;
  /** Called when the shopper closes the modal (close button, Escape) before the flow ends. */
  onLightboxCancel?: () => void;
  checkout?: { amount?: string; currency?: string };
  /** Fast checkout: called on click without a checkoutId; returns the id or a thenable of it. */
  createCheckout?: (data: { brand: string }) => string | PromiseLike<string>;
  /** WALLETA's button and sheet (the spec's first wallet block). */
  walletA?: WalletOptions;
  /** WALLETB: the fields of walletA that apply. */
  walletB?: WalletOptions;
  /** WALLETC (the spec's second wallet block): merchantId, ledgerCurrency, sandbox, checkoutLanguage, productType, placement, buttonColor. */
  walletC?: WalletOptions;
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
  /** Prefills the billing address fields the card form asks for (3-D Secure without billing.*). */
  billingAddress?: Partial<Record<BillingField | 'street2', string>>;
  /** Which billing fields must be filled: true must, false may stay empty (unless 3-D Secure needs it). */
  mandatoryBillingFields?: Partial<Record<BillingField | 'street2', boolean>>;
  /** The card holder is the billing name: sent as customer.givenName and customer.surname too. */
  forceCardHolderEqualsBillingName?: boolean;
  /** Where redirects open (`_top`, `_parent`, a frame name); set, card challenges leave the modal too. */
  paymentTarget?: string;
  shopperResultTarget?: string;
}

/**
 * A wallet block (`wpwlOptions.walletA`, `walletB`, `walletC`). Every field is optional; the sheet
 * shows what is given (see widget/README.md).
 */
export interface WalletOptions extends SheetOptions {
  /** Called with {callbackTrigger, billingAddress?}; returns (a thenable of) {newTransactionInfo?, error?}. */
  onPaymentDataChanged?: (data: {
    callbackTrigger: CallbackTrigger;
    billingAddress?: BillingAddress;
  }) => unknown;
  /** Called with the sheet's paymentData; returns (a thenable of) {transactionState: 'SUCCESS' | 'ERROR', error?}. */
  onPaymentAuthorized?: (paymentData: PaymentData) => unknown;
}

/** EMV 3-D Secure challenge window sizes: 1 250×400, 2 390×400, 3 500×600, 4 600×400, 5 full window. */
export type ChallengeWindow = 1 | 2 | 3 | 4 | 5;

/** The options after defaults: what the components read. */
export interface Settings {
  readonly style: 'card' | 'plain';
  readonly locale: unknown;
  readonly labels: unknown;
  readonly errorMessages: unknown;
  readonly inlineFlow: readonly string[];
  /** `checkout.amount` and `checkout.currency`: shown in fast checkout, before a checkout exists. */
  readonly checkoutAmount: string | undefined;
  readonly checkoutCurrency: string | undefined;
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
  readonly billingAddress: Readonly<Record<string, string>>;
  readonly mandatoryBillingFields: Readonly<Record<string, boolean>>;
  readonly forceCardHolderEqualsBillingName: boolean;
  /** Where the shopper goes to the result page (shopperResultTarget, else paymentTarget). */
  readonly resultTarget: string | undefined;
  /** Where redirects go (paymentTarget); undefined: card challenges in the modal, others this window. */
  readonly paymentTarget: string | undefined;
  /** `browser.threeDChallengeWindow`, when the page gives one. */
  readonly challengeWindow: ChallengeWindow | undefined;
  readonly createCheckout: WpwlOptions['createCheckout'];
}

const bool = (value: unknown, fallback: boolean): boolean => (typeof value === 'boolean' ? value : fallback);
const str = (value: unknown): string | undefined => (typeof value === 'string' && value ? value : undefined);
const strings = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
/** Brand codes from an array or a space- or comma-separated string, upper-cased. */
const brandList = (value: unknown): string[] =>
  (typeof value === 'string' ? value.split(/[\s,]+/) : strings(value))
    .map((b) => b.trim().toUpperCase())
    .filter((b) => b !== '');
const record = (value: unknown): Record<string, unknown> =>
  value !== null && typeof value === 'object' ? (value as Record<string, unknown>) : {};

/** The entries of an object whose values pass `keep`. */
function only<T>(value: unknown, keep: (v: unknown) => v is T): Record<string, T> {
  const out: Record<string, T> = {};
  for (const [key, v] of Object.entries(record(value))) if (keep(v)) out[key] = v;
  return out;
}

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

/** 1-5 as a number or a string (`'3'`, `'03'`); anything else: none. */
export function challengeWindow(value: unknown): ChallengeWindow | undefined {
  const n =
    typeof value === 'number'
      ? value
      : typeof value === 'string' && /^\s*0?[1-5]\s*$/.test(value)
        ? +value
        : 0;
  return Number.isInteger(n) && n >= 1 && n <= 5 ? (n as ChallengeWindow) : undefined;
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
    inlineFlow: brandList(o.inlineFlow),
    checkoutAmount: str(checkout.amount),
    checkoutCurrency: str(checkout.currency),
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
    billingAddress: only(o.billingAddress, (v): v is string => typeof v === 'string'),
    mandatoryBillingFields: only(o.mandatoryBillingFields, (v): v is boolean => typeof v === 'boolean'),
    forceCardHolderEqualsBillingName: bool(o.forceCardHolderEqualsBillingName, false),
    resultTarget: str(o.shopperResultTarget) ?? str(o.paymentTarget),
    paymentTarget: str(o.paymentTarget),
    challengeWindow: challengeWindow(record(o.browser).threeDChallengeWindow),
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
