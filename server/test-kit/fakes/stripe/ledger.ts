/**
 * The fake's state and what Stripe does with it: PaymentIntents confirmed with a card (charged,
 * held for a manual capture, declined, or waiting for 3-D Secure), their captures, cancellations
 * and refunds, customers, SetupIntents and stored payment methods, and the search by metadata.
 * Every answer is an object of objects.ts or an error of errors.ts; every change an event.
 */
import { createHash, randomBytes } from 'node:crypto';
import { brandOf, testCard } from './cards';
import { type FakeAnswer, invalidParam, missingParam, noSuch, stripeError, unexpectedState } from './errors';
import { type FormObject, field, mapField } from './form';
import {
  type ChargeState,
  type CustomerState,
  chargeObject,
  customerObject,
  type IntentState,
  intentObject,
  type Json,
  listObject,
  type PaymentMethodState,
  paymentMethodObject,
  type RefundState,
  refundObject,
  type SetupIntentState,
  searchResultObject,
  setupIntentObject,
} from './objects';
import { isDelayed, isRedirectType, redirectIntentError, redirectMethodFrom } from './redirects';

const ok = (body: Json): FakeAnswer => ({ status: 200, body });
const newId = (prefix: string) => `${prefix}_${randomBytes(12).toString('base64url').replace(/[-_]/g, 'x')}`;
const nowSeconds = () => Math.floor(Date.now() / 1000);

/** The non-negative integer amount of a form field, or undefined when it is none. */
function amountOf(value: string | undefined): number | undefined {
  return value !== undefined && /^[0-9]{1,12}$/.test(value) ? Number(value) : undefined;
}

export class StripeLedger {
  readonly intents = new Map<string, IntentState>();
  readonly setups = new Map<string, SetupIntentState>();
  readonly methods = new Map<string, PaymentMethodState>();
  readonly customers = new Map<string, CustomerState>();
  readonly refunds: RefundState[] = [];
  /** Charges that took money (authorised or captured): what a test counts. */
  readonly charges: ChargeState[] = [];

  constructor(
    /** Where the fake's 3-D Secure pages are (the fake's own address). */
    private readonly pagesBase: () => string,
    /** An event to send to the webhook endpoint. */
    private readonly emit: (type: string, object: Json) => void,
  ) {}

  // ---- payment methods and customers -----------------------------------------------------------

  private methodFrom(form: FormObject, customer: string | null): PaymentMethodState | FakeAnswer {
    const existing = field(form, 'payment_method');
    if (existing !== undefined) {
      const pm = this.methods.get(existing);
      if (pm === undefined) return noSuch('PaymentMethod', existing, 'payment_method');
      if (pm.customer !== null && pm.customer !== customer)
        return stripeError(400, {
          type: 'invalid_request_error',
          param: 'customer',
          message: `The provided PaymentMethod belongs to customer ${pm.customer}; pass that customer.`,
        });
      return pm;
    }
    if (field(form, 'payment_method_data', 'type') !== 'card')
      return missingParam('payment_method_data[type]');
    const number = (field(form, 'payment_method_data', 'card', 'number') ?? '').replace(/\s/g, '');
    const expMonth = amountOf(field(form, 'payment_method_data', 'card', 'exp_month'));
    const expYear = amountOf(field(form, 'payment_method_data', 'card', 'exp_year'));
    if (!/^[0-9]{12,19}$/.test(number))
      return stripeError(402, {
        type: 'card_error',
        code: 'incorrect_number',
        param: 'payment_method_data[card][number]',
        message: 'Your card number is incorrect.',
      });
    if (expMonth === undefined || expMonth < 1 || expMonth > 12)
      return invalidParam('payment_method_data[card][exp_month]', "Your card's expiration month is invalid.");
    if (expYear === undefined)
      return invalidParam('payment_method_data[card][exp_year]', "Your card's expiration year is invalid.");
    const pm: PaymentMethodState = {
      id: newId('pm'),
      created: nowSeconds(),
      card: {
        brand: brandOf(number),
        last4: number.slice(-4),
        expMonth,
        expYear,
        fingerprint: createHash('sha256').update(number).digest('base64url').slice(0, 16),
        behaviour: testCard(number),
      },
      customer: null,
      setUp: false,
    };
    this.methods.set(pm.id, pm);
    return pm;
  }

