/**
 * What every payment form does once its fields are valid: make sure a checkout exists (fast
 * checkout), send the form with the browser data and result address every submission carries, and
 * act on the answer. A final answer (HTTP 200) takes the shopper to the result page; a pending one
 * with `redirect` goes through the redirect, in the widget's modal (3-D Secure challenges, inline
 * flows) or as the whole page (see redirect.ts); a decline stays on the form with a clear message
 * and the checkout open for another try; a closed checkout says so and disables every form.
 */

import { charges, type Money, shownMoney } from '../../core/amount';
import {
  type Answer,
  type CheckoutKind,
  classify,
  type Fields,
  type ParameterError,
  type PaymentAnswer,
  postCheckout,
  resultUrl,
} from '../../core/api';
import { brandName } from '../../core/brands';
import { checkoutKind, type WidgetContext } from '../../core/context';
import { iframeSubmitError, invalidCheckoutId, widgetError } from '../../core/errors';
import { callback } from '../../core/options';
import { fill, formatAmount } from '../../language';
import type { FormModel } from './form-model';
import {
  afterFlow,
  buildForm,
  cancelledByShopper,
  challengeSize,
  type ModalEnd,
  type ModalFlow,
  RETURN_MODE,
  type RedirectAnswer,
  type RedirectForm,
  redirectForm,
  redirectMode,
} from './redirect';
import type { FrameOutcome } from './SecureField/frame-host';
import { withSubmissionFields } from './submission';

/**
 * What a send ends with: the gateway's answer, a failure, the shopper cancelled (the wallet sheet),
 * or the sheet's total was not the checkout's amount (nothing sent).
 */
export type SendOutcome = FrameOutcome | { readonly kind: 'cancelled' } | { readonly kind: 'amountChanged' };

/** Sends the fields (the form's, then browser data and shopperResultUrl) to the gateway. */
export type Send = (checkoutId: string, kind: CheckoutKind, fields: Fields) => Promise<SendOutcome>;

export interface SubmitSpec {
  readonly brand: string;
  /** The form's fields: brand, its inputs, the inputs the page injected. */
  readonly fields: Fields;
  /** The form's field for a parameter name from parameterErrors (card.number → cardNumber). */
  readonly fieldOf: (parameter: string) => string | undefined;
  /** The localized message for one of the form's fields. */
  readonly errorFor: (field: string) => string;
  /**
   * A 400's parameterErrors may name fields the form keeps hidden until needed (the card form's
   * billing address): drawn now, before they are marked; the form's message to show instead of
   * the decline, or undefined when it drew nothing.
   */
  readonly reveal?: (errors: readonly ParameterError[]) => Promise<string | undefined>;
  readonly send: Send;
  /** The send opens the widget's modal (the wallet sheet): focus returns to the form after it. */
  readonly opensModal?: boolean;
  /** What the form shows before a checkout exists (default: wpwlOptions.checkout), in fast checkout. */
  readonly shown?: () => Money;
}

/** A POST from the page itself, for forms that carry no card data. */
export function direct(ctx: WidgetContext): Send {
  return async (checkoutId, kind, fields) => {
    try {
      const answer = await postCheckout(ctx.apiBase, checkoutId, kind, fields, ctx.fetch);
      return { kind: 'answer', status: answer.status, body: answer.body };
    } catch {
      return { kind: 'failed', reason: 'network' };
    }
  };
}

/** One submission: what its parts share, and how it ends (leaving the page, a modal shown). */
interface Run {
  readonly ctx: WidgetContext;
  readonly model: FormModel;
  readonly spec: SubmitSpec;
  checkoutId: string;
  kind: CheckoutKind;
  /** The shopper is sent away: the form stays busy. */
  leaving: boolean;
  /** The widget's modal was open: focus goes back to the form. */
  modal: boolean;
}

/**
 * Submits a form: makes sure a checkout exists (fast checkout), adds what every submission carries,
 * sends, and handles the answer (result page, redirect, field errors, decline). The form is busy
 * meanwhile; the message and the announcement tell the outcome.
 */
export async function submitForm(ctx: WidgetContext, model: FormModel, spec: SubmitSpec): Promise<void> {
  if (model.submitting.peek() || ctx.checkout.closed.peek() !== null) return;
  const opener = ctx.doc.activeElement;
  model.message.value = '';
  model.submitting.value = true;
  ctx.announce.value = ctx.strings.labels.processing;
  const run: Run = { ctx, model, spec, checkoutId: '', kind: 'payment', leaving: false, modal: false };
  try {
    await send(run);
  } finally {
    if (!run.leaving) model.submitting.value = false;
    ctx.announce.value = model.message.peek();
    // The modal has closed and the shopper stays: focus goes back to what had it (the pay button
    // usually), once that is enabled again, i.e. after the session read that follows the flow.
    if (run.modal && !run.leaving) restoreFocus(opener);
  }
}

