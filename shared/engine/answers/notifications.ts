/**
 * What a change tells the merchant (spec, Events): a webhook notification `{type, action,
 * payload}`, and, for a payment that carried the deprecated `notificationUrl`, a GET to it with
 * `id` and `resourcePath` (compat: "notificationUrl callbacks are GETs with id and resourcePath").
 *
 * Pure: the engine builds them where it records a change and hands them to the store with it
 * (core/notification.ts), which writes both in one transaction (the outbox), so a change is never
 * committed without its notifications, nor a notification without its change.
 */
import type { PaymentPayload, RegistrationPayload, RiskPayload, SchedulePayload } from '../../contract';
import { fromMinor } from '../../money';
import { describe } from '../../result-codes';
import type { Payment, Registration } from '../core/model';
import type { Change, NotificationAction } from '../core/notification';
import { registrationAnswerOf } from '../core/processor';
import type { ScheduleView } from '../core/schedule';
import { registrationResponse } from './registration';
import { type IssuerLookup, paymentResponse } from './response';
import { resultUrl } from './result-url';
import { scheduleResponse } from './schedule';

export {
  type Change,
  DEFAULT_NOTIFICATION_TYPES,
  NOTIFICATION_TYPES,
  type Notification,
  type NotificationAction,
  type NotificationType,
} from '../core/notification';

/**
 * A payment created or changed (a pending payment's end). The payload is the payment response,
 * with presentationAmount and presentationCurrency (what the shopper was shown) where it has an
 * amount, and referencedId where it references another payment (paymentResponse has it).
 */
export function paymentChange(
  payment: Payment,
  at: Date,
  issuers?: IssuerLookup,
  action: 'CREATED' | 'UPDATED' = 'CREATED',
): Change {
  const callback = payment.details.notificationUrl;
  return {
    merchantId: payment.merchantId,
    type: 'PAYMENT',
    notification: () => {
      const presentation: Pick<PaymentPayload, 'presentationAmount' | 'presentationCurrency'> =
        payment.amount === null || payment.currency === undefined
          ? {}
          : {
              presentationAmount: fromMinor(payment.amount, payment.currency),
              presentationCurrency: payment.currency,
            };
      // action: the family's receivers tell a new payment from a changed one by it (decisions)
      const payload: PaymentPayload = { ...paymentResponse(payment, issuers), ...presentation };
      return { type: 'PAYMENT', action, payload };
    },
    orderKey: payment.referencedId ?? payment.id,
    paymentType: payment.paymentType,
    ...(typeof callback === 'string' ? { callbackUrl: callbackUrlOf(payment, callback) } : {}),
    at,
  };
}

/**
 * What a payment's insert notifies: the payment, and, when its risk check tells the merchant
 * (`details.riskCheck`: a rejection or a stand-alone risk check, engine/steps/risk-check.ts), RISK.
 */
export function paymentChanges(payment: Payment, at: Date, issuers?: IssuerLookup): Change[] {
  const risk = riskChange(payment, at, issuers);
  const change = paymentChange(payment, at, issuers);
  return risk === undefined ? [change] : [change, risk];
}

/**
 * A risk check's answer (spec, Events: RISK): the payment's response with `risk` holding the score,
 * the outcome, the rule that fired and the named rule set that screened. Ordered with the payment's
 * own notifications; for every webhook that takes RISK, whatever its payment types (those filter
 * PAYMENT notifications).
 */
export function riskChange(payment: Payment, at: Date, issuers?: IssuerLookup): Change | undefined {
  const check = payment.details.riskCheck;
  if (check === null || typeof check !== 'object') return undefined;
  return {
    merchantId: payment.merchantId,
    type: 'RISK',
    notification: () => {
      const response = paymentResponse(payment, issuers);
      const risk = response.risk !== null && typeof response.risk === 'object' ? response.risk : {};
      // riskCheck: what risk-check.ts kept of the screen (score, outcome, rule, rule set), as text
      const payload: RiskPayload = { ...response, risk: { ...risk, ...(check as RiskPayload['risk']) } };
      return { type: 'RISK', payload };
    },
    orderKey: payment.referencedId ?? payment.id,
    at,
  };
}

/**
 * The notificationUrl GET: like the shopper's return, `id` and the `resourcePath` to read the
 * status from — the checkout's for a checkout's payment (clients check that path's form).
 */
function callbackUrlOf(payment: Payment, notificationUrl: string): string {
  return payment.checkoutId === undefined
    ? resultUrl(notificationUrl, payment.id, `/v1/payments/${payment.id}`)
    : resultUrl(notificationUrl, payment.checkoutId, `/v1/checkouts/${payment.checkoutId}/payment`);
}

/** A registration stored (CREATED) or deregistered (DELETED). */
export function registrationChange(registration: Registration, action: NotificationAction, at: Date): Change {
  return {
    merchantId: registration.merchantId,
    type: 'REGISTRATION',
    notification: () => {
      // the API's answer for it (decisions): its creation's success code and ndc
      const { code, ndc } = registrationAnswerOf(registration);
      const payload: RegistrationPayload = {
        ...registrationResponse(registration),
        result: { code, description: describe(code) ?? '' },
        ...(ndc === undefined ? {} : { ndc }),
      };
      return { type: 'REGISTRATION', action, payload };
    },
    orderKey: registration.id,
    at,
  };
}

/**
 * A schedule created (CREATED), run, skipped or ended (UPDATED), or descheduled (DELETED). The
 * payload is the schedule as GET /scheduling/v1/schedules/{id} answers it, with the creation's
 * result; the payments of its runs are notified as PAYMENTs of their own.
 */
export function scheduleChange(view: ScheduleView, action: NotificationAction, at: Date): Change {
  const { schedule } = view;
  return {
    merchantId: schedule.merchantId,
    type: 'SCHEDULE',
    notification: () => {
      const payload: SchedulePayload = {
        ...scheduleResponse(view),
        result: { code: schedule.resultCode, description: describe(schedule.resultCode) ?? '' },
      };
      return { type: 'SCHEDULE', action, payload };
    },
    orderKey: schedule.id,
    at,
  };
}
