/** Stripe's error answers (docs.stripe.com/api/errors): `{ error: { type, code, decline_code, message, param, … } }`. */
import type { Json } from './objects';

export interface FakeAnswer {
  readonly status: number;
  readonly body: Json;
}

export interface StripeErrorFields {
  readonly type: 'card_error' | 'invalid_request_error' | 'idempotency_error' | 'api_error';
  readonly message: string;
  readonly code?: string;
  readonly declineCode?: string;
  readonly param?: string;
  readonly paymentIntent?: Json;
  readonly setupIntent?: Json;
  readonly charge?: string;
  readonly paymentMethod?: Json;
}

/** The error object, as it also appears in a PaymentIntent's `last_payment_error`. */
export function errorObject(fields: StripeErrorFields): Json {
  return {
    type: fields.type,
    message: fields.message,
    ...(fields.code === undefined
      ? {}
      : {
          code: fields.code,
          doc_url: `https://stripe.com/docs/error-codes/${fields.code.replaceAll('_', '-')}`,
        }),
    ...(fields.declineCode === undefined ? {} : { decline_code: fields.declineCode }),
    ...(fields.param === undefined ? {} : { param: fields.param }),
    ...(fields.charge === undefined ? {} : { charge: fields.charge }),
    ...(fields.paymentIntent === undefined ? {} : { payment_intent: fields.paymentIntent }),
    ...(fields.setupIntent === undefined ? {} : { setup_intent: fields.setupIntent }),
    ...(fields.paymentMethod === undefined ? {} : { payment_method: fields.paymentMethod }),
    request_log_url: 'https://dashboard.stripe.com/test/logs',
  };
}

export function stripeError(status: number, fields: StripeErrorFields): FakeAnswer {
  return { status, body: { error: errorObject(fields) } };
}

export const missingParam = (param: string): FakeAnswer =>
  stripeError(400, {
    type: 'invalid_request_error',
    code: 'parameter_missing',
    param,
    message: `Missing required param: ${param}.`,
  });

export const invalidParam = (param: string, message: string): FakeAnswer =>
  stripeError(400, { type: 'invalid_request_error', code: 'parameter_invalid_integer', param, message });

export const noSuch = (what: string, id: string, param = 'id'): FakeAnswer =>
  stripeError(404, {
    type: 'invalid_request_error',
    code: 'resource_missing',
    param,
    message: `No such ${what}: '${id}'`,
  });

export const unexpectedState = (id: string, status: string, action: string): FakeAnswer =>
  stripeError(400, {
    type: 'invalid_request_error',
    code: 'payment_intent_unexpected_state',
    message: `This PaymentIntent (${id}) could not be ${action} because it has a status of ${status}.`,
  });