/** The checkout, the fields with the submission's own, the send, and its outcome. */
async function send(run: Run): Promise<void> {
  const { ctx, model, spec } = run;
  const { errorMessages } = ctx.strings;
  // Fast checkout: what the form showed before createCheckout made the checkout.
  const shown =
    ctx.checkout.id.peek() === undefined
      ? (spec.shown?.() ?? shownMoney(ctx.settings, undefined))
      : undefined;
  const checkoutId = await ctx.ensureCheckout(spec.brand);
  if (checkoutId === undefined) {
    // Fast checkout whose createCheckout failed (a closed checkout says so itself): try again.
    if (ctx.checkout.closed.peek() === null) model.message.value = errorMessages.checkoutFailed;
    return;
  }
  if (shown !== undefined && !charges(shown, shownMoney(ctx.settings, ctx.checkout.session.peek()))) {
    // The checkout would charge another amount than the one shown: nothing is sent; the forms now
    // show the checkout's amount, so the next click pays what the shopper sees.
    amountChanged(ctx, model);
    return;
  }
  run.checkoutId = checkoutId;
  run.kind = checkoutKind(ctx);
  const fields = withSubmissionFields(
    { win: ctx.win, now: ctx.now, action: ctx.action, challengeWindow: ctx.settings.challengeWindow },
    spec.fields,
  );
  run.modal = spec.opensModal === true;
  const outcome = await spec.send(checkoutId, run.kind, fields);
  if (outcome.kind === 'amountChanged') {
    amountChanged(ctx, model);
    return;
  }
  if (outcome.kind === 'cancelled') {
    model.message.value = errorMessages.paymentCancelled;
    callback(ctx.options, 'onLightboxCancel', undefined);
    return;
  }
  callback(ctx.options, 'onAfterSubmit', undefined);
  if (outcome.kind === 'failed') {
    if (outcome.reason === 'number' || outcome.reason === 'cvv') {
      const field = outcome.reason === 'number' ? 'cardNumber' : 'cvv';
      model.errors.value = { ...model.errors.peek(), [field]: spec.errorFor(field) };
      model.message.value = spec.errorFor(field);
    } else {
      ctx.report(iframeSubmitError(`The payment could not be sent (${outcome.reason}).`));
      model.message.value = errorMessages.technicalError;
    }
    return;
  }
  await answered(run, { status: outcome.status, body: outcome.body as PaymentAnswer | undefined });
}

/** The checkout's amount is not the one shown: say so with the amount it charges (nothing was). */
function amountChanged(ctx: WidgetContext, model: FormModel): void {
  const { amount, currency } = shownMoney(ctx.settings, ctx.checkout.session.peek());
  model.message.value = fill(ctx.strings.errorMessages.amountChanged, {
    amount: formatAmount(amount ?? '', currency, ctx.locale),
  });
}

/** The gateway's answer: the result page, a redirect, field errors, a decline, a closed checkout. */
async function answered(run: Run, answer: Answer): Promise<void> {
  const { ctx, model } = run;
  const { errorMessages } = ctx.strings;
  switch (classify(answer)) {
    case 'done':
      run.leaving = leave(ctx, run.checkoutId, run.kind);
      return;
    case 'redirect':
      return redirected(run, answer.body!.redirect!);
    case 'invalid':
      return invalid(run, answer);
    case 'declined':
      await ctx.refresh();
      if (ctx.checkout.closed.peek() === null) model.message.value = errorMessages.declined;
      return;
    case 'notFound':
      ctx.report(invalidCheckoutId('The checkout does not exist.'));
      ctx.close('invalidCheckout');
      return;
    case 'error':
      model.message.value = errorMessages.technicalError;
      return;
  }
}

/** A pending answer's redirect: the whole page (or paymentTarget) goes, or it opens in the modal. */
async function redirected(run: Run, redirect: RedirectAnswer): Promise<void> {
  const { ctx, model, spec } = run;
  const { errorMessages } = ctx.strings;
  if (redirectMode(ctx.settings, spec.brand) === 'full') {
    run.leaving = followRedirect(ctx, redirect);
    if (!run.leaving) model.message.value = errorMessages.technicalError;
    return;
  }
  const form = redirectForm(redirect, ctx.win.location.href, [RETURN_MODE]);
  if (form === undefined) {
    model.message.value = errorMessages.technicalError;
    return;
  }
  run.modal = true;
  if ((await openModal(ctx, form, spec.brand)) === 'cancel') {
    model.message.value = errorMessages.paymentCancelled;
    callback(ctx.options, 'onLightboxCancel', undefined);
    return;
  }
  await afterModal(run);
}