  createCustomer(form: FormObject): FakeAnswer {
    const customer: CustomerState = {
      id: newId('cus'),
      created: nowSeconds(),
      email: field(form, 'email') ?? null,
      name: field(form, 'name') ?? null,
      metadata: mapField(form, 'metadata'),
    };
    this.customers.set(customer.id, customer);
    return ok(customerObject(customer));
  }

  retrieveMethod(id: string): FakeAnswer {
    const pm = this.methods.get(id);
    return pm === undefined ? noSuch('PaymentMethod', id) : ok(paymentMethodObject(pm));
  }

  private customerOf(form: FormObject): string | null | FakeAnswer {
    const customer = field(form, 'customer');
    if (customer === undefined) return null;
    return this.customers.has(customer) ? customer : noSuch('customer', customer, 'customer');
  }

  // ---- PaymentIntents ------------------------------------------------------------------------

  createIntent(form: FormObject): FakeAnswer {
    const amount = amountOf(field(form, 'amount'));
    if (field(form, 'amount') === undefined) return missingParam('amount');
    if (amount === undefined || amount < 1)
      return invalidParam('amount', 'This value must be greater than or equal to 1.');
    const currency = field(form, 'currency');
    if (currency === undefined) return missingParam('currency');
    if (!/^[a-z]{3}$/.test(currency))
      return stripeError(400, {
        type: 'invalid_request_error',
        param: 'currency',
        message: `Invalid currency: ${currency}.`,
      });
    const customer = this.customerOf(form);
    if (customer !== null && typeof customer === 'object') return customer;
    const offSession = field(form, 'off_session') === 'true';
    const confirm = field(form, 'confirm') === 'true';
    const returnUrl = field(form, 'return_url') ?? null;
    if (offSession && !confirm)
      return stripeError(400, {
        type: 'invalid_request_error',
        param: 'off_session',
        message: 'off_session can only be used when confirm=true.',
      });
    const pm = this.intentMethodFrom(form, customer);
    if ('status' in pm && 'body' in pm) return pm;
    const sfu = field(form, 'setup_future_usage');
    const types = form.allowed_payment_method_types ?? form.payment_method_types;
    const intent: IntentState = {
      id: newId('pi'),
      created: nowSeconds(),
      amount,
      currency,
      captureMethod: field(form, 'capture_method') === 'manual' ? 'manual' : 'automatic',
      metadata: mapField(form, 'metadata'),
      customer,
      setupFutureUsage: sfu === 'off_session' || sfu === 'on_session' ? sfu : null,
      offSession,
      returnUrl,
      paymentMethodTypes: Array.isArray(types) ? types.filter((t) => typeof t === 'string') : ['card'],
      requestThreeDSecure:
        field(form, 'payment_method_options', 'card', 'request_three_d_secure') === 'any'
          ? 'any'
          : 'automatic',
      status: confirm ? 'processing' : 'requires_confirmation',
      paymentMethod: pm,
      latestCharge: null,
      amountCapturable: 0,
      amountReceived: 0,
      nextAction: null,
      lastPaymentError: null,
      canceledAt: null,
      cancellationReason: null,
    };
    this.intents.set(intent.id, intent);
    if (!confirm) return ok(intentObject(intent));
    return this.confirm(intent, pm);
  }

  /** A PaymentIntent's payment method: a bank redirect's (redirects.ts), else the card's. */
  private intentMethodFrom(form: FormObject, customer: string | null): PaymentMethodState | FakeAnswer {
    const type = field(form, 'payment_method_data', 'type');
    if (!isRedirectType(type)) return this.methodFrom(form, customer);
    const refused = redirectIntentError(form, type);
    if (refused !== undefined) return refused;
    const redirect = redirectMethodFrom(form, type);
    if ('status' in redirect && 'body' in redirect) return redirect;
    const pm: PaymentMethodState = {
      id: newId('pm'),
      created: nowSeconds(),
      redirect,
      customer: null,
      setUp: false,
    };
    this.methods.set(pm.id, pm);
    return pm;
  }

