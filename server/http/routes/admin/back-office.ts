/**
 * The back office on a payment: captures, refunds and reversals through the engine's referencing
 * operation, exactly as POST /v1/payments/{id} (the same workflow rules and codes, one reference
 * of a payment at a time), answered as that API answers; and chargebacks, booked from the
 * acquirer's side (operators anywhere; merchant admins on the test address only).
 */
import type { Context } from 'hono';
import { type Channel, environmentOf, type Payment } from '../../../../shared/engine/core/model';
import {
  bookChargeback,
  type ChargebackOutcome,
  reverseChargeback,
} from '../../../../shared/engine/operations/chargebacks';
import { referencePayment } from '../../../../shared/engine/operations/referencing';
import { parseRequest } from '../../../../shared/params/requests';
import type { RouteDeps } from '../../context';
import { paymentAnswer } from '../../middleware/envelope';
import { answerChargeback } from '../chargeback-answer';
import { type AdminContext, type AdminKit, param } from './shared';

const REFERENCES = { captures: 'CP', refunds: 'RF', reversals: 'RV' } as const;

export function backOfficeRoutes(deps: RouteDeps, kit: AdminKit): void {
  const { env, notFound, invalid, body, route, audit } = kit;
  const answer = paymentAnswer(env, deps.processors);

  /** The path's payment, of a channel of this address's environment. */
  const paymentOf = async (c: Context): Promise<{ payment: Payment; channel: Channel } | undefined> => {
    const payment = await deps.store.getPayment(c.req.param('merchantId') ?? '', c.req.param('id') ?? '');
    const channel = payment === undefined ? undefined : await deps.store.getChannel(payment.channelId);
    if (payment === undefined || channel === undefined || environmentOf(channel.mode) !== deps.environment)
      return undefined;
    return { payment, channel };
  };

  for (const [path, paymentType] of Object.entries(REFERENCES)) {
    route('POST', `/admin/v1/merchants/:merchantId/payments/:id/${path}`, 'write', async (c) => {
      const found = await paymentOf(c);
      if (found === undefined) return notFound(c, 'payment');
      const input = await body(c);
      if (input instanceof Response) return input;
      const params = new URLSearchParams({ entityId: found.channel.id, paymentType });
      for (const name of ['amount', 'currency'] as const)
        if (input[name] !== undefined) params.set(name, String(input[name]));
      const parsed = parseRequest('referencing', params.toString());
      if (!parsed.ok) return invalid(c, parsed.errors);
      const { payment, channel } = found;
      const caller = { merchantId: payment.merchantId, channel };
      const outcome = await deps.store.exclusive(`payment:${payment.id}`, () =>
        referencePayment(deps, caller, payment.id, parsed.value),
      );
      if (outcome.kind === 'unknown') return notFound(c, 'payment');
      if (outcome.kind === 'invalid') return invalid(c, outcome.errors);
      await audit(
        c as AdminContext,
        `payment.${paymentType}`,
        `${payment.id}→${outcome.payment.id}`,
        payment.merchantId,
      );
      return answer(c, outcome.payment);
    });
  }

  /** The chargeback's answer, audited when booked. */
  const answerBooking = async (c: AdminContext, outcome: ChargebackOutcome, action: string) => {
    if (outcome.kind === 'booked') await audit(c, action, outcome.payment.id, outcome.payment.merchantId);
    return answerChargeback(deps, c, outcome);
  };

  /** Chargebacks come from the acquirer: a merchant admin may simulate them on the test address only. */
  const testOnly = (c: AdminContext) =>
    c.var.admin.role !== 'operator' && deps.environment !== 'test'
      ? kit.forbidden(c, 'chargebacks are booked by the acquirer: only on the test address')
      : undefined;

  route('POST', '/admin/v1/merchants/:merchantId/payments/:id/chargebacks', 'write', async (c) => {
    const refused = testOnly(c);
    if (refused !== undefined) return refused;
    const input = await body(c);
    if (input instanceof Response) return input;
    const errors: { name: string; value: string | null; message: string }[] = [];
    const { amount, chargebackResultCode } = input;
    if (amount !== undefined && typeof amount !== 'string')
      errors.push({
        name: 'amount',
        value: String(amount),
        message: 'must be a decimal string such as "10.00"',
      });
    if (chargebackResultCode !== undefined && typeof chargebackResultCode !== 'string')
      errors.push({
        name: 'chargebackResultCode',
        value: String(chargebackResultCode),
        message: 'must be a string',
      });
    if (errors.length > 0) return invalid(c, errors);
    const outcome = await bookChargeback(deps, param(c, 'merchantId'), param(c, 'id'), {
      ...(typeof amount === 'string' ? { amount } : {}),
      ...(typeof chargebackResultCode === 'string' ? { chargebackResultCode } : {}),
    });
    return answerBooking(c, outcome, 'payment.CB');
  });

  route('POST', '/admin/v1/merchants/:merchantId/payments/:id/chargeback-reversals', 'write', async (c) => {
    const refused = testOnly(c);
    if (refused !== undefined) return refused;
    const outcome = await reverseChargeback(deps, param(c, 'merchantId'), param(c, 'id'));
    return answerBooking(c, outcome, 'payment.CR');
  });
}