/** The modal flow has ended: the session read again tells the outcome. */
async function afterModal(run: Run): Promise<void> {
  const { ctx, model } = run;
  const { errorMessages } = ctx.strings;
  const session = await ctx.refresh();
  const description = session?.lastResult?.description;
  switch (afterFlow(session)) {
    case 'leave':
      run.leaving = leave(ctx, run.checkoutId, run.kind);
      return;
    case 'unknown':
      model.message.value = errorMessages.technicalError;
      return;
    case 'closed':
      // Expired: the widget says so. Completed by a rejection: say why too.
      if (session?.state !== 'completed') return;
      break;
    case 'retry':
      // Cancel on the issuer's or provider's page: the same message as closing the window.
      if (cancelledByShopper(session)) {
        model.message.value = errorMessages.paymentCancelled;
        return;
      }
      break;
  }
  model.message.value = description ? `${errorMessages.declined}\n${description}` : errorMessages.declined;
}

/**
 * parameterErrors: the fields the form kept hidden and the gateway now asks for drawn, the form's
 * fields marked; a parameter the shopper cannot fix is reported.
 */
async function invalid(run: Run, answer: Answer): Promise<void> {
  const { ctx, model, spec } = run;
  const { errorMessages } = ctx.strings;
  const parameterErrors = answer.body?.result?.parameterErrors ?? [];
  const revealed = await spec.reveal?.(parameterErrors);
  const errors: Record<string, string> = { ...model.errors.peek() };
  let matched = false;
  for (const e of parameterErrors) {
    const field = spec.fieldOf(e.name);
    if (field !== undefined) {
      errors[field] = spec.errorFor(field);
      matched = true;
    }
  }
  model.errors.value = errors;
  if (matched) {
    model.message.value = revealed ?? errorMessages.declined;
  } else {
    // A parameter the shopper cannot fix: something the page added, or a gateway rule.
    const names = parameterErrors.map((e) => e.name).join(', ');
    ctx.report(widgetError(`The gateway refused the parameters ${names}.`));
    model.message.value = errorMessages.technicalError;
  }
}

function restoreFocus(opener: Element | null): void {
  const el = opener as HTMLElement | null;
  // After the re-render that enables the pay button again.
  setTimeout(() => {
    if (el?.isConnected && typeof el.focus === 'function') el.focus();
  }, 0);
}

/** To the result page: the form's action (else shopperResultUrl) with id and resourcePath. */
function leave(ctx: WidgetContext, checkoutId: string, kind: CheckoutKind): boolean {
  const url = resultUrl(
    ctx.action,
    ctx.checkout.session.peek()?.shopperResultUrl,
    checkoutId,
    kind,
    ctx.win.location.href,
  );
  if (url === undefined) return false;
  ctx.navigate(url);
  return true;
}

let targets = 0;

/** Shows the flow in the widget's modal; resolves when the gateway says it ended or the shopper closes it. */
export function openModal(ctx: WidgetContext, form: RedirectForm, brand: string): Promise<ModalEnd> {
  return new Promise((resolve) => {
    const flow: ModalFlow = {
      name: `wpwl-target-${++targets}`,
      title: fill(ctx.strings.labels.payWith, { brand: brandName(brand) }),
      size: challengeSize(ctx.settings.challengeWindow, ctx.win),
      form,
      end: (how) => {
        if (ctx.modal.peek() === flow) ctx.modal.value = null;
        resolve(how);
      },
    };
    ctx.modal.value = flow;
  });
}

/**
 * Sends the whole page (or `paymentTarget`) on to a payment method's pages, POSTing the redirect's
 * parameters; false when the address is not http(s).
 */
export function followRedirect(ctx: WidgetContext, redirect: RedirectAnswer): boolean {
  const form = redirectForm(redirect, ctx.win.location.href);
  if (form === undefined) return false;
  const target = ctx.settings.paymentTarget;
  if (form.method === 'get') {
    const url = new URL(form.action);
    url.search = new URLSearchParams(form.fields as [string, string][]).toString();
    ctx.navigate(url.href, target ?? '_self');
    return true;
  }
  // A form of its own at the end of <body>: never inside the page's forms.
  const el = buildForm(ctx.doc, form, target);
  ctx.doc.body.append(el);
  el.submit();
  return true;
}