  private confirm(intent: IntentState, pm: PaymentMethodState): FakeAnswer {
    // a bank redirect: always the provider's page first, the shopper authorizes there
    if (pm.redirect !== undefined && intent.returnUrl !== null) {
      intent.status = 'requires_action';
      intent.nextAction = {
        type: 'redirect_to_url',
        redirect_to_url: { url: `${this.pagesBase()}/authorize/${intent.id}`, return_url: intent.returnUrl },
      };
      this.emit('payment_intent.requires_action', intentObject(intent));
      return ok(intentObject(intent));
    }
    const tds = pm.card?.behaviour.threeDSecure;
    const asked = intent.requestThreeDSecure === 'any' && !intent.offSession;
    if (asked && tds === 'frictionless')
      return this.charge(intent, pm, { flow: 'frictionless', result: 'authenticated' });
    const needsAuthentication =
      tds === 'challenge' ||
      (tds === 'required' && !(intent.offSession && pm.setUp)) ||
      (asked && tds === undefined);
    if (!needsAuthentication) return this.charge(intent, pm);
    if (intent.offSession) {
      // Off-session, nobody can authenticate: Stripe declines with authentication_required.
      const error = {
        type: 'card_error' as const,
        code: 'authentication_required',
        declineCode: 'authentication_required',
        message: 'Your card was declined. This transaction requires authentication.',
      };
      intent.status = 'requires_payment_method';
      intent.lastPaymentError = { ...error, decline_code: error.declineCode };
      this.emit('payment_intent.payment_failed', intentObject(intent));
      return stripeError(402, { ...error, paymentIntent: intentObject(intent) });
    }
    intent.status = 'requires_action';
    intent.nextAction =
      intent.returnUrl === null
        ? { type: 'use_stripe_sdk', use_stripe_sdk: { type: 'three_d_secure_redirect', stripe_js: '' } }
        : {
            type: 'redirect_to_url',
            redirect_to_url: {
              url: `${this.pagesBase()}/authenticate/${intent.id}`,
              return_url: intent.returnUrl,
            },
          };
    this.emit('payment_intent.requires_action', intentObject(intent));
    return ok(intentObject(intent));
  }

  /** The issuer's answer to an intent's card: a charge, succeeded or failed. */
  private charge(
    intent: IntentState,
    pm: PaymentMethodState,
    threeDSecure?: ChargeState['threeDSecure'],
  ): FakeAnswer {
    const decline = pm.card?.behaviour.decline;
    const charge: ChargeState = {
      // Stripe's charges of non-card methods are `py_`
      id: newId(pm.card === undefined ? 'py' : 'ch'),
      created: nowSeconds(),
      amount: intent.amount,
      currency: intent.currency,
      paymentIntent: intent.id,
      paymentMethod: pm,
      customer: intent.customer,
      metadata: intent.metadata,
      status: decline === undefined ? 'succeeded' : 'failed',
      ...(decline === undefined ? {} : { failure: decline }),
      ...(threeDSecure === undefined ? {} : { threeDSecure }),
      captured: false,
      amountCaptured: 0,
      amountRefunded: 0,
    };
    intent.latestCharge = charge;
    intent.nextAction = null;
    if (decline !== undefined) {
      intent.status = 'requires_payment_method';
      const error = { type: 'card_error' as const, ...decline, charge: charge.id };
      intent.lastPaymentError = {
        type: error.type,
        code: error.code,
        message: error.message,
        charge: charge.id,
        ...(decline.declineCode === undefined ? {} : { decline_code: decline.declineCode }),
        payment_method: paymentMethodObject(pm),
      };
      this.emit('payment_intent.payment_failed', intentObject(intent));
      return stripeError(402, {
        ...error,
        paymentIntent: intentObject(intent),
        paymentMethod: paymentMethodObject(pm),
      });
    }
    this.charges.push(charge);
    if (intent.setupFutureUsage !== null && intent.customer !== null) {
      pm.customer = intent.customer;
      pm.setUp = true;
    }
    if (intent.captureMethod === 'manual') {
      intent.status = 'requires_capture';
      intent.amountCapturable = intent.amount;
      this.emit('payment_intent.amount_capturable_updated', intentObject(intent));
    } else {
      charge.captured = true;
      charge.amountCaptured = intent.amount;
      intent.status = 'succeeded';
      intent.amountReceived = intent.amount;
      this.emit('payment_intent.succeeded', intentObject(intent));
    }
    return ok(this.expandedIntent(intent));
  }

