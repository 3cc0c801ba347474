/**
 * What a webhook tells the merchant (spec, Events): `{type, action, payload}`, the payload the
 * API's own answer of the thing that changed (decisions: the payloads equal the API's answer),
 * built by shared/engine/answers/notifications.ts.
 */
import * as z from 'zod';
import { result } from './envelope';
import { paymentAnswer } from './payment';
import { registrationAnswer } from './registration';
import { answerTree, named, optionalText } from './registry';
import { scheduleAnswer } from './schedule';

/** PAYMENT: the payment's answer and what the shopper was shown (presentationAmount, presentationCurrency). */
export const paymentPayload = paymentAnswer.extend({
  presentationAmount: optionalText(),
  presentationCurrency: optionalText(),
});

/** RISK: the payment's answer with `risk` holding the score, the outcome and the rule that fired. */
export const riskPayload = paymentAnswer.extend({ risk: z.record(z.string(), answerTree) });

/** REGISTRATION: the registration's answer, its creation's result and ndc. */
export const registrationPayload = registrationAnswer.extend({ result, ndc: optionalText() });

/** SCHEDULE: the schedule's answer with its creation's result. */
export const schedulePayload = scheduleAnswer.extend({ result });

const action = z.enum(['CREATED', 'UPDATED', 'DELETED']);

export const notification = named(
  'Notification',
  z.discriminatedUnion('type', [
    z.object({ type: z.literal('PAYMENT'), action: action.optional(), payload: paymentPayload }),
    z.object({ type: z.literal('RISK'), action: action.optional(), payload: riskPayload }),
    z.object({ type: z.literal('REGISTRATION'), action: action.optional(), payload: registrationPayload }),
    z.object({ type: z.literal('SCHEDULE'), action: action.optional(), payload: schedulePayload }),
  ]),
);

export type PaymentPayload = z.infer<typeof paymentPayload>;
export type RiskPayload = z.infer<typeof riskPayload>;
export type RegistrationPayload = z.infer<typeof registrationPayload>;
export type SchedulePayload = z.infer<typeof schedulePayload>;
export type NotificationMessage = z.infer<typeof notification>;
