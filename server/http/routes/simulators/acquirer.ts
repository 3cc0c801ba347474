/**
 * The simulated acquirer's back office (test mode INTERNAL): what a real acquirer reports in its
 * chargeback files, the simulator lets a test raise on demand. `POST /simulators/acquirer/
 * chargebacks` (form: entityId, id of the payment, optional amount and chargebackResultCode)
 * books a CB exactly as the operator's admin API does (shared/engine/operations/chargebacks.ts), for a
 * payment the simulator itself decided: never a live or EXTERNAL one. On a developer's machine
 * the payment id (128 random bits, known to its merchant) and its channel are enough; in
 * production (NODE_ENV=production) the merchant's credentials are required (401 without, 403 for
 * a token that may not use the entity), since anyone who learnt a payment id could otherwise
 * charge it back. Credentials that are sent are always checked.
 */
import type { Hono } from 'hono';
import { bookChargeback } from '../../../../shared/engine/operations/chargebacks';
import { ResultCodes } from '../../../../shared/result-codes';
import type { GatewayEnv, RouteDeps } from '../../context';
import type { GatewayMiddleware } from '../../middleware';
import { answerChargeback } from '../chargeback-answer';
import { HEX32, NO_SIMULATED_PAYMENT, refusedCaller, simulatedPayment } from './acquirer-caller';
import { acquirerRecordRoutes } from './acquirer-records';

export function acquirerSimulatorRoutes(app: Hono<GatewayEnv>, deps: RouteDeps, mw: GatewayMiddleware): void {
  const { env } = deps;
  acquirerRecordRoutes(app, deps, mw);
  app.post('/simulators/acquirer/chargebacks', async (c) => {
    const form = new URLSearchParams(await c.req.text());
    const refused = await refusedCaller(c, deps, mw, form);
    if (refused !== undefined) return refused;
    const entityId = form.get('entityId') ?? '';
    const channel = HEX32.test(entityId) ? await deps.store.getChannel(entityId) : undefined;
    const payment = await simulatedPayment(deps, channel, form.get('id') ?? '');
    if (channel === undefined || payment === undefined)
      return env.send(c, 404, { code: ResultCodes.ENTITY_NOT_FOUND, description: NO_SIMULATED_PAYMENT });
    const amount = form.get('amount');
    const code = form.get('chargebackResultCode');
    const outcome = await bookChargeback(deps, channel.merchantId, payment.id, {
      ...(amount === null ? {} : { amount }),
      ...(code === null ? {} : { chargebackResultCode: code }),
    });
    return answerChargeback(deps, c, outcome);
  });
}