  /** A PaymentIntent with its latest charge expanded (what the connector asks with expand[]). */
  expandedIntent(intent: IntentState, expand: readonly string[] = ['latest_charge']): Json {
    const charge = intent.latestCharge;
    return intentObject(intent, {
      ...(expand.includes('latest_charge') && charge !== null
        ? { latestCharge: chargeObject(charge, this.refundsOf(charge)) }
        : {}),
      ...(expand.includes('payment_method') && intent.paymentMethod !== null
        ? { paymentMethod: paymentMethodObject(intent.paymentMethod) }
        : {}),
    });
  }

  private refundsOf(charge: ChargeState): RefundState[] {
    return this.refunds.filter((r) => r.charge === charge);
  }

  retrieveIntent(id: string, expand: readonly string[]): FakeAnswer {
    const intent = this.intents.get(id);
    return intent === undefined ? noSuch('payment_intent', id) : ok(this.expandedIntent(intent, expand));
  }

  capture(id: string, form: FormObject): FakeAnswer {
    const intent = this.intents.get(id);
    if (intent === undefined) return noSuch('payment_intent', id);
    if (intent.status !== 'requires_capture') return unexpectedState(id, intent.status, 'captured');
    const sent = field(form, 'amount_to_capture');
    const amount = sent === undefined ? intent.amountCapturable : amountOf(sent);
    if (amount === undefined || amount < 1) return invalidParam('amount_to_capture', 'Invalid integer.');
    if (amount > intent.amountCapturable)
      return stripeError(400, {
        type: 'invalid_request_error',
        code: 'amount_too_large',
        param: 'amount_to_capture',
        message: 'The amount to capture must be less than or equal to the amount capturable.',
      });
    const charge = intent.latestCharge as ChargeState;
    charge.captured = true;
    charge.amountCaptured = amount;
    intent.amountReceived = amount;
    intent.amountCapturable = 0;
    intent.status = 'succeeded';
    this.emit('charge.captured', chargeObject(charge, this.refundsOf(charge)));
    this.emit('payment_intent.succeeded', intentObject(intent));
    return ok(this.expandedIntent(intent));
  }

  cancel(id: string, form: FormObject): FakeAnswer {
    const intent = this.intents.get(id);
    if (intent === undefined) return noSuch('payment_intent', id);
    if (intent.status === 'succeeded' || intent.status === 'canceled')
      return unexpectedState(id, intent.status, 'canceled');
    intent.status = 'canceled';
    intent.amountCapturable = 0;
    intent.nextAction = null;
    intent.canceledAt = nowSeconds();
    intent.cancellationReason = field(form, 'cancellation_reason') ?? 'requested_by_customer';
    this.emit('payment_intent.canceled', intentObject(intent));
    return ok(this.expandedIntent(intent));
  }

