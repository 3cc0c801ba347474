/**
 * The day's figures of the dashboard's home page (`GET /admin/v1/figures?day=&merchantId=`,
 * server/backoffice/figures/): a merchant user's own merchant; an operator's every merchant, or
 * the one `merchantId` names. The day (UTC) defaults to the gateway's today, by its clock (the
 * test clock when it runs on one). Only channels of this address's environment count.
 */
import { type Channel, environmentOf } from '../../../../shared/engine/core/model';
import type { FieldError } from '../../../backoffice/errors';
import { dayFigures, readDay } from '../../../backoffice/figures/figures';
import { listMerchants } from '../../../backoffice/merchants/merchants';
import type { RouteDeps } from '../../context';
import type { AdminKit } from './shared';

const ID = /^[0-9a-f]{32}$/;

export function figureRoutes(deps: RouteDeps, kit: AdminKit): void {
  const { env, ok, notFound, invalid, route } = kit;
  const { store } = deps;

  route('GET', '/admin/v1/figures', 'read', async (c) => {
    const own = c.var.admin.merchantId;
    const asked = c.req.query('merchantId');
    const errors: FieldError[] = [];
    const dayStart = readDay(c.req.query('day'), deps.clock.now());
    if (typeof dayStart !== 'number') errors.push(dayStart);
    if (asked !== undefined && !ID.test(asked))
      errors.push({
        name: 'merchantId',
        value: asked,
        message: 'must be a merchant id (32 lowercase hex characters)',
      });
    if (errors.length > 0 || typeof dayStart !== 'number') return invalid(c, errors);
    // a merchant user sees their own merchant only; another merchant's id answers as unknown
    if (own !== null && asked !== undefined && asked !== own) return notFound(c, 'merchant');
    const merchantId = own ?? asked ?? null;
    const merchants = await listMerchants(store, merchantId);
    if (merchantId !== null && merchants.length === 0) return notFound(c, 'merchant');
    const channels = (await Promise.all(merchants.map((m) => store.listChannels(m.id))))
      .flat()
      .filter((ch: Channel) => environmentOf(ch.mode) === deps.environment);
    const figures = await dayFigures(store, { merchantId, channels }, dayStart);
    return env.send(c, 200, ok, { figures });
  });
}
