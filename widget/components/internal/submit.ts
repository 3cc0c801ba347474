/**
 * What every payment form does once its fields are valid: make sure a checkout exists (fast
 * checkout), send, and act on the answer. A final answer (HTTP 200) takes the shopper to the
 * result page or through `redirect.url`; a decline stays on the form with a clear message and the
 * checkout open for another try; a closed checkout says so and disables every form.
 */
import {
  type Answer,
  type CheckoutKind,
  classify,
  type Fields,
  type PaymentAnswer,
  postCheckout,
  resultUrl,
} from '../../core/api';
import { checkoutKind, type WidgetContext } from '../../core/context';
import { iframeSubmitError, invalidCheckoutId, widgetError } from '../../core/errors';
import { callback } from '../../core/options';
import type { FormModel } from './form-model';
import type { FrameOutcome } from './SecureField/frame-host';

export type Send = (checkoutId: string, kind: CheckoutKind) => Promise<FrameOutcome>;

export interface SubmitSpec {
  readonly brand: string;
  /** The form's field for a parameter name from parameterErrors (card.number → cardNumber). */
  readonly fieldOf: (parameter: string) => string | undefined;
  /** The localized message for one of the form's fields. */
  readonly errorFor: (field: string) => string;
  readonly send: Send;
}

/** A POST from the page itself, for forms that carry no card data. */
export function direct(ctx: WidgetContext, fields: () => Fields): Send {
  return async (checkoutId, kind) => {
    try {
      const answer = await postCheckout(ctx.apiBase, checkoutId, kind, fields(), ctx.fetch);
      return { kind: 'answer', status: answer.status, body: answer.body };
    } catch {
      return { kind: 'failed', reason: 'network' };
    }
  };
}

export async function submitForm(ctx: WidgetContext, model: FormModel, spec: SubmitSpec): Promise<void> {
  if (model.submitting.peek() || ctx.checkout.closed.peek() !== null) return;
  const { errorMessages, labels } = ctx.strings;
  model.message.value = '';
  model.submitting.value = true;
  ctx.announce.value = labels.processing;
  let leaving = false;
  try {
    const checkoutId = await ctx.ensureCheckout(spec.brand);
    if (checkoutId === undefined) return;
    const kind = checkoutKind(ctx);
    const outcome = await spec.send(checkoutId, kind);
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
    const answer: Answer = { status: outcome.status, body: outcome.body as PaymentAnswer | undefined };
    switch (classify(answer)) {
      case 'done': {
        const url = resultUrl(
          ctx.action,
          ctx.checkout.session.peek()?.shopperResultUrl,
          checkoutId,
          kind,
          ctx.win.location.href,
        );
        if (url !== undefined) {
          leaving = true;
          ctx.navigate(url);
        }
        return;
      }
      case 'redirect':
        leaving = followRedirect(ctx, answer.body!.redirect!);
        if (!leaving) model.message.value = errorMessages.technicalError;
        return;
      case 'invalid': {
        const errors: Record<string, string> = { ...model.errors.peek() };
        let matched = false;
        for (const e of answer.body?.result?.parameterErrors ?? []) {
          const field = spec.fieldOf(e.name);
          if (field !== undefined) {
            errors[field] = spec.errorFor(field);
            matched = true;
          }
        }
        model.errors.value = errors;
        if (matched) {
          model.message.value = errorMessages.declined;
        } else {
          // A parameter the shopper cannot fix: something the page added, or a gateway rule.
          const names = (answer.body?.result?.parameterErrors ?? []).map((e) => e.name).join(', ');
          ctx.report(widgetError(`The gateway refused the parameters ${names}.`));
          model.message.value = errorMessages.technicalError;
        }
        return;
      }
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
  } finally {
    if (!leaving) model.submitting.value = false;
    ctx.announce.value = model.message.peek();
  }
}

/** Sends the shopper on to a payment method's page; false when the address is not http(s). */
export function followRedirect(
  ctx: WidgetContext,
  redirect: NonNullable<PaymentAnswer['redirect']>,
): boolean {
  let url: URL;
  try {
    url = new URL(redirect.url ?? '', ctx.win.location.href);
  } catch {
    return false;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return false;
  const method = (redirect.method ?? 'POST').toUpperCase() === 'GET' ? 'get' : 'post';
  const parameters = redirect.parameters ?? [];
  if (method === 'get' && parameters.length === 0) {
    ctx.navigate(url.href);
    return true;
  }
  // A form of its own at the end of <body>: never inside the page's forms.
  const form = ctx.doc.createElement('form');
  form.method = method;
  form.action = url.href;
  form.hidden = true;
  for (const { name, value } of parameters) {
    const input = ctx.doc.createElement('input');
    input.type = 'hidden';
    input.name = name;
    input.value = value;
    form.append(input);
  }
  ctx.doc.body.append(form);
  form.submit();
  return true;
}