  /** `metadata['key']:'value'` and `status:'value'` clauses joined by AND (Stripe's search query language, the part used). */
  search(query: string): FakeAnswer {
    const clauses = query.split(/\s+AND\s+/);
    const tests: ((intent: IntentState) => boolean)[] = [];
    for (const clause of clauses) {
      const meta = /^metadata\['([^']+)'\]:'([^']*)'$/.exec(clause.trim());
      const status = /^status:'([^']*)'$/.exec(clause.trim());
      if (meta !== null) tests.push((i) => i.metadata[meta[1] as string] === meta[2]);
      else if (status !== null) tests.push((i) => i.status === status[1]);
      else
        return stripeError(400, {
          type: 'invalid_request_error',
          param: 'query',
          message: `Invalid search query: ${clause}`,
        });
    }
    const found = [...this.intents.values()].filter((i) => tests.every((t) => t(i))).reverse();
    return ok(
      searchResultObject(
        found.map((i) => this.expandedIntent(i)),
        '/v1/payment_intents/search',
      ),
    );
  }

  /** GET /v1/customers/search: `metadata['key']:'value'` clauses joined by AND (the part used). */
  searchCustomers(query: string): FakeAnswer {
    const tests: ((customer: CustomerState) => boolean)[] = [];
    for (const clause of query.split(/\s+AND\s+/)) {
      const meta = /^metadata\['([^']+)'\]:'([^']*)'$/.exec(clause.trim());
      if (meta === null)
        return stripeError(400, {
          type: 'invalid_request_error',
          param: 'query',
          message: `Invalid search query: ${clause}`,
        });
      tests.push((c) => c.metadata[meta[1] as string] === meta[2]);
    }
    const found = [...this.customers.values()].filter((c) => tests.every((t) => t(c))).reverse();
    return ok(searchResultObject(found.map(customerObject), '/v1/customers/search'));
  }

  // ---- refunds -------------------------------------------------------------------------------

  createRefund(form: FormObject): FakeAnswer {
    const id = field(form, 'payment_intent');
    if (id === undefined) return missingParam('payment_intent');
    const intent = this.intents.get(id);
    if (intent === undefined) return noSuch('payment_intent', id, 'payment_intent');
    const charge = intent.latestCharge;
    if (charge === null || !charge.captured)
      return stripeError(400, {
        type: 'invalid_request_error',
        code: 'charge_not_refundable',
        message: `This PaymentIntent (${id}) does not have a successful charge to refund.`,
      });
    const remaining = charge.amountCaptured - charge.amountRefunded;
    if (remaining === 0)
      return stripeError(400, {
        type: 'invalid_request_error',
        code: 'charge_already_refunded',
        message: `Charge ${charge.id} has already been refunded.`,
      });
    const sent = field(form, 'amount');
    const amount = sent === undefined ? remaining : amountOf(sent);
    if (amount === undefined || amount < 1) return invalidParam('amount', 'Invalid integer.');
    if (amount > remaining)
      return stripeError(400, {
        type: 'invalid_request_error',
        code: 'amount_too_large',
        param: 'amount',
        message: `Refund amount (${amount}) is greater than unrefunded amount on charge (${remaining})`,
      });
    const refund: RefundState = {
      id: newId('re'),
      created: nowSeconds(),
      amount,
      currency: charge.currency,
      charge,
      metadata: mapField(form, 'metadata'),
      reason: field(form, 'reason') ?? null,
    };
    this.refunds.push(refund);
    charge.amountRefunded += amount;
    this.emit('charge.refunded', chargeObject(charge, this.refundsOf(charge)));
    return ok(refundObject(refund));
  }

  /**
   * A refund that succeeded, failed after all (the card closed, the bank returned it): its status
   * failed with Stripe's `failure_reason`, the charge's refunded amount given back, and the
   * events Stripe sends for it (`charge.refund.updated`, `refund.failed`).
   */
  failRefund(id: string, reason = 'expired_or_canceled_card'): boolean {
    const refund = this.refunds.find((r) => r.id === id);
    if (refund === undefined || refund.status === 'failed') return false;
    refund.status = 'failed';
    refund.failureReason = reason;
    refund.charge.amountRefunded -= refund.amount;
    this.emit('charge.refund.updated', refundObject(refund));
    this.emit('refund.failed', refundObject(refund));
    return true;
  }

  // ---- SetupIntents --------------------------------------------------------------------------

  /** GET /v1/setup_intents (`customer` given): the customer's SetupIntents, newest first. */
  listSetupIntents(form: FormObject): FakeAnswer {
    const customer = field(form, 'customer');
    const found = [...this.setups.values()]
      .filter((s) => customer === undefined || s.customer === customer)
      .reverse();
    return ok(listObject(found.map(setupIntentObject), '/v1/setup_intents'));
  }

  createSetupIntent(form: FormObject): FakeAnswer {
    const customer = this.customerOf(form);
    if (customer !== null && typeof customer === 'object') return customer;
    const pm = this.methodFrom(form, customer);
    if ('status' in pm && 'body' in pm) return pm;
    const setup: SetupIntentState = {
      id: newId('seti'),
      created: nowSeconds(),
      customer,
      metadata: mapField(form, 'metadata'),
      status: 'requires_payment_method',
      paymentMethod: pm,
      lastSetupError: null,
    };
    this.setups.set(setup.id, setup);
    const decline = pm.card?.behaviour.decline;
    if (decline !== undefined) {
      setup.lastSetupError = {
        type: 'card_error',
        code: decline.code,
        decline_code: decline.declineCode,
        message: decline.message,
      };
      return stripeError(402, { type: 'card_error', ...decline, setupIntent: setupIntentObject(setup) });
    }
    setup.status = 'succeeded';
    pm.customer = customer;
    pm.setUp = true;
    this.emit('setup_intent.succeeded', setupIntentObject(setup));
    return ok(setupIntentObject(setup));
  }

  // ---- the pages: a bank redirect's, 3-D Secure's ----------------------------------------------

  /** The type of the bank redirect waiting on the shopper for PaymentIntent `id`, if one is. */
  waitingRedirect(id: string): string | undefined {
    const intent = this.intents.get(id);
    return intent?.status === 'requires_action' ? intent.paymentMethod?.redirect?.type : undefined;
  }

  /**
   * Stripe's later word on a delayed-notification method (Sofort): the payment `processing` since
   * the bank's page is charged and succeeds (its payment_intent.succeeded told). False when none is.
   */
  succeedProcessing(id: string): boolean {
    const intent = this.intents.get(id);
    const pm = intent?.paymentMethod;
    if (intent?.status !== 'processing' || !pm) return false;
    this.charge(intent, pm);
    return true;
  }

  /**
   * The shopper's verdict on a bank redirect's page; the address to send them back to. Authorized:
   * charged and succeeded (Sofort: processing, its money days later); failed: the payment method
   * detached, requires_payment_method with Stripe's payment_intent_payment_attempt_failed.
   */
  authorizeRedirect(id: string, passed: boolean): string | undefined {
    const intent = this.intents.get(id);
    const pm = intent?.paymentMethod;
    if (intent === undefined || this.waitingRedirect(id) === undefined || intent.returnUrl === null || !pm)
      return undefined;
    const delayed = isDelayed(pm.redirect?.type ?? '');
    intent.nextAction = null;
    if (passed && delayed) {
      intent.status = 'processing';
      this.emit('payment_intent.processing', intentObject(intent));
    } else if (passed) this.charge(intent, pm);
    else {
      intent.status = 'requires_payment_method';
      intent.paymentMethod = null;
      intent.lastPaymentError = {
        type: 'invalid_request_error',
        code: 'payment_intent_payment_attempt_failed',
        message:
          'The latest payment attempt of this PaymentIntent has failed or been canceled, and the attached payment method has been removed. You can try confirming again with a new payment method.',
        payment_method: paymentMethodObject(pm),
      };
      this.emit('payment_intent.payment_failed', intentObject(intent));
    }
    const back = new URL(intent.returnUrl);
    back.searchParams.set('payment_intent', intent.id);
    back.searchParams.set('payment_intent_client_secret', String(intentObject(intent).client_secret));
    back.searchParams.set('redirect_status', passed ? (delayed ? 'pending' : 'succeeded') : 'failed');
    return back.toString();
  }

  /** The shopper's verdict on the authentication page; the address to send them back to. */
  authenticate(id: string, passed: boolean): string | undefined {
    const intent = this.intents.get(id);
    if (intent === undefined || intent.status !== 'requires_action' || intent.returnUrl === null)
      return undefined;
    const pm = intent.paymentMethod as PaymentMethodState;
    if (passed) this.charge(intent, pm, { flow: 'challenge', result: 'authenticated' });
    else {
      intent.status = 'requires_payment_method';
      intent.nextAction = null;
      intent.lastPaymentError = {
        type: 'invalid_request_error',
        code: 'payment_intent_authentication_failure',
        message: 'The provided PaymentMethod has failed authentication.',
        payment_method: paymentMethodObject(pm),
      };
      this.emit('payment_intent.payment_failed', intentObject(intent));
    }
    const back = new URL(intent.returnUrl);
    back.searchParams.set('payment_intent', intent.id);
    back.searchParams.set('payment_intent_client_secret', String(intentObject(intent).client_secret));
    back.searchParams.set('redirect_status', passed ? 'succeeded' : 'failed');
    return back.toString();
  }
}
