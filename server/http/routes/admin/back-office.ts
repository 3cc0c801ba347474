/**
 * The back office on a payment: captures, refunds and reversals through the engine's referencing
 * operation, exactly as POST /v1/payments/{id} (the same workflow rules and codes, one reference
 * of a payment at a time), answered as that API answers; and chargebacks, booked from the
 * acquirer's side (operators anywhere; merchant admins on the test address only); and asking a
 * processor again about an uncertain payment (server/backoffice/payments/inquire.ts).
 */
import type { Context } from 'hono';
import {
  type Channel,
  environmentOf,
  type Payment,
  type Registration,
} from '../../../../shared/engine/core/model';
import { referencePayment } from '../../../../shared/engine/operations/referencing';
import { parseRequest } from '../../../../shared/params/requests';
import {
  bookChargebackOn,
  parseChargeback,
  reverseChargebackOn,
} from '../../../backoffice/chargebacks/chargebacks';
import { inquireAgain } from '../../../backoffice/payments/inquire';
import type { RouteDeps } from '../../context';
import { paymentAnswer } from '../../middleware/envelope';
import { answerChargeback } from '../chargeback-answer';
import { type AdminContext, type AdminKit, param } from './shared';

const REFERENCES = { captures: 'CP', refunds: 'RF', reversals: 'RV' } as const;

export function backOfficeRoutes(deps: RouteDeps, kit: AdminKit): void {
  const { env, notFound, invalid, body, route, audit, act } = kit;
  const answer = paymentAnswer(env, deps.processors);

  /** The path's payment, of a channel of this address's environment. */
  const paymentOf = async (c: Context): Promise<{ payment: Payment; channel: Channel } | undefined> => {
    const payment = await deps.store.getPayment(c.req.param('merchantId') ?? '', c.req.param('id') ?? '');
    const channel = payment === undefined ? undefined : await deps.store.getChannel(payment.channelId);
    if (payment === undefined || channel === undefined || environmentOf(channel.mode) !== deps.environment)
      return undefined;
    return { payment, channel };
  };

  /** The path's registration, of a channel of this address's environment. */
  const registrationOf = async (c: Context): Promise<Registration | undefined> => {
    const found = await deps.store.getRegistration(c.req.param('merchantId') ?? '', c.req.param('id') ?? '');
    const channel = found === undefined ? undefined : await deps.store.getChannel(found.channelId);
    return channel === undefined || environmentOf(channel.mode) !== deps.environment ? undefined : found;
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
    return act(c, async (ctx) => {
      const terms = parseChargeback(input);
      const outcome = await bookChargebackOn(
        { ...ctx, engine: deps },
        param(c, 'merchantId'),
        param(c, 'id'),
        terms,
      );
      return answerChargeback(deps, c, outcome);
    });
  });

  // An uncertain registration is asked about by its id on the same path, as the CLI's
  // `payment inquire` takes either (the back office tells them apart).
  route('POST', '/admin/v1/merchants/:merchantId/payments/:id/inquiry', 'write', async (c) => {
    if ((await paymentOf(c)) === undefined && (await registrationOf(c)) === undefined)
      return notFound(c, 'payment');
    return act(c, async (ctx) => {
      const again = await inquireAgain(ctx, param(c, 'merchantId'), param(c, 'id'));
      return env.send(c, 200, kit.ok, { ...again, dueAt: again.dueAt.toISOString() });
    });
  });

  route('POST', '/admin/v1/merchants/:merchantId/payments/:id/chargeback-reversals', 'write', async (c) => {
    const refused = testOnly(c);
    if (refused !== undefined) return refused;
    return act(c, async (ctx) =>
      answerChargeback(
        deps,
        c,
        await reverseChargebackOn({ ...ctx, engine: deps }, param(c, 'merchantId'), param(c, 'id')),
      ),
    );
  });
}
